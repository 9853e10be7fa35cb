#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order IIR section, normalised so a0 = 1: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2.
/// Coefficient formulas are the RBJ "Audio EQ Cookbook" ones (peaking and shelving), the basis of the
/// graphic EQ (iPod EQ) presets.
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    /// Coefficients normalised by a0: y = b0 x + b1 x[-1] + b2 x[-2] - a1 y[-1] - a2 y[-2].
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// Whether this is `identity` (read without touching the static, so render code may ask).
    @inlinable public var isIdentity: Bool { b0 == 1 && b1 == 0 && b2 == 0 && a1 == 0 && a2 == 0 }

    /// Peaking EQ: `gainDB` at `frequency`, bandwidth set by `q`. With gain 0 the section is exactly
    /// transparent (b1 == a1, b2 == a2 after normalisation).
    public static func peaking(frequency: Double, q: Double, gainDB: Double, sampleRate: Double) -> BiquadCoefficients {
        let a = pow(10, gainDB / 40), w = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w) / (2 * q), c = cos(w)
        let a0 = 1 + alpha / a
        return BiquadCoefficients(b0: (1 + alpha * a) / a0, b1: -2 * c / a0, b2: (1 - alpha * a) / a0,
                                  a1: -2 * c / a0, a2: (1 - alpha / a) / a0)
    }

    /// Low shelf: `gainDB` below `frequency` (shelf slope S = 1).
    public static func lowShelf(frequency: Double, gainDB: Double, sampleRate: Double) -> BiquadCoefficients {
        shelf(frequency: frequency, gainDB: gainDB, sampleRate: sampleRate, high: false)
    }

    /// High shelf: `gainDB` above `frequency` (shelf slope S = 1).
    public static func highShelf(frequency: Double, gainDB: Double, sampleRate: Double) -> BiquadCoefficients {
        shelf(frequency: frequency, gainDB: gainDB, sampleRate: sampleRate, high: true)
    }

    private static func shelf(frequency: Double, gainDB: Double, sampleRate: Double, high: Bool) -> BiquadCoefficients {
        let a = pow(10, gainDB / 40), w = 2 * Double.pi * frequency / sampleRate
        let c = cos(w), alpha = sin(w) / 2 * 2.0.squareRoot()  // S = 1
        let k = 2 * a.squareRoot() * alpha
        let s: Double = high ? -1 : 1  // the high shelf mirrors the low one's cosine terms
        let a0 = (a + 1) + s * (a - 1) * c + k
        return BiquadCoefficients(
            b0: a * ((a + 1) - s * (a - 1) * c + k) / a0,
            b1: s * 2 * a * ((a - 1) - s * (a + 1) * c) / a0,
            b2: a * ((a + 1) - s * (a - 1) * c - k) / a0,
            a1: -s * 2 * ((a - 1) + s * (a + 1) * c) / a0,
            a2: ((a + 1) + s * (a - 1) * c - k) / a0)
    }

    /// |H(e^jω)| at `frequency`.
    public func magnitude(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }

    /// |H(e^jω)| of `sections` in cascade at `frequency`: the product of each section's magnitude.
    public static func cascadeMagnitude(_ sections: UnsafeBufferPointer<BiquadCoefficients>, at frequency: Double,
                                        sampleRate: Double) -> Double {
        sections.reduce(1) { $1.isIdentity ? $0 : $0 * $1.magnitude(at: frequency, sampleRate: sampleRate) }
    }
}

/// The two state values of a transposed direct form II section.
public struct BiquadState: Sendable {
    public var z1 = 0.0, z2 = 0.0
    /// The zero value, as the imported C type's.
    public init() {}
}

public enum BiquadKernels {
    /// Filters `count` samples (in place allowed), transposed direct form II in Double.
    @inlinable @_noLocks @_noAllocation
    public static func apply(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int,
                                          _ k: BiquadCoefficients, _ state: inout BiquadState) {
        var z1 = state.z1, z2 = state.z2
        for i in 0..<count {
            let x = Double(input[i])
            let y = k.b0 * x + z1
            z1 = k.b1 * x - k.a1 * y + z2
            z2 = k.b2 * x - k.a2 * y
            output[i] = Float(y)
        }
        // Flush denormals so silence after a loud passage costs nothing.
        state.z1 = abs(z1) < 1e-30 ? 0 : z1
        state.z2 = abs(z2) < 1e-30 ? 0 : z2
    }

