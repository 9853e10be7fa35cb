#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The level detector the compressors share, in two stages.
///
/// 1. RMS: each channel's x² passes through two cascaded one-poles of 2.5 ms (a fixed averaging window, so the
///    reading of a steady tone does not depend on the attack and release settings; at 1 kHz the ripple left is
///    about ±0.005 dB, at 100 Hz about ±0.4 dB). Channels are linked by taking the largest mean square.
/// 2. Ballistics in dB: the level in dB follows the RMS level with a one-pole whose time constant is the attack
///    time while the level rises and the release time while it falls. Smoothing the level (not the gain) gives a
///    downward expander the same sense as a compressor: it opens with the attack and closes with the release.
///
/// Levels are sine-calibrated: 10·log10(mean square) + 3.01 dB, so a sine of peak amplitude A reads 20·log10(A)
/// dB (a full-scale sine reads 0 dB, as in AES17) and the static curves speak of a sine's peak level. Readings
/// are floored at -120 dB, the bottom of Apple's amplitude meters.
struct EnvelopeFollower {
    // Constants are computed (a `static let` initialises lazily through swift_once) and, like every helper the render
    // loops call, carry @_noLocks @_noAllocation: debug builds compile each file on its own, and the checker accepts
    // a call into another file only when the callee is annotated (it is then checked where it is defined).

    /// Time constant of each of the two RMS poles, seconds.
    static var averagingTime: Double { @_noLocks @_noAllocation get { 0.0025 } }
    /// The lowest level reported, dB.
    static var floorDB: Double { @_noLocks @_noAllocation get { -120.0 } }
    /// 10·log10(2): a sine's peak-to-RMS ratio in dB.
    static var sineCalibrationDB: Double { @_noLocks @_noAllocation get { 3.010299956639812 } }
    /// Doubles of state one channel needs for `meanSquare`.
    static var stateCount: Int { @_noLocks @_noAllocation get { 2 } }

    private let averaging: Double
    private var attack: Double
    private var release: Double

    /// A detector at `sampleRate` with attack and release time constants in seconds.
    init(sampleRate: Double, attack: Double, release: Double) {
        averaging = 1 - exp(-1 / (EnvelopeFollower.averagingTime * sampleRate))
        self.attack = 1
        self.release = 1
        setTimes(attack: attack, release: release, sampleRate: sampleRate)
    }

    /// Changes the ballistics (seconds; render-thread safe: arithmetic only).
    mutating func setTimes(attack: Double, release: Double, sampleRate: Double) {
        self.attack = 1 - exp(-1 / (attack * sampleRate))
        self.release = 1 - exp(-1 / (release * sampleRate))
    }

    /// Feeds one sample into a channel's RMS stage (`stateCount` Doubles at `state`) and returns its mean square.
    @inline(__always) @_noLocks @_noAllocation
    func meanSquare(_ x: Double, state: UnsafeMutablePointer<Double>) -> Double {
        var a = state[0], b = state[1]
        a += (x * x - a) * averaging
        b += (a - b) * averaging
        // Flush what silence decays toward (denormals are slow, and -300 dB is nothing); the negated test also
        // clears a NaN, so one bad sample cannot stall the detector for good.
        if !(a >= 1e-30) { a = 0 }
        if !(b >= 1e-30) { b = 0 }
        state[0] = a
        state[1] = b
        return b
    }

    /// The sine-calibrated level in dB of a mean square, floored at `floorDB`.
    @inline(__always) @_noLocks @_noAllocation
    static func level(meanSquare: Double) -> Double {
        // Below 1e-13 the reading is under the floor anyway; skip the logarithm of zero.
        if meanSquare < 1e-13 { return floorDB }
        return max(DynamicsMath.decibels(power: meanSquare) + sineCalibrationDB, floorDB)
    }

    /// One step of the ballistics: moves a smoothed level (dB) toward the detected `level` (dB).
    @inline(__always) @_noLocks @_noAllocation
    func follow(_ level: Double, from smoothed: Double) -> Double {
        smoothed + (level - smoothed) * (level > smoothed ? attack : release)
    }
}
