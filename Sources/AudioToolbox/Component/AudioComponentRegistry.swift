import Synchronization

/// The process-wide component registry: built-in units first (in a fixed order), then components
/// registered with `AudioComponentRegister` in registration order. Also tracks live instances so that
/// API calls on a disposed or bogus `AudioUnit` return `badComponentInstance` instead of crashing.
/// Never used on the render thread.
final class AudioComponentRegistry: Sendable {
    static let shared = AudioComponentRegistry()

    private struct State {
        var entries: [AudioComponentEntry] = []
        var liveInstances: Set<UInt> = []
        /// Recently disposed instances, kept allocated so that their addresses cannot be reused by a
        /// new instance at once: a stale handle then reads as dead instead of as someone else's unit.
        var quarantine: [AnyObject] = []
        var quarantineNext = 0
    }
    static let quarantineSize = 256
    private let state: LockedState<State>

    private init() {
        var initial = State()
        initial.entries = BuiltInUnits.entries()
        state = LockedState(initial)
    }

    func findNext(after component: AudioComponent?, matching d: AudioComponentDescription) -> AudioComponentEntry? {
        state.withLock { s in
            var start = 0
            if let component {
                guard let index = s.entries.firstIndex(where: { $0.handle == component }) else { return nil }
                start = index + 1
            }
            return s.entries[start...].first { $0.matches(d) }
        }
    }

    func count(matching d: AudioComponentDescription) -> Int {
        state.withLock { s in s.entries.count { $0.matches(d) } }
    }

    func entry(for component: AudioComponent) -> AudioComponentEntry? {
        state.withLock { s in s.entries.first { $0.handle == component } }
    }

    /// Adds an entry. Like Apple's, a description equal to an existing one is still registered; the
    /// newer one is found after the older in search order.
    func register(_ entry: AudioComponentEntry) {
        state.withLock { s in s.entries.append(entry) }
    }

    func addInstance(_ p: UnsafeMutableRawPointer) {
        let key = UInt(bitPattern: p)
        _ = state.withLock { s in s.liveInstances.insert(key) }
    }

    /// Removes the instance; false if it was not live (double dispose).
    func removeInstance(_ p: UnsafeMutableRawPointer) -> Bool {
        let key = UInt(bitPattern: p)
        return state.withLock { s in s.liveInstances.remove(key) != nil }
    }

    /// Keeps a disposed instance's memory for a while (see `quarantine`).
    func quarantine(_ object: AnyObject) {
        state.withLock { s in
            if s.quarantine.count < Self.quarantineSize {
                s.quarantine.append(object)
            } else {
                s.quarantine[s.quarantineNext] = object
                s.quarantineNext = (s.quarantineNext + 1) % Self.quarantineSize
            }
        }
    }

    func isLive(_ p: UnsafeMutableRawPointer) -> Bool {
        let key = UInt(bitPattern: p)
        return state.withLock { s in s.liveInstances.contains(key) }
    }
}