    /// Filters `count` samples (in place allowed) through `sectionCount` sections in series, skipping identity
    /// sections. Up to four sections run together per sample, in Double from one to the next (rounded to Float
    /// only between groups of four, so closer to an all-Double cascade than `apply` section after section): one
    /// section at a time waits on its own feedback every sample, while interleaved recurrences keep the FPU busy.
    /// The feedback term is subtracted last, so only a multiply and two adds separate one output from the next.
    @inlinable @_noLocks @_noAllocation
    public static func applyCascade(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int,
                                    sections: UnsafePointer<BiquadCoefficients>, states: UnsafeMutablePointer<BiquadState>,
                                    sectionCount: Int) {
        var source = input
        var b = 0
        while b < sectionCount {
            // The next (up to) four sections that are not the identity.
            var picked = 0, i0 = 0, i1 = 0, i2 = 0, i3 = 0
            while b < sectionCount && picked < 4 {
                if !sections[b].isIdentity {
                    switch picked { case 0: i0 = b; case 1: i1 = b; case 2: i2 = b; default: i3 = b }
                    picked += 1
                }
                b += 1
            }
            switch picked {
            case 4: cascadeGroup(4, source, output, count, sections, states, i0, i1, i2, i3)
            case 3: cascadeGroup(3, source, output, count, sections, states, i0, i1, i2, i2)
            case 2: cascadeGroup(2, source, output, count, sections, states, i0, i1, i1, i1)
            case 1: cascadeGroup(1, source, output, count, sections, states, i0, i0, i0, i0)
            default: break
            }
            if picked > 0 { source = UnsafePointer(output) }
        }
        if source == input && UnsafePointer(output) != input { for i in 0..<count { output[i] = input[i] } }
    }

    /// `sections` of the group (indices i0...) in series over the block; `n` is a constant at each call site,
    /// so the unused stages compile away.
    @inlinable @inline(__always)
    static func cascadeGroup(_ n: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int,
                             _ sections: UnsafePointer<BiquadCoefficients>, _ states: UnsafeMutablePointer<BiquadState>,
                             _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int) {
        let k0 = sections[i0], k1 = sections[i1], k2 = sections[i2], k3 = sections[i3]
        var a1 = states[i0].z1, a2 = states[i0].z2, b1 = states[i1].z1, b2 = states[i1].z2
        var c1 = states[i2].z1, c2 = states[i2].z2, d1 = states[i3].z1, d2 = states[i3].z2
        for i in 0..<count {
            var x = Double(input[i])
            var y = k0.b0 * x + a1
            a1 = (k0.b1 * x + a2) - k0.a1 * y
            a2 = k0.b2 * x - k0.a2 * y
            if n > 1 {
                x = y
                y = k1.b0 * x + b1
                b1 = (k1.b1 * x + b2) - k1.a1 * y
                b2 = k1.b2 * x - k1.a2 * y
            }
            if n > 2 {
                x = y
                y = k2.b0 * x + c1
                c1 = (k2.b1 * x + c2) - k2.a1 * y
                c2 = k2.b2 * x - k2.a2 * y
            }
            if n > 3 {
                x = y
                y = k3.b0 * x + d1
                d1 = (k3.b1 * x + d2) - k3.a1 * y
                d2 = k3.b2 * x - k3.a2 * y
            }
            output[i] = Float(y)
        }
        // Denormals flushed as `apply` flushes them.
        @inline(__always) func flushed(_ z: Double) -> Double { abs(z) < 1e-30 ? 0 : z }
        states[i0].z1 = flushed(a1); states[i0].z2 = flushed(a2)
        if n > 1 { states[i1].z1 = flushed(b1); states[i1].z2 = flushed(b2) }
        if n > 2 { states[i2].z1 = flushed(c1); states[i2].z2 = flushed(c2) }
        if n > 3 { states[i3].z1 = flushed(d1); states[i3].z2 = flushed(d2) }
    }
}
