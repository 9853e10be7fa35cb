#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The 3D mixer's laws: where a source at (azimuth, elevation) lands between two ears or speakers, how loud
/// it is at a distance, and the spherical-head model (interaural delay and head shadow). Angles in degrees,
/// azimuth clockwise from straight ahead (+90 = right), elevation up. Plain functions; no allocation.
public enum SpatialKernels {
    /// The source direction's component along the listener's left-right axis: sin(azimuth)·cos(elevation),
    /// -1 (left) ... 1 (right). A source behind lands where its mirror image in front would.
    @inlinable public static func lateral(azimuth: Float, elevation: Float) -> Double {
        let rad = Double.pi / 180
        return sin(Double(azimuth) * rad) * cos(Double(elevation) * rad)
    }

    /// Equal-power panning: θ = (lateral + 1)·π/4, gains (cos θ, sin θ). L² + R² = 1; straight ahead is
    /// -3.01 dB per side, azimuth +90 is right only.
    @inlinable public static func equalPowerGains(azimuth: Float, elevation: Float) -> (left: Float, right: Float) {
        let theta = (lateral(azimuth: azimuth, elevation: elevation) + 1) * Double.pi / 4
        return (Float(cos(theta)), Float(sin(theta)))
    }

    /// Two-speaker vector base amplitude panning (Pulkki 1997) for a stereo pair at ±`speakerAngle` degrees:
    /// the gains solve p = g_L·l_L + g_R·l_R for the source's horizontal direction p (its lateral
    /// component, folded to the front), negative gains clip to zero, and the pair is normalised to
    /// g_L² + g_R² = 1. Inside the pair this is the tangent law; outside, the nearer speaker alone.
    @inlinable public static func vectorBaseGains(azimuth: Float, elevation: Float, speakerAngle: Double = 30) -> (left: Float, right: Float) {
        let x = lateral(azimuth: azimuth, elevation: elevation)
        let p = (x, (1 - x * x).squareRoot())                  // (right, front) of the folded direction
        let s = sin(speakerAngle * Double.pi / 180), c = cos(speakerAngle * Double.pi / 180)
        // Speakers l_L = (-s, c), l_R = (s, c): [g_L g_R] = p · inverse([[-s, c], [s, c]]).
        let det = -2 * s * c
        var gL = (p.0 * c - p.1 * s) / det, gR = (-p.0 * c - p.1 * s) / det
        gL = max(gL, 0); gR = max(gR, 0)
        let norm = (gL * gL + gR * gR).squareRoot()
        return norm > 0 ? (Float(gL / norm), Float(gR / norm)) : (Float(0.5.squareRoot()), Float(0.5.squareRoot()))
    }

    /// Distance attenuation curves (values of AUSpatialMixerAttenuationCurve). Distances below the
    /// reference give 1, beyond the maximum the value at the maximum; `rolloff` scales the slope.
    public enum AttenuationCurve: UInt32, Sendable {
        /// (ref / d)^rolloff: -6.02·rolloff dB per doubling of distance.
        case power = 0
        /// 2^(-rolloff·(d - ref)/ref): halves every reference distance.
        case exponential = 1
        /// ref / (ref + rolloff·(d - ref)), OpenAL's inverse-distance-clamped model.
        case inverse = 2
        /// 1 - rolloff·(d - ref)/(max - ref), not below 0.
        case linear = 3
    }

    /// The linear gain of a source at `distance` metres, never quieter than -`maxAttenuationDB` dB.
    @inlinable public static func distanceGain(_ distance: Float, curve: AttenuationCurve, reference: Float, maximum: Float,
                                               maxAttenuationDB: Float, rolloff: Double = 1) -> Float {
        let ref = Double(max(reference, 1e-6)), maxD = Double(max(maximum, reference))
        let d = min(max(Double(distance), ref), maxD)
        let g: Double
        switch curve {
        case .power: g = pow(ref / d, rolloff)
        case .exponential: g = pow(2, -rolloff * (d - ref) / ref)
        case .inverse: g = ref / (ref + rolloff * (d - ref))
        case .linear: g = maxD > ref ? max(1 - rolloff * (d - ref) / (maxD - ref), 0) : 1
        }
        return Float(max(g, pow(10, -Double(maxAttenuationDB) / 20)))
    }

    /// Brown & Duda's spherical head (IEEE Trans. Speech Audio Proc. 6(5), 1998): head radius `headRadius`
    /// metres, sound speed 343 m/s. For an ear at angle θ from the source direction, the head shadow is
    /// H(s) = (1 + α(θ)·s/(2ω0)) / (1 + s/(2ω0)) with ω0 = c/a and α(θ) = 1.05 + 0.95·cos(θ·180/150)
    /// (+6 dB at high frequencies facing the source, -20 dB at 150°), and the arrival time is
    /// -(a/c)·cos θ (θ < 90°) or (a/c)·(θ - π/2) (behind the ear's plane).
    public struct SphericalHead: Sendable, Equatable {
        public static let speedOfSound = 343.0
        /// A one-pole one-zero section y = b0 x + b1 x1 - a1 y1 (bilinear transform of H(s)).
        public struct Shadow: Sendable, Equatable {
            public var b0: Float, b1: Float, a1: Float
            /// One-pole, one-zero coefficients: y = b0 x + b1 x[-1] - a1 y[-1].
            public init(b0: Float, b1: Float, a1: Float) { self.b0 = b0; self.b1 = b1; self.a1 = a1 }
        }
        public var left: Shadow, right: Shadow
        /// Extra delay of each ear in frames; the nearer ear has 0.
        public var leftDelay: Double, rightDelay: Double

