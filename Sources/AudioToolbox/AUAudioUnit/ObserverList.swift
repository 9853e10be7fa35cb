import Synchronization

/// Callbacks registered under tokens: edited under a lock, read without one. Readers (any thread, the
/// render thread included) call through an immutable snapshot published by one atomic pointer; replaced
/// snapshots are kept until the list dies, so a reader never touches freed memory and never waits.
final class ObserverList<Callback>: @unchecked Sendable {
    private final class Snapshot {
        let tokens: [UnsafeMutableRawPointer]
        let callbacks: [Callback]
        init(_ entries: [(UnsafeMutableRawPointer, Callback)]) {
            tokens = entries.map(\.0)
            callbacks = entries.map(\.1)
        }
    }

    private struct Edits {
        var entries: [(UnsafeMutableRawPointer, Callback)] = []
        var snapshots: [Snapshot] = []
    }
    private let current = Atomic<UnsafeMutableRawPointer?>(nil)
    private let edits = LockedState(Edits())

    /// Adds a callback; returns its token (unique in the process, never null).
    func add(_ callback: Callback) -> UnsafeMutableRawPointer {
        let token = UnsafeMutableRawPointer(bitPattern: observerTokenCounter.add(1, ordering: .relaxed).newValue)!
        edits.withLock { e in
            e.entries.append((token, callback))
            publish(&e)
        }
        return token
    }

    /// Removes the callback of `token`; false if it is not in this list.
    @discardableResult
    func remove(_ token: UnsafeMutableRawPointer) -> Bool {
        edits.withLock { e in
            guard let i = e.entries.firstIndex(where: { $0.0 == token }) else { return false }
            e.entries.remove(at: i)
            publish(&e)
            return true
        }
    }

    private func publish(_ e: inout Edits) {
        let snapshot = Snapshot(e.entries)
        e.snapshots.append(snapshot)
        current.store(Unmanaged.passUnretained(snapshot).toOpaque(), ordering: .releasing)
    }

    /// Calls `body` with every token and callback. No lock, no allocation.
    @inline(__always)
    func forEach(_ body: (UnsafeMutableRawPointer, Callback) -> Void) {
        guard let p = current.load(ordering: .acquiring) else { return }
        Unmanaged<Snapshot>.fromOpaque(p)._withUnsafeGuaranteedRef { s in
            for i in 0..<s.callbacks.count { body(s.tokens[i], s.callbacks[i]) }
        }
    }
}

/// The source of observer tokens (parameter and render observers share one sequence).
let observerTokenCounter = Atomic<Int>(0)
