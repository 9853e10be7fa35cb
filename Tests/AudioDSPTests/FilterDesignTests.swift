import AudioDSP
import Foundation
import Testing

/// The filter designs' closed-form properties: unity where a response must be flat, Q at a 2-pole cutoff,
/// -3 dB (or half-gain) edges the requested octaves apart, shelves at their gain, stability up to Nyquist.
@Suite struct FilterDesignTests {
    let sr = 48000.0
    func dB(_ k: BiquadCoefficients, _ f: Double) -> Double { 20 * log10(k.magnitude(at: f, sampleRate: sr)) }

    /// The two frequencies around `centre` where the response crosses `level` dB (bisection in log frequency).
    func edges(_ k: BiquadCoefficients, centre: Double, level: Double) -> (Double, Double) {
        func cross(_ lo: Double, _ hi: Double) -> Double {
            var (a, b) = (log(lo), log(hi))
            let above = dB(k, lo) > level
            for _ in 0..<80 {
                let m = (a + b) / 2
                if (dB(k, exp(m)) > level) == above { a = m } else { b = m }
            }
            return exp((a + b) / 2)
        }
        return (cross(10, centre), cross(centre, sr / 2 * 0.999))
    }

    @Test func twoPoleFiltersHaveUnityPassbandAndQAtTheCutoff() {
        for q in [0.5, 1 / 2.0.squareRoot(), 2, 8] {
            let lp = BiquadCoefficients.lowPass(frequency: 1000, q: q, sampleRate: sr)
            #expect(abs(lp.magnitude(at: 0, sampleRate: sr) - 1) < 1e-12)
            #expect(abs(lp.magnitude(at: 1000, sampleRate: sr) - q) < 1e-9)
            #expect(lp.magnitude(at: sr / 2, sampleRate: sr) < 1e-9)
            let hp = BiquadCoefficients.highPass(frequency: 1000, q: q, sampleRate: sr)
            #expect(abs(hp.magnitude(at: sr / 2, sampleRate: sr) - 1) < 1e-12)
            #expect(abs(hp.magnitude(at: 1000, sampleRate: sr) - q) < 1e-9)
            #expect(hp.magnitude(at: 0, sampleRate: sr) < 1e-12)
        }
        #expect(abs(BiquadCoefficients.q(resonanceDB: 0) - 1 / 2.0.squareRoot()) < 1e-15)
        #expect(abs(BiquadCoefficients.q(resonanceDB: 20) - 10 / 2.0.squareRoot()) < 1e-12)
    }

    @Test(arguments: [0.3, 1.0, 2.5])
    func bandEdgesAreTheRequestedOctavesApart(_ octaves: Double) {
        let bp = BiquadCoefficients.bandPass(frequency: 2000, octaves: octaves, sampleRate: sr)
        #expect(abs(bp.magnitude(at: 2000, sampleRate: sr) - 1) < 1e-12)
        let (lo, hi) = edges(bp, centre: 2000, level: -3.0103)
        #expect(abs(log2(hi / lo) - octaves) < 0.01 * octaves, "band-pass edges \(lo) \(hi)")
        let notch = BiquadCoefficients.bandStop(frequency: 2000, octaves: octaves, sampleRate: sr)
        #expect(notch.magnitude(at: 2000, sampleRate: sr) < 1e-9)
        let (nlo, nhi) = edges(notch, centre: 2000, level: -3.0103)
        #expect(abs(log2(nhi / nlo) - octaves) < 0.01 * octaves)
        let peak = BiquadCoefficients.peaking(frequency: 2000, octaves: octaves, gainDB: 12, sampleRate: sr)
        #expect(abs(dB(peak, 2000) - 12) < 1e-9)
        let (plo, phi) = edges(peak, centre: 2000, level: 6)
        #expect(abs(log2(phi / plo) - octaves) < 0.01 * octaves, "peaking half-gain edges \(plo) \(phi)")
    }

    @Test func shelvesReachTheirGainAndHalfAtTheCorner() {
        for q in [1 / 2.0.squareRoot(), 1.5] {
            let low = BiquadCoefficients.shelf(frequency: 300, gainDB: -10, q: q, high: false, sampleRate: sr)
            #expect(abs(dB(low, 0) + 10) < 1e-9 && abs(dB(low, sr / 2)) < 1e-9 && abs(dB(low, 300) + 5) < 1e-6)
            let high = BiquadCoefficients.shelf(frequency: 8000, gainDB: 7, q: q, high: true, sampleRate: sr)
            #expect(abs(dB(high, sr / 2) - 7) < 1e-9 && abs(dB(high, 0)) < 1e-9 && abs(dB(high, 8000) - 3.5) < 1e-6)
        }
    }

    /// At and past Nyquist the designs clamp the frequency: poles stay inside the unit circle.
    @Test func designsStayStableAtNyquist() {
        for k in [BiquadCoefficients.lowPass(frequency: sr, q: 20, sampleRate: sr),
                  .highPass(frequency: sr / 2, q: 0.1, sampleRate: sr),
                  .bandPass(frequency: sr / 2, octaves: 5, sampleRate: sr),
                  .peaking(frequency: sr / 2, octaves: 0.05, gainDB: 24, sampleRate: sr)] {
            // Stable iff |a2| < 1 and |a1| < 1 + a2.
            #expect(abs(k.a2) < 1 && abs(k.a1) < 1 + k.a2, "\(k)")
        }
    }
}
