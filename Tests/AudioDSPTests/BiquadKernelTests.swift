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
}
