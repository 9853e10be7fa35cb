import AudioDSP
import Testing

@Suite struct HRTFConvolverTests {
    /// Deterministic values in -0.5...0.5.
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 10000) / 20000
        }
    }

    /// y[n] = Σ h[k]·x[n-k], in Double, written out here.
    static func convolve(_ h: [Float], _ x: [Float]) -> [Double] {
        (0..<x.count).map { n in (0..<h.count).reduce(0.0) { n - $1 >= 0 ? $0 + Double(h[$1]) * Double(x[n - $1]) : $0 } }
    }

    /// 37 taps (a tail after the eight-lane loop) over slices of 50, 64 and 13 frames: both ears equal the direct
    /// convolution; then a new pair crossfades linearly across the next slice from the old pair's output to the new one's.
    @Test func convolvesAndCrossfades() {
        let taps = 37
        let (l1, r1) = (Self.noise(taps, seed: 1), Self.noise(taps, seed: 2))
        let (l2, r2) = (Self.noise(taps, seed: 3), Self.noise(taps, seed: 4))
        let input = Self.noise(127 + 40, seed: 5)
        let convolver = HRTFConvolver(taps: taps, maximumFrames: 64)
        l1.withUnsafeBufferPointer { l in r1.withUnsafeBufferPointer { r in convolver.setFilter(left: l.baseAddress!, right: r.baseAddress!) } }
        var left: [Float] = [], right: [Float] = []
        var offset = 0
        func run(_ n: Int) {
            var a = [Float](repeating: 0, count: n), b = a
            input[offset..<offset + n].withContiguousStorageIfAvailable { convolver.process($0.baseAddress!, count: n, left: &a, right: &b) }
            left += a; right += b
            offset += n
        }
        for n in [50, 64, 13] { run(n) }
        let (el, er) = (Self.convolve(l1, input), Self.convolve(r1, input))
        for i in 0..<127 {
            #expect(abs(Double(left[i]) - el[i]) < 1e-5 && abs(Double(right[i]) - er[i]) < 1e-5, "frame \(i)")
        }
        l2.withUnsafeBufferPointer { l in r2.withUnsafeBufferPointer { r in convolver.setFilter(left: l.baseAddress!, right: r.baseAddress!) } }
        run(40)
        let (nl, nr) = (Self.convolve(l2, input), Self.convolve(r2, input))
        for i in 0..<40 {
            let w = Double(i + 1) / 40, n = 127 + i
            #expect(abs(Double(left[n]) - (w * nl[n] + (1 - w) * el[n])) < 1e-5, "left, crossfade frame \(i)")
            #expect(abs(Double(right[n]) - (w * nr[n] + (1 - w) * er[n])) < 1e-5, "right, crossfade frame \(i)")
        }
    }
}
