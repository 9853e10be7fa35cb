#if canImport(Glibc)
import Glibc
#endif

/// The process-wide OpenAL state: open devices, their contexts, the current context and the one lock that
/// guards all of it. AL and ALC calls take the lock; a render callback only tries it (see ALContext).
final class ALState: @unchecked Sendable {
    static let shared = ALState()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var devices: [UnsafeMutableRawPointer: ALDevice] = [:]
    var contexts: [UnsafeMutableRawPointer: ALContext] = [:]
    var current: ALContext?
    /// ALC errors for calls that name no valid device.
    var globalALCError: ALCenum = ALC_NO_ERROR
    /// Apple's alcMacOSXMixerOutputRate: the rate new device contexts mix at (0: 44100 Hz).
    var mixerOutputRate: Double = 0

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    /// Runs `body` holding the lock (AL and ALC calls only; never from a render callback).
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Takes the lock if it is free (never waits, never allocates): the render callbacks' way in.
    @inline(__always) func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Releases a lock taken with tryLock.
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// The device behind a handle, or nil if the handle is not an open device (never dereferenced blindly).
    func device(_ handle: OpaquePointer?) -> ALDevice? {
        guard let handle else { return nil }
        return devices[UnsafeMutableRawPointer(handle)]
    }

    /// The context behind a handle, or nil if the handle is not a living context.
    func context(_ handle: OpaquePointer?) -> ALContext? {
        guard let handle else { return nil }
        return contexts[UnsafeMutableRawPointer(handle)]
    }

    /// Records an ALC error on `device`, or globally when there is no valid device (the first error is kept).
    func setALCError(_ device: ALDevice?, _ error: ALCenum) {
        if let device {
            if device.error == ALC_NO_ERROR { device.error = error }
        } else if globalALCError == ALC_NO_ERROR {
            globalALCError = error
        }
    }
}
