#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The second-order designs behind Apple's filter units (AULowpass, AUHipass, AUBandpass, the shelves,
/// AUParametricEQ, AUNBandEQ's eleven types): bilinear-transform sections after the RBJ cookbook, with Apple's
/// parameterisations (resonance in dB, bandwidth in octaves or cents). Every design keeps its frequency below
/// 0.499 of the rate, so a parameter at Nyquist stays a stable filter. No allocation: usable on a render thread.
extension BiquadCoefficients {
    /// The Q of a 2-pole filter whose peak at the cutoff is `resonanceDB` above a Butterworth's (0 dB: Q = 1/√2,
    /// the flat response whose cutoff is -3 dB).
    @inlinable
    public static func q(resonanceDB: Double) -> Double { pow(10, resonanceDB / 20) / 2.0.squareRoot() }

    /// `sin(ω)/(2Q)` for a bandwidth of `octaves` between the -3 dB (or half-gain) edges, prewarped so the
    /// digital filter's edges land on the requested octaves.
    @inlinable
    public static func alpha(bandwidthOctaves octaves: Double, frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        // Near Nyquist w/sin(w) grows without bound; the cap keeps the poles inside the unit circle.
        return sin(w) * sinh(min(log(2.0) / 2 * octaves * w / sin(w), 10))
    }

    @inlinable
    static func clampedFrequency(_ f: Double, _ sampleRate: Double) -> Double { min(max(f, 1e-3), 0.499 * sampleRate) }

    /// Two-pole low-pass: unity at DC, Q at the cutoff.
    public static func lowPass(frequency: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let c = cos(w), alpha = sin(w) / (2 * q), a0 = 1 + alpha
        return BiquadCoefficients(b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    /// Two-pole high-pass: unity at Nyquist, Q at the cutoff.
    public static func highPass(frequency: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let c = cos(w), alpha = sin(w) / (2 * q), a0 = 1 + alpha
        return BiquadCoefficients(b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    /// Band-pass with 0 dB at the centre and -3 dB edges `octaves` apart.
    public static func bandPass(frequency: Double, octaves: Double, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let alpha = alpha(bandwidthOctaves: octaves, frequency: frequency, sampleRate: sampleRate), a0 = 1 + alpha
        return BiquadCoefficients(b0: alpha / a0, b1: 0, b2: -alpha / a0, a1: -2 * cos(w) / a0, a2: (1 - alpha) / a0)
    }

    /// Band-stop (notch): zero at the centre, -3 dB edges `octaves` apart.
    public static func bandStop(frequency: Double, octaves: Double, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let alpha = alpha(bandwidthOctaves: octaves, frequency: frequency, sampleRate: sampleRate), a0 = 1 + alpha
        let c = cos(w)
        return BiquadCoefficients(b0: 1 / a0, b1: -2 * c / a0, b2: 1 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    /// Peaking EQ with its half-gain (in dB) edges `octaves` apart, as AUNBandEQ's parametric type.
    public static func peaking(frequency: Double, octaves: Double, gainDB: Double, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let a = pow(10, gainDB / 40), c = cos(w)
        let alpha = alpha(bandwidthOctaves: octaves, frequency: frequency, sampleRate: sampleRate), a0 = 1 + alpha / a
        return BiquadCoefficients(b0: (1 + alpha * a) / a0, b1: -2 * c / a0, b2: (1 - alpha * a) / a0,
                                  a1: -2 * c / a0, a2: (1 - alpha / a) / a0)
    }

    /// A shelf of `gainDB` below (low) or above (high) `frequency`, with half the gain (in dB) at the corner and
    /// the corner's sharpness set by `q` (1/√2: the plain shelf, no overshoot; larger: a resonant shelf).
    public static func shelf(frequency: Double, gainDB: Double, q: Double, high: Bool, sampleRate: Double) -> BiquadCoefficients {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        let a = pow(10, gainDB / 40), c = cos(w), alpha = sin(w) / (2 * q)
        let k = 2 * a.squareRoot() * alpha
        let s: Double = high ? -1 : 1
        let a0 = (a + 1) + s * (a - 1) * c + k
        return BiquadCoefficients(
            b0: a * ((a + 1) - s * (a - 1) * c + k) / a0,
            b1: s * 2 * a * ((a - 1) - s * (a + 1) * c) / a0,
            b2: a * ((a + 1) - s * (a - 1) * c - k) / a0,
            a1: -s * 2 * ((a - 1) + s * (a + 1) * c) / a0,
            a2: ((a + 1) + s * (a - 1) * c - k) / a0)
    }

    /// The Q whose -3 dB bandwidth is `octaves` (for the resonant types parameterised by bandwidth).
    public static func q(octaves: Double, frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * clampedFrequency(frequency, sampleRate) / sampleRate
        return sin(w) / (2 * alpha(bandwidthOctaves: octaves, frequency: frequency, sampleRate: sampleRate))
    }

    /// Phase of H(e^jω) at `frequency`, radians.
    public func phase(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return atan2(ni, nr) - atan2(di, dr)
    }
}
