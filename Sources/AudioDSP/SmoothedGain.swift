#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A linear gain that glides toward its target with a one-pole of about 10 ms, so that gain parameters changed
/// between render slices do not click. Values are Double: a Float glide stalls short of its target.
struct SmoothedGain {
    /// The gain applied now.
    private(set) var value: Double
    /// Where the gain is heading.
    private(set) var target: Double
    private let coefficient: Double

    /// A gain resting at `decibels`, gliding with time constant `time` seconds at `sampleRate`.
    init(decibels: Double = 0, sampleRate: Double, time: Double = 0.010) {
        value = SmoothedGain.linear(decibels)
        target = value
        coefficient = 1 - exp(-1 / (time * sampleRate))
    }

    /// 10^(dB/20); exactly 1 at 0 dB, so a unity setting is bit-transparent.
    static func linear(_ decibels: Double) -> Double { decibels == 0 ? 1 : pow(10, decibels / 20) }

    /// Sets the target in dB (the glide starts with the next sample).
    mutating func setTarget(decibels: Double) { target = SmoothedGain.linear(decibels) }

    /// Jumps to the target (before the first audio, or after a reset).
    mutating func settle() { value = target }

    /// True when no glide is under way (lets a loop skip the per-sample update).
    var isSettled: Bool { @_noLocks @_noAllocation get { value == target } }

    /// Advances one sample and returns the gain for it.
    @inline(__always) @_noLocks @_noAllocation
    mutating func next() -> Double {
        if value != target {
            value += (target - value) * coefficient
            // The exponential never lands; 1e-7 relative (-140 dB) is close enough to snap.
            if abs(target - value) <= 1e-7 * target { value = target }
        }
        return value
    }
}
