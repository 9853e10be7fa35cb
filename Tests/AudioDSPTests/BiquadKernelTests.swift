import AudioDSP
import Foundation
import Testing

@Suite struct BiquadKernelTests {
    let sr = 44100.0

    func dB(_ x: Double) -> Double { 20 * log10(x) }

    /// Measured gain of a sine at `f` through the section (after the transient), in dB.
    func measuredGain(_ k: BiquadCoefficients, _ f: Double) -> Double {
        let n = 44100
        let x = (0..<n).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / sr)) }
        var y = [Float](repeating: 0, count: n)
        var state = BiquadState()
        x.withUnsafeBufferPointer { i in y.withUnsafeMutableBufferPointer { o in BiquadKernels.apply(i.baseAddress!, o.baseAddress!, count: n, k, &state) } }
        let tail = 22050  // whole seconds' worth after a half-second settle
        let rmsIn = (x[tail...].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(n - tail)).squareRoot()
        let rmsOut = (y[tail...].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(n - tail)).squareRoot()
        return dB(rmsOut / rmsIn)
    }

    @Test func peakingHitsItsGainAtTheCentreAndUnityFarAway() {
        for gain in [-12.0, -3, 6, 12] {
            let k = BiquadCoefficients.peaking(frequency: 1000, q: 1.41, gainDB: gain, sampleRate: sr)
            #expect(abs(dB(k.magnitude(at: 1000, sampleRate: sr)) - gain) < 1e-9)
            #expect(abs(dB(k.magnitude(at: 20, sampleRate: sr))) < 0.05)
            #expect(abs(dB(k.magnitude(at: 20000, sampleRate: sr))) < 0.1)
        }
    }

    @Test func shelvesReachTheirGainAtTheExtremes() {
        let low = BiquadCoefficients.lowShelf(frequency: 200, gainDB: 6, sampleRate: sr)
        #expect(abs(dB(low.magnitude(at: 0, sampleRate: sr)) - 6) < 1e-9)
        #expect(abs(dB(low.magnitude(at: sr / 2, sampleRate: sr))) < 1e-9)
        #expect(abs(dB(low.magnitude(at: 200, sampleRate: sr)) - 3) < 1e-6)  // half the gain (dB) at the corner
        let high = BiquadCoefficients.highShelf(frequency: 5000, gainDB: -9, sampleRate: sr)
        #expect(abs(dB(high.magnitude(at: sr / 2, sampleRate: sr)) + 9) < 1e-9)
        #expect(abs(dB(high.magnitude(at: 0, sampleRate: sr))) < 1e-9)
    }

    /// The kernel's measured response equals the analytic magnitude at several frequencies.
    @Test(arguments: [60.0, 440, 1000, 3000, 12000])
    func processingMatchesTheAnalyticResponse(_ f: Double) {
        let k = BiquadCoefficients.peaking(frequency: 1000, q: 1.0, gainDB: 9, sampleRate: sr)
        #expect(abs(measuredGain(k, f) - dB(k.magnitude(at: f, sampleRate: sr))) < 0.01)
    }

    /// A 0 dB peaking section passes audio bit for bit.
    @Test func zeroGainIsBitTransparent() {
        let k = BiquadCoefficients.peaking(frequency: 2500, q: 0.7, gainDB: 0, sampleRate: sr)
        let x = (0..<4096).map { _ in Float.random(in: -1...1) }
        var y = [Float](repeating: 0, count: 4096)
        var state = BiquadState()
        x.withUnsafeBufferPointer { i in y.withUnsafeMutableBufferPointer { o in BiquadKernels.apply(i.baseAddress!, o.baseAddress!, count: 4096, k, &state) } }
        #expect(y == x)
    }

    /// The cascade kernel gives the same samples and states, bit for bit, as `apply` section after section
    /// (identity sections skipped), for 0 to 11 sections, in place and not, over blocks of uneven length.
    @Test func cascadeEqualsSectionAfterSection() {
        var rng = SystemRandomNumberGenerator()
        for sectionCount in 0...11 {
            let sections: [BiquadCoefficients] = (0..<sectionCount).map { i in
                if i % 3 == 1 { return .identity }
                let f = Double.random(in: 30...18000, using: &rng), g = Double.random(in: -12...12, using: &rng)
                return i % 4 == 0 ? .lowShelf(frequency: f, gainDB: g, sampleRate: sr)
                                  : .peaking(frequency: f, q: Double.random(in: 0.5...4, using: &rng), gainDB: g, sampleRate: sr)
            }
            let x = (0..<3000).map { i in i > 2500 ? Float(0) : Float.random(in: -1...1, using: &rng) }
            var expected = x, expectedStates = [BiquadState](repeating: BiquadState(), count: sectionCount)
            var cascaded = [Float](repeating: 7, count: x.count), inPlace = x
            var states = expectedStates, inPlaceStates = expectedStates
            var start = 0
            for block in [1, 64, 511, 1024, 1400] {
                let range = start..<start + block
                for (b, k) in sections.enumerated() where !k.isIdentity {
                    expected.withUnsafeMutableBufferPointer { e in
                        BiquadKernels.apply(e.baseAddress! + start, e.baseAddress! + start, count: block, k, &expectedStates[b])
                    }
                }
                x.withUnsafeBufferPointer { i in cascaded.withUnsafeMutableBufferPointer { o in
                    BiquadKernels.applyCascade(i.baseAddress! + start, o.baseAddress! + start, count: block, sections: sections,
                                               states: &states, sectionCount: sectionCount)
                } }
                inPlace.withUnsafeMutableBufferPointer { o in
                    BiquadKernels.applyCascade(o.baseAddress! + start, o.baseAddress! + start, count: block, sections: sections,
                                               states: &inPlaceStates, sectionCount: sectionCount)
                }
                #expect(cascaded[range].map(\.bitPattern) == expected[range].map(\.bitPattern), "\(sectionCount) sections")
                start += block
            }
            #expect(inPlace.map(\.bitPattern) == expected.map(\.bitPattern))
            #expect(states.map(\.z1) == expectedStates.map(\.z1) && states.map(\.z2) == expectedStates.map(\.z2))
            #expect(inPlaceStates.map(\.z1) == expectedStates.map(\.z1))
        }
    }
}
