import Foundation

/// The sounds AudioServicesCreateSystemSoundID made, by ID (IDs start above Apple's predefined ones).
enum SystemSoundRegistry {
    nonisolated(unsafe) private static var sounds: [SystemSoundID: SystemSound] = [:]
    nonisolated(unsafe) private static var nextID: SystemSoundID = 4097
    private static let lock = NSLock()

    static func add(_ sound: SystemSound) -> SystemSoundID {
        lock.lock(); defer { lock.unlock() }
        let id = nextID
        nextID += 1
        sounds[id] = sound
        return id
    }

    static func sound(_ id: SystemSoundID) -> SystemSound? {
        lock.lock(); defer { lock.unlock() }
        if id == kSystemSoundID_UserPreferredAlert { return SystemSound.alert }
        return sounds[id]
    }

    @discardableResult
    static func remove(_ id: SystemSoundID) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return sounds.removeValue(forKey: id) != nil
    }

    /// Runs `body` on a sound's settings under the registry's lock.
    static func withSound<T>(_ id: SystemSoundID, _ body: (SystemSound) -> T) -> T? {
        lock.lock(); defer { lock.unlock() }
        guard let s = id == kSystemSoundID_UserPreferredAlert ? SystemSound.alert : sounds[id] else { return nil }
        return body(s)
    }
}
