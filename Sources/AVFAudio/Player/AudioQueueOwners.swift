import Foundation

/// The user data an AVAudioPlayer or AVAudioRecorder hands its audio queue: a token that stands for one queue of
/// one owner, looked up here (weakly) when a callback arrives. A queue's thread may still be inside a callback
/// after the owner disposed of that queue or went away; the token then finds nothing, where a raw pointer to the
/// owner would find freed memory.
final class AudioQueueOwners: @unchecked Sendable {
    /// The process-wide table.
    static let shared = AudioQueueOwners()

    private struct Entry { weak var owner: AnyObject? }
    private let lock = NSLock()
    private var entries: [UInt: Entry] = [:]
    private var next: UInt = 1

    /// A new token for one queue of `owner` (never zero, never reused).
    func register(_ owner: AnyObject) -> UInt {
        lock.lock(); defer { lock.unlock() }
        let token = next
        next += 1
        entries[token] = Entry(owner: owner)
        return token
    }

    /// The token as the user-data pointer a queue carries.
    static func pointer(_ token: UInt) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: token) }

    /// The owner a token was registered for, while it lives and the token is registered.
    func owner<T: AnyObject>(_ token: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let token else { return nil }
        lock.lock(); defer { lock.unlock() }
        return entries[UInt(bitPattern: token)]?.owner as? T
    }

    /// Forgets a token: callbacks that carry it from now on are ignored.
    func unregister(_ token: UInt) {
        lock.lock(); defer { lock.unlock() }
        entries[token] = nil
    }
}
