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

    /// The cascade kernel against an all-Double cascade written here (textbook transposed direct form II, no
    /// rounding between sections), for 0 to 11 sections with identities among them, over uneven blocks: within
    /// 1e-6 of full scale, and closer to it in RMS than `apply` section after section (which rounds to Float after
    /// every section). In place and not give the same bits, and so does one block against many.
    @Test func cascadeMatchesADoubleCascade() {
        var rng = SystemRandomNumberGenerator()
        for sectionCount in 0...11 {
            let sections: [BiquadCoefficients] = (0..<sectionCount).map { i in
                if i % 3 == 1 { return .identity }
                let f = Double.random(in: 30...18000, using: &rng), g = Double.random(in: -12...12, using: &rng)
                return i % 4 == 0 ? .lowShelf(frequency: f, gainDB: g, sampleRate: sr)
                                  : .peaking(frequency: f, q: Double.random(in: 0.5...4, using: &rng), gainDB: g, sampleRate: sr)
            }
            let x = (0..<3000).map { _ in Float.random(in: -0.25...0.25, using: &rng) }
            // The reference: every section in Double, per sample.
            var z = [Double](repeating: 0, count: 2 * sectionCount)
            let reference: [Double] = x.map { sample in
                var v = Double(sample)
                for (b, k) in sections.enumerated() {
                    let y = k.b0 * v + z[2 * b]
                    z[2 * b] = k.b1 * v - k.a1 * y + z[2 * b + 1]
                    z[2 * b + 1] = k.b2 * v - k.a2 * y
                    v = y
                }
                return v
            }
            var chained = x, chainStates = [BiquadState](repeating: BiquadState(), count: sectionCount)
            var cascaded = [Float](repeating: 7, count: x.count), inPlace = x, whole = x
            var states = chainStates, inPlaceStates = chainStates, wholeStates = chainStates
            var start = 0
            for block in [1, 64, 511, 1024, 1400] {
                for (b, k) in sections.enumerated() where !k.isIdentity {
                    chained.withUnsafeMutableBufferPointer { c in
                        BiquadKernels.apply(c.baseAddress! + start, c.baseAddress! + start, count: block, k, &chainStates[b])
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
                start += block
            }
            whole.withUnsafeMutableBufferPointer { o in
                BiquadKernels.applyCascade(o.baseAddress!, o.baseAddress!, count: x.count, sections: sections,
                                           states: &wholeStates, sectionCount: sectionCount)
            }
            #expect(inPlace.map(\.bitPattern) == cascaded.map(\.bitPattern))
            #expect(whole.map(\.bitPattern) == cascaded.map(\.bitPattern))
            #expect(states.map(\.z1) == inPlaceStates.map(\.z1) && states.map(\.z2) == inPlaceStates.map(\.z2))
            func rmsError(_ y: [Float]) -> Double {
                (zip(y, reference).reduce(0.0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) } / Double(y.count)).squareRoot()
            }
            let worst = zip(cascaded, reference).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(worst < 1e-6, "\(sectionCount) sections: \(worst) from the Double cascade")
            if sections.filter({ !$0.isIdentity }).count > 1 {
                #expect(rmsError(cascaded) < rmsError(chained), "\(sectionCount) sections")
            }
        }
    }
}
