#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SoundFont unit conversions, written after FluidSynth's fluid_conv.c so that the engine sounds like the
/// `fluidsynth` reference (same clamps, same curves); computed directly instead of from FluidSynth's tables (in plain
/// Swift through DynamicsMath where the real-time checker must see the body).
enum SamplerMath {
    /// Absolute cents to Hz (8.176 Hz at 0 cents), no clamping.
    @_noLocks @_noAllocation
    static func centsToHz(_ cents: Double) -> Double {
        8.1757989156437073 * DynamicsMath.exp2(cents / 1200)
    }

    /// Hz to absolute cents.
    @_noLocks @_noAllocation
    static func hzToCents(_ hz: Double) -> Double {
        6900 + 1200 * DynamicsMath.log2(hz / 440)
    }

    /// Centibels of attenuation to an amplitude factor; 1441 cB and more is silence (FluidSynth's table ends
    /// there), negative values amplify.
    @_noLocks @_noAllocation
    static func centibelsToAmplitude(_ cb: Double) -> Double {
        if cb >= 1441 { return 0 }
        return DynamicsMath.exp2(cb * (-0.016609640474436813))  // 10^(-cb/200)
    }

    /// Timecents to seconds.
    @_noLocks @_noAllocation
    static func timecentsToSeconds(_ tc: Double) -> Double {
        DynamicsMath.exp2(tc / 1200)
    }

    /// A delay generator (LFO and envelope delays): -32768 is no delay, else clamped to -12000...5000.
    @_noLocks @_noAllocation
    static func delaySeconds(_ tc: Double) -> Double {
        if tc <= -32768 { return 0 }
        return timecentsToSeconds(min(max(tc, -12000), 5000))
    }

    /// An attack or release generator: -32768 is instantaneous, else clamped to -12000...8000.
    @_noLocks @_noAllocation
    static func attackSeconds(_ tc: Double) -> Double {
        if tc <= -32768 { return 0 }
        return timecentsToSeconds(min(max(tc, -12000), 8000))
    }

    /// SoundFont's concave curve on 0...1 (section 8.2.4, as FluidSynth draws it after the spec's figures):
    /// -(20/96)·log10((1-x)²) with the ends pinned to 0 and 1.
    @_noLocks @_noAllocation
    static func concave(_ x: Double) -> Double {
        let i = x * 127
        if i <= 0 { return 0 }
        if i >= 127 { return 1 }
        return (-400.0 / 960.0) * 0.30102999566398120 * DynamicsMath.log2((127 - i) / 127)
    }

    /// SoundFont's convex curve on 0...1, the mirror image of `concave`.
    @_noLocks @_noAllocation
    static func convex(_ x: Double) -> Double {
        let i = x * 127
        if i <= 0 { return 0 }
        if i >= 127 { return 1 }
        return 1 + (400.0 / 960.0) * 0.30102999566398120 * DynamicsMath.log2(i / 127)
    }

    /// FluidSynth's constant-power pan law: the gain of one side for a pan of `c` tenths of a percent
    /// (-500 hard left ... 500 hard right): sin((c + 500)·(π/2)/1001) for the right side, mirrored for the left.
    static func panGain(_ c: Double, left: Bool) -> Double {
        let v = left ? -c : c
        if v <= -500 { return 0 }
        if v >= 500 { return 1 }
        return sin(Double(Int(v) + 500) * (Double.pi / 2) / 1001)
    }

    /// The filter Q in centibels to the biquad's linear Q, as FluidSynth defines it: 0 dB means no resonance
    /// peak (a Butterworth response), so 3.01 dB is taken off before converting.
    static func filterQ(_ centibels: Double) -> Double {
        let dB = min(max(centibels / 10, 0), 96) - 3.01
        return pow(10, dB / 20)
    }
}
