// Darwin's mach_absolute_time / mach_timebase_info, which Core Audio client code reads host times with
// (`AVAudioTime(hostTime: mach_absolute_time())`, `AudioTimeStamp.mHostTime`). On Apple's platforms they
// come with Darwin; here they are the host clock of HostTime.h: nanoseconds, so the timebase is 1/1.
#if !canImport(Darwin)
import COCASupport

/// Darwin's `mach_timebase_info_data_t`: host ticks times `numer / denom` are nanoseconds.
public struct mach_timebase_info_data_t: Sendable, Equatable {
    /// The numerator of the tick-to-nanosecond ratio.
    public var numer: UInt32
    /// The denominator of the tick-to-nanosecond ratio.
    public var denom: UInt32
    /// A zeroed timebase, as `mach_timebase_info_data_t()` is on Darwin.
    public init() { numer = 0; denom = 0 }
    /// A timebase with the given ratio.
    public init(numer: UInt32, denom: UInt32) { self.numer = numer; self.denom = denom }
}

/// Darwin's `mach_timebase_info_t`.
public typealias mach_timebase_info_t = UnsafeMutablePointer<mach_timebase_info_data_t>

/// Darwin's `mach_absolute_time`: the host clock, the same ticks `AudioGetCurrentHostTime` answers.
public func mach_absolute_time() -> UInt64 { oca_monotonic_nanoseconds() }

/// Darwin's `mach_timebase_info`: fills in 1/1 (host ticks are nanoseconds); returns 0 (KERN_SUCCESS).
@discardableResult
public func mach_timebase_info(_ info: mach_timebase_info_t!) -> Int32 {
    info?.pointee = mach_timebase_info_data_t(numer: 1, denom: 1)
    return 0
}
#endif
