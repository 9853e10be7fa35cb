#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4th-order Linkwitz-Riley crossover at one frequency: low = B², high = H², with B and H the bilinear-transform
/// Butterworth (Q = 1/√2) second-order low- and high-pass. Low and high are in phase at every frequency and sum to
/// the second-order allpass A = (s² − √2·s + 1)/(s² + √2·s + 1), which `allpass` applies on its own: a branch that
/// skips this split passes through A so that every path of a crossover tree picks up the same phase. The identity
/// B² + H² = A survives the bilinear transform, so the digital sum is an allpass to rounding.
///
/// Coefficients only; each channel's state is a few Doubles the caller owns (no allocation, real-time safe).
/// Transposed direct form II in Double: a 20 Hz crossover at 192 kHz is too narrow for Float.
struct LinkwitzRileyCrossover {
    /// Doubles of state one channel needs for `split` (four second-order sections).
    static var splitStateCount: Int { @_noLocks @_noAllocation get { 8 } }
    /// Doubles of state one channel needs for `allpass`.
    static var allpassStateCount: Int { @_noLocks @_noAllocation get { 2 } }

    /// The crossover frequency, Hz (where low and high are both at -6 dB).
    private(set) var frequency: Double
    // Low-pass and high-pass numerators; all three filters share the denominator 1 + a1·z⁻¹ + a2·z⁻².
    private var lb0 = 0.0, lb1 = 0.0, lb2 = 0.0
    private var hb0 = 0.0, hb1 = 0.0, hb2 = 0.0
    private var a1 = 0.0, a2 = 0.0

    /// A crossover at `frequency` Hz, kept between 1 Hz and 0.49 of `sampleRate`.
    init(frequency: Double, sampleRate: Double) {
        self.frequency = frequency
        setFrequency(frequency, sampleRate: sampleRate)
    }

    /// Redesigns for `frequency` Hz (render-thread safe: arithmetic only). The state carries over.
    mutating func setFrequency(_ frequency: Double, sampleRate: Double) {
        let f = min(max(frequency, 1), 0.49 * sampleRate)
        self.frequency = f
        // Bilinear transform with the cutoff prewarped: K = tan(π f / fs).
        let k = tan(Double.pi * f / sampleRate)
        let k2 = k * k
        let norm = 1 / (1 + 2.0.squareRoot() * k + k2)
        a1 = 2 * (k2 - 1) * norm
        a2 = (1 - 2.0.squareRoot() * k + k2) * norm
        lb0 = k2 * norm
        lb1 = 2 * lb0
        lb2 = lb0
        hb0 = norm
        hb1 = -2 * norm
        hb2 = norm
    }

    /// One second-order section; `s` holds its two state values.
    @inline(__always) @_noLocks @_noAllocation
    private func section(_ x: Double, _ b0: Double, _ b1: Double, _ b2: Double, _ s: UnsafeMutablePointer<Double>) -> Double {
        let y = b0 * x + s[0]
        var s0 = b1 * x - a1 * y + s[1]
        var s1 = b2 * x - a2 * y
        // Flush what silence decays toward (-500 dB): denormals are slow. The negated test also clears a NaN, so a
        // bad sample cannot lock the filter up.
        if !(abs(s0) >= 1e-25) { s0 = 0 }
        if !(abs(s1) >= 1e-25) { s1 = 0 }
        s[0] = s0
        s[1] = s1
        return y
    }

    /// Splits one sample into its low and high parts, using `splitStateCount` Doubles at `state`.
    @inline(__always) @_noLocks @_noAllocation
    func split(_ x: Double, state: UnsafeMutablePointer<Double>) -> (low: Double, high: Double) {
        let low = section(section(x, lb0, lb1, lb2, state), lb0, lb1, lb2, state + 2)
        let high = section(section(x, hb0, hb1, hb2, state + 4), hb0, hb1, hb2, state + 6)
        return (low, high)
    }

    /// The allpass low + high sums to, using `allpassStateCount` Doubles at `state`.
    @inline(__always) @_noLocks @_noAllocation
    func allpass(_ x: Double, state: UnsafeMutablePointer<Double>) -> Double {
        // The allpass numerator is the denominator reversed: a2 + a1·z⁻¹ + z⁻².
        section(x, a2, a1, 1, state)
    }
}
