import Foundation

/// The property listeners of one object, or of every object of a kind, kept the same way for all that have them
/// (audio units, Audio Queues, the audio session, CAClocks, the HAL's objects): registrations in order under a lock
/// of their own, each with a serial number, removal by key, proc and client data (or any rule), and `fire`, which
/// takes the matching listeners under the lock and calls them after it is released, so that a listener may add or
/// remove listeners (or call back into its object) without deadlock.
///
/// The key is what a listener listens to: a property ID, or the HAL's object and address. Each kind passes `fire`
/// its own call (the proc's signature and arguments differ) and decides the thread: audio units and the session
/// call on the changing thread, an Audio Queue on its own thread, the HAL on a queue (it asks `isRegistered` there,
/// so a listener removed after its call was queued is not called). Never on a render thread (the lock is not
/// real-time safe).
package final class PropertyListenerList<Key: Equatable, Proc>: @unchecked Sendable {
    /// One registration.
    package struct Listener {
        /// What is listened to (a CAClock's listeners hear every message: 0).
        package let key: Key
        package let proc: Proc
        package let userData: UnsafeMutableRawPointer?
        /// Unique within the list, in registration order.
        package let serial: UInt64
    }

    /// Which of the matching registrations a removal takes.
    package enum Removal {
        /// The earliest (Apple's calls that remove one registration).
        case first
        /// The latest.
        case last
        /// Every one.
        case all
    }

    private let lock = NSLock()
    private var listeners: [Listener] = []
    private var nextSerial: UInt64 = 0

    /// An empty list.
    package init() {}

    /// Registers `proc` for `key` (the same proc and data may be registered twice, and is then called twice).
    package func add(_ key: Key, _ proc: Proc, _ userData: UnsafeMutableRawPointer?) {
        lock.withLock {
            nextSerial += 1
            listeners.append(Listener(key: key, proc: proc, userData: userData, serial: nextSerial))
        }
    }

    /// Removes the registrations `matches` picks (`which` of them); answers how many went.
    @discardableResult
    package func remove(_ which: Removal = .all, where matches: (Listener) -> Bool) -> Int {
        lock.withLock {
            switch which {
            case .first, .last:
                guard let i = which == .first ? listeners.firstIndex(where: matches) : listeners.lastIndex(where: matches) else { return 0 }
                listeners.remove(at: i)
                return 1
            case .all:
                let before = listeners.count
                listeners.removeAll(where: matches)
                return before - listeners.count
            }
        }
    }

    /// Whether the registration with this serial is still there.
    package func isRegistered(_ serial: UInt64) -> Bool {
        lock.withLock { listeners.contains { $0.serial == serial } }
    }

    /// The registrations `matches` picks now, in registration order.
    package func listeners(where matches: (Listener) -> Bool) -> [Listener] {
        lock.withLock { listeners.filter(matches) }
    }

    /// Calls `call` for each listener of `key`, outside the lock.
    package func fire(_ key: Key, _ call: (Listener) -> Void) {
        for l in listeners(where: { $0.key == key }) { call(l) }
    }
}

extension PropertyListenerList {
    /// Removes by key, C function (nil: every listener of the key) and, unless `anyUserData`, client data; `firstOnly`
    /// removes the earliest match (one registration), else every match. Answers how many went.
    @discardableResult
    package func remove(_ key: Key, _ proc: Proc?, _ userData: UnsafeMutableRawPointer?, anyUserData: Bool = false,
                        firstOnly: Bool = false) -> Int {
        remove(firstOnly ? .first : .all) { l in
            l.key == key && (proc.map { sameFunction(l.proc, $0) } ?? true) && (anyUserData || l.userData == userData)
        }
    }
}
