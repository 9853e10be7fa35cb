import Foundation

/// ITU-R BS.1770's K-weighting for one channel: the head's high shelf (+4 dB above ~1.7 kHz) then the RLB high-pass
/// (~38 Hz), each a biquad designed for any rate from the analog prototypes behind the recommendation's 48 kHz table
/// (the same derivation libebur128 and pyloudnorm use), run in Double.
public struct KWeightingFilter {
    /// Stage 1 (shelf) and stage 2 (high-pass) as b0 b1 b2 a1 a2 (a0 = 1).
    public let shelf: (Double, Double, Double, Double, Double)
    public let highPass: (Double, Double, Double, Double, Double)
    private var s1 = (0.0, 0.0), s2 = (0.0, 0.0)

    /// The filter for `sampleRate`.
    public init(sampleRate: Double) {
        var k = tan(Double.pi * 1681.974450955533 / sampleRate)
        var q = 0.7071752369554196
        let vh = pow(10, 3.999843853973347 / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        shelf = ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0,
                 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
        k = tan(Double.pi * 38.13547087602444 / sampleRate)
        q = 0.5003270373238773
        a0 = 1 + k / q + k * k
        highPass = (1, -2, 1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
    }

    /// Filters one sample (transposed direct form II, both stages).
    @inline(__always) public mutating func process(_ x: Double) -> Double {
        let y1 = shelf.0 * x + s1.0
        s1.0 = shelf.1 * x - shelf.3 * y1 + s1.1
        s1.1 = shelf.2 * x - shelf.4 * y1
        let y2 = highPass.0 * y1 + s2.0
        s2.0 = highPass.1 * y1 - highPass.3 * y2 + s2.1
        s2.1 = highPass.2 * y1 - highPass.4 * y2
        return y2
    }
}