        /// The α of an ear at `theta` radians from the source direction.
        @inlinable public static func alpha(_ theta: Double) -> Double { 1.05 + 0.95 * cos(theta * 180 / 150) }

        /// Arrival time (seconds, relative to the head's centre) at an ear `theta` radians from the source.
        @inlinable public static func arrival(_ theta: Double, headRadius: Double) -> Double {
            let t = headRadius / speedOfSound
            return theta < Double.pi / 2 ? -t * cos(theta) : t * (theta - Double.pi / 2)
        }

        /// The interaural delay and head-shadow filters for a source at `azimuth` and `elevation` (degrees).
        @inlinable public init(azimuth: Float, elevation: Float, sampleRate: Double, headRadius: Double = 0.0875) {
            let x = min(max(SpatialKernels.lateral(azimuth: azimuth, elevation: elevation), -1), 1)
            let thetaR = acos(x), thetaL = acos(-x)
            let k = 2 * sampleRate, w2 = 2 * Self.speedOfSound / headRadius
            func shadow(_ theta: Double) -> Shadow {
                let a = Self.alpha(theta), d = w2 + k
                return Shadow(b0: Float((w2 + a * k) / d), b1: Float((w2 - a * k) / d), a1: Float((w2 - k) / d))
            }
            left = shadow(thetaL)
            right = shadow(thetaR)
            let tL = Self.arrival(thetaL, headRadius: headRadius), tR = Self.arrival(thetaR, headRadius: headRadius)
            let first = min(tL, tR)
            leftDelay = (tL - first) * sampleRate
            rightDelay = (tR - first) * sampleRate
        }

        /// The largest interaural delay in frames (a source on the ear axis).
        @inlinable public static func maxDelay(sampleRate: Double, headRadius: Double = 0.0875) -> Double {
            headRadius / speedOfSound * (1 + Double.pi / 2) * sampleRate
        }
    }

    /// Runs both ears' head-shadow sections in place over `count` samples with states (x1, y1), each numerator
    /// moving linearly from `from` to `to` across the slice (a1 depends only on the head and rate, and b0, b1
    /// are linear in α, so this is a linear sweep of α: a moving source changes its shadow without a step).
    /// The two recursions share one loop so they overlap in the pipeline. Returns the new states.
    @inlinable @_noLocks @_noAllocation
    public static func shadow(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int,
                              from: SphericalHead, to: SphericalHead,
                              state: ((Float, Float), (Float, Float))) -> ((Float, Float), (Float, Float)) {
        var (lx1, ly1) = state.0, (rx1, ry1) = state.1
        let scale = count > 0 ? 1 / Float(count) : 0
        let dlb0 = (to.left.b0 - from.left.b0) * scale, dlb1 = (to.left.b1 - from.left.b1) * scale
        let drb0 = (to.right.b0 - from.right.b0) * scale, drb1 = (to.right.b1 - from.right.b1) * scale
        var lb0 = from.left.b0, lb1 = from.left.b1, rb0 = from.right.b0, rb1 = from.right.b1
        let la1 = to.left.a1, ra1 = to.right.a1
        var i = 0
        while i < count {
            lb0 += dlb0; lb1 += dlb1; rb0 += drb0; rb1 += drb1
            let lx = left[i], rx = right[i]
            let ly = lb0 * lx + lb1 * lx1 - la1 * ly1
            let ry = rb0 * rx + rb1 * rx1 - ra1 * ry1
            left[i] = ly; right[i] = ry
            lx1 = lx; ly1 = ly; rx1 = rx; ry1 = ry
            i += 1
        }
        return ((lx1, ly1), (rx1, ry1))
    }

    /// Reads `count` samples from a delay line: `signal[i]` is the current sample and `signal[i - k]` older
    /// ones (the caller keeps history before `signal`). The delay moves linearly from `from` to `to` frames
    /// over the slice; fractional delays interpolate linearly.
    @inlinable @_noLocks @_noAllocation
    public static func delayRead(_ signal: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
                                 from: Double, to: Double) {
        let step = count > 0 ? (to - from) / Double(count) : 0
        var d = from
        var i = 0
        if from == to {
            // A still source: one whole offset and one fraction for the slice.
            let truncated = Int(d)
            let whole = Double(truncated) < d ? truncated + 1 : truncated   // ceil(d)
            let frac = Float(Double(whole) - d)                            // weight of the newer sample
            let older = signal - whole
            while i < count {
                // frac == 0 reads older[i + 1] only when it exists (whole ≥ 1) or multiplies nothing in.
                output[i] = frac == 0 ? older[i] : older[i] + frac * (older[i + 1] - older[i])
                i += 1
            }
            return
        }
        while i < count {
            let position = Double(i) - d
            let truncated = Int(position)  // floor without libm: truncation, one less below zero
            let base = Double(truncated) > position ? truncated - 1 : truncated
            let frac = Float(position - Double(base))
            let a = signal[base]
            // A whole-frame delay reads one sample: signal[base + 1] may be beyond the slice.
            output[i] = frac == 0 ? a : a + frac * (signal[base + 1] - a)
            d += step
            i += 1
        }
    }
}
