import Foundation

/// The property listeners of one object, kept the same way for every object kind that has them (audio units, Audio
/// Queues, the audio session, CAClocks): registrations in order under a lock of their own, removal by property ID,
/// proc and client data, and `fire`, which takes the matching listeners under the lock and calls them after it is
/// released, so that a listener may add or remove listeners (or call back into its object) without deadlock.
/// Each kind passes `fire` its own call (the proc's signature and arguments differ) and decides the thread:
/// audio units and the session call on the changing thread, an Audio Queue on its own thread. Never on a
/// render thread (the lock is not real-time safe).
final class PropertyListenerList<Proc>: @unchecked Sendable {
    struct Listener {
        /// The property listened to (a CAClock's listeners hear every message: 0).
        let id: UInt32
        let proc: Proc
        let userData: UnsafeMutableRawPointer?
    }

    private let lock = NSLock()
    private var listeners: [Listener] = []

    init() {}

    /// Registers `proc` for `id` (the same proc and data may be registered twice, and is then called twice).
    func add(_ id: UInt32, _ proc: Proc, _ userData: UnsafeMutableRawPointer?) {
        lock.withLock { listeners.append(Listener(id: id, proc: proc, userData: userData)) }
    }

    /// What a removal matches besides the ID: a proc (nil: every listener of the ID) and, unless `anyUserData`, the
    /// client data; `firstOnly` removes the earliest match (one registration), else every match. Answers how many went.
    @discardableResult
    func remove(_ id: UInt32, _ proc: Proc?, _ userData: UnsafeMutableRawPointer?, anyUserData: Bool = false,
                firstOnly: Bool = false) -> Int {
        lock.withLock {
            let matches = { (l: Listener) in
                l.id == id && (proc.map { sameFunction(l.proc, $0) } ?? true) && (anyUserData || l.userData == userData)
            }
            if firstOnly {
                guard let i = listeners.firstIndex(where: matches) else { return 0 }
                listeners.remove(at: i)
                return 1
            }
            let before = listeners.count
            listeners.removeAll(where: matches)
            return before - listeners.count
        }
    }

    /// The listeners of `id` now, in registration order.
    func listeners(of id: UInt32) -> [Listener] {
        lock.withLock { listeners.filter { $0.id == id } }
    }

    /// Calls `call` for each listener of `id`, outside the lock.
    func fire(_ id: UInt32, _ call: (Listener) -> Void) {
        for l in listeners(of: id) { call(l) }
    }
}
