/// The set of live handles of one kind (audio unit instances, graphs), so that API calls can refuse
/// a bogus or disposed handle instead of dereferencing it. Disposed objects stay allocated in a
/// quarantine for a while, so their addresses cannot be reused at once by a new object: a stale
/// handle then reads as dead, not as somebody else's object. Never used on the render thread.
final class LiveHandleTable: Sendable {
    static let quarantineSize = 256

    private struct State {
        var live: Set<UInt> = []
        var quarantine: [AnyObject] = []
        var next = 0
    }
    private let state = LockedState(State())

    /// Registers a new object and returns its handle (the object is retained until `remove`).
    func add(_ object: AnyObject) -> UnsafeMutableRawPointer {
        let raw = Unmanaged.passRetained(object).toOpaque()
        let key = UInt(bitPattern: raw)
        state.withLock { _ = $0.live.insert(key) }
        return raw
    }

    /// The object behind a live handle, or nil.
    func object<T: AnyObject>(_ handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        let key = UInt(bitPattern: handle)
        guard state.withLock({ $0.live.contains(key) }) else { return nil }
        return Unmanaged<T>.fromOpaque(handle).takeUnretainedValue()
    }

    /// The objects of every live handle.
    func all<T: AnyObject>(as type: T.Type) -> [T] {
        state.withLock { $0.live.map { Unmanaged<T>.fromOpaque(UnsafeRawPointer(bitPattern: $0)!).takeUnretainedValue() } }
    }

    /// Ends a handle's life: returns its object (nil if it was not live) and quarantines it.
    func remove<T: AnyObject>(_ handle: UnsafeMutableRawPointer, as type: T.Type) -> T? {
        let key = UInt(bitPattern: handle)
        guard state.withLock({ $0.live.remove(key) != nil }) else { return nil }
        let object = Unmanaged<T>.fromOpaque(handle).takeRetainedValue()
        // The object the quarantine lets go of is released after the lock: its deinit may call the API (a node's
        // deinit removes a render notify), which takes this lock again (a CI run deadlocked there).
        var evicted: AnyObject?
        state.withLock { s in
            if s.quarantine.count < Self.quarantineSize {
                s.quarantine.append(object)
            } else {
                evicted = s.quarantine[s.next]
                s.quarantine[s.next] = object
                s.next = (s.next + 1) % Self.quarantineSize
            }
        }
        withExtendedLifetime(evicted) {}
        return object
    }
}
