/// The few transcendental functions the dynamics kernels need per sample, in plain Swift: the real-time checker
/// (`@_noLocks @_noAllocation`) rejects calls into libm, whose bodies it cannot see. Accuracy is about 1e-14
/// relative, far below what a gain computer can hear (1e-6 dB), and the cost is a few dozen multiplies.
enum DynamicsMath {
    /// log2(x) for a positive, finite x (non-positive and subnormal inputs return -1075, below any level used).
    @inline(__always) @_noLocks @_noAllocation
    static func log2(_ x: Double) -> Double {
        if !(x >= Double.leastNormalMagnitude) { return -1075 }
        let bits = x.bitPattern
        var exponent = Int((bits >> 52) & 0x7FF) - 1023
        var m = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)  // [1, 2)
        // Centre the mantissa on 1 ([√½, √2)) so the series below converges fast.
        if m > 1.4142135623730951 { m *= 0.5; exponent += 1 }
        // ln m = 2·atanh(t), t = (m − 1)/(m + 1), |t| ≤ 0.172: odd powers up to t¹⁹ leave < 1e-16.
        let t = (m - 1) / (m + 1), t2 = t * t
        var s = 1.0 / 19
        s = s * t2 + 1.0 / 17
        s = s * t2 + 1.0 / 15
        s = s * t2 + 1.0 / 13
        s = s * t2 + 1.0 / 11
        s = s * t2 + 1.0 / 9
        s = s * t2 + 1.0 / 7
        s = s * t2 + 1.0 / 5
        s = s * t2 + 1.0 / 3
        s = s * t2 + 1
        let lnM = 2 * t * s
        return Double(exponent) + lnM * 1.4426950408889634  // 1/ln 2
    }

    /// 2^x (clamped to 2^±1020; exact powers of two for integer x).
    @inline(__always) @_noLocks @_noAllocation
    static func exp2(_ x: Double) -> Double {
        let c = min(max(x, -1020), 1020)
        let k = Int(c)                         // toward zero: the fraction is in (−1, 1)
        let y = (c - Double(k)) * 0.6931471805599453  // fraction · ln 2, |y| < 0.694
        // e^y by Taylor to y¹⁵/15!: the remainder is below 1e-15 relative.
        var p = 1.0 / 1_307_674_368_000
        p = p * y + 1.0 / 87_178_291_200
        p = p * y + 1.0 / 6_227_020_800
        p = p * y + 1.0 / 479_001_600
        p = p * y + 1.0 / 39_916_800
        p = p * y + 1.0 / 3_628_800
        p = p * y + 1.0 / 362_880
        p = p * y + 1.0 / 40_320
        p = p * y + 1.0 / 5_040
        p = p * y + 1.0 / 720
        p = p * y + 1.0 / 120
        p = p * y + 1.0 / 24
        p = p * y + 1.0 / 6
        p = p * y + 0.5
        p = p * y + 1
        p = p * y + 1
        return p * Double(bitPattern: UInt64(k + 1023) << 52)
    }

    /// 10·log10(power): a power ratio in dB.
    @inline(__always) @_noLocks @_noAllocation
    static func decibels(power: Double) -> Double { log2(power) * 3.0102999566398120 }  // 10·log10(2)

    /// 20·log10(amplitude): an amplitude ratio in dB.
    @inline(__always) @_noLocks @_noAllocation
    static func decibels(amplitude: Double) -> Double { log2(amplitude) * 6.0205999132796240 }  // 20·log10(2)

    /// 10^(dB/20): the amplitude ratio of a level in dB (exactly 1 at 0 dB).
    @inline(__always) @_noLocks @_noAllocation
    static func amplitude(decibels: Double) -> Double { exp2(decibels * 0.16609640474436813) }  // log2(10)/20

    /// tanh(x), odd and saturating to ±1 exactly beyond |x| = 19.
    @inline(__always) @_noLocks @_noAllocation
    static func tanh(_ x: Double) -> Double {
        let a = abs(x)
        if a > 19 { return x < 0 ? -1 : 1 }
        let e = exp2(2 * a * 1.4426950408889634)  // e^(2a)
        let t = (e - 1) / (e + 1)
        return x < 0 ? -t : t
    }
}
