import Foundation
import Synchronization

/// A lock the render thread only tries (one atomic exchange, never a wait or a system call) and other
/// threads spin on for the few microseconds a render holds it.
struct RenderTryLock: ~Copyable {
    private let held = Atomic<Bool>(false)

    /// Render side: takes the lock if it is free.
    @inline(__always)
    func tryLock() -> Bool { !held.exchange(true, ordering: .acquiring) }

    /// Client side: takes the lock, yielding while a render holds it.
    func lock() {
        while held.exchange(true, ordering: .acquiring) { sched_yield() }
    }

    /// Releases the lock.
    @inline(__always)
    func unlock() { held.store(false, ordering: .releasing) }
}
