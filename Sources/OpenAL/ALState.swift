#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The process-wide OpenAL state: open devices, their contexts, the current context, and two locks. The API
/// lock serialises AL and ALC calls. The render lock guards only what a render callback touches (each
/// context's bus table and its sources' queues, cursors and states): AL calls take it briefly, inside the
/// API lock, and only when they touch those; a render callback only tries it. Position, gain and the like
/// never take it, so the frequent calls cannot make a render slice miss it. The render lock is an atomic flag, not a
/// mutex: the render side's try and release are one atomic operation each, with no system call (a mutex's unlock may
/// wake a waiter through the kernel).
final class ALState: @unchecked Sendable {
    static let shared = ALState()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let renderBusy = Atomic<Bool>(false)
    var devices: [UnsafeMutableRawPointer: ALDevice] = [:]
    var contexts: [UnsafeMutableRawPointer: ALContext] = [:]
    var current: ALContext?
    /// ALC errors for calls that name no valid device.
    var globalALCError: ALCenum = ALC_NO_ERROR
    /// Apple's alcMacOSXMixerOutputRate: the rate new device contexts mix at (0: 44100 Hz).
    var mixerOutputRate: Double = 0
    /// Apple's alcMacOSXRenderingQuality: LOW pans, HIGH and HEADPHONES render with HRTF (every context).
    var renderingQuality: ALint = ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW

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

    /// Takes the API lock (for a caller that must not allocate: a closure's context might, unoptimised).
    func lockAPI() { pthread_mutex_lock(mutex) }

    /// Releases the API lock taken with lockAPI.
    func unlockAPI() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the render lock (an AL call, already holding the API lock, touching what renders).
    func rendering<T>(_ body: () -> T) -> T {
        // A render holds it for one slice's bookkeeping at most: yield until it lets go.
        while !renderBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { sched_yield() }
        defer { renderBusy.store(false, ordering: .releasing) }
        return body()
    }

    /// Runs `body` holding the render lock, then publishes `source`'s play cursor for lock-free queries.
    func rendering<T>(publishing source: ALSource, _ body: () -> T) -> T {
        rendering {
            let result = body()
            source.publish()
            return result
        }
    }

    /// Takes the render lock if it is free or freed within a bounded spin (never sleeps, never allocates): the render
    /// callbacks' way in.
    @inline(__always) func tryLock() -> Bool {
        // AL calls hold it for a few microseconds (a state query, a queue edit): retry a bounded number of times
        // (tens of microseconds, no system call) before giving the slice up, so that a client polling
        // AL_SOURCE_STATE does not silence a slice whenever its query meets the render.
        for _ in 0..<4096 {
            if renderBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return true }
        }
        return false
    }

    /// Releases the render lock taken with tryLock.
    @inline(__always) func unlock() { renderBusy.store(false, ordering: .releasing) }

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
