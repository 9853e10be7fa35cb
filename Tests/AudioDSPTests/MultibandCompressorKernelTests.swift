import AudioDSP
import Foundation
import Testing

/// The multiband compressor: its crossover tree sums to an allpass, a loud tone is compressed in its own band only,
/// and a band's EQ gain raises that band's share of a tone by the amount LR4 overlap predicts.
@Suite struct MultibandCompressorKernelTests {
    typealias H = DynamicsTestHarness
    static let rate = 44100.0

    static func kernel(channels: Int = 1, crossovers: [Double]? = nil, thresholds: [Double]? = nil) -> MultibandCompressorKernel {
        let k = MultibandCompressorKernel(sampleRate: rate, maximumFrames: 512, channels: channels)
        if let crossovers { for (i, f) in crossovers.enumerated() { k.setCrossover(f, index: i) } }
        if let thresholds { for (b, t) in thresholds.enumerated() { k.setThreshold(t, band: b) } }
        return k
    }

    @Test(arguments: [[120.0, 700, 3000], [50, 500, 5000], [20, 2000, 18000], [900, 300, 3000]])
    func bandsSumToAFlatMagnitude(_ crossovers: [Double]) {
        let k = Self.kernel(crossovers: crossovers, thresholds: [0, 0, 0, 0])
        var impulse = [Float](repeating: 0, count: 16384)
        impulse[0] = 0.001  // quiet: no band comes near its threshold
        let y = H.run([impulse]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        var worst = 0.0
        for i in 0..<30 {
            let f = 20 * pow(1000, Double(i) / 29)  // 20 Hz ... 20 kHz
            worst = max(worst, abs(H.dB(H.magnitude(y, frequency: f, rate: Self.rate) / 0.001)))
        }
        print("multiband crossovers \(crossovers): worst deviation from flat \(worst) dB")
        #expect(worst < 0.1)
        for b in 0..<4 { #expect(k.compressionAmount(band: b) == 0) }
    }

    @Test func aLoudToneInBandTwoIsCompressedThereOnly() {
        // Apple's defaults: crossovers 120/700/3000, thresholds -22/-32/-33/-36, headrooms 5/12/5/7.5.
        let k = Self.kernel(channels: 2)
        let frames = Int(1.2 * Self.rate), f = 300.0, level = -10.0
        let x = H.sine(f, amplitude: pow(10, level / 20), frames: frames, rate: Self.rate)
        _ = H.run([x, x], blocks: [512, 129]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        // Each band's share of the tone from the analog LR4 magnitudes.
        let x1 = H.linkwitzRiley(f, crossover: 120), x2 = H.linkwitzRiley(f, crossover: 700), x3 = H.linkwitzRiley(f, crossover: 3000)
        let shares = [x2.low * x1.low, x2.low * x1.high, x2.high * x3.low, x2.high * x3.high]
        let band2 = level + H.dB(shares[1])
        let expected = band2 - DynamicsProcessorKernel.staticCurve(inputDB: band2, threshold: -32, headRoom: 12)
        let meters = (0..<4).map { Double(k.compressionAmount(band: $0)) }
        let inputs = (0..<4).map { Double(k.inputAmplitude(band: $0)) }
        print("multiband 300 Hz at -10 dBFS: reductions \(meters) dB (band 2 expected \(expected)), band levels \(inputs) dB")
        #expect(abs(meters[1] - expected) < 0.5)
        #expect(meters[1] > 9)
        for b in [0, 2, 3] { #expect(meters[b] < 0.05) }
        #expect(abs(inputs[1] - band2) < 0.3)
        #expect(abs(inputs[0] - (level + H.dB(shares[0]))) < 0.5)
        #expect(abs(inputs[2] - (level + H.dB(shares[2]))) < 0.5)
        #expect(abs(Double(k.outputAmplitude(band: 1)) - (band2 - expected)) < 0.5)
    }

    /// Output level (dB) of a steady tone through `k`, measured after `settle` seconds.
    static func toneLevel(_ k: MultibandCompressorKernel, _ f: Double, amplitude: Double) -> Double {
        let frames = Int(0.3 * rate), window = 4410
        let x = H.sine(f, amplitude: amplitude, frames: frames, rate: rate)
        let y = H.run([x]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        return H.dB(H.rms(y[(frames - window)...]))
    }

    @Test func eqThreeRaisesAToneInBandThreeBySixDecibels() {
        // A wide band 3 (200 Hz ... 10 kHz) and a tone at its geometric centre, where band 3 carries 99.9%.
        let crossovers = [50.0, 200, 10000], f = (200.0 * 10000).squareRoot()
        let flat = Self.kernel(crossovers: crossovers, thresholds: [0, 0, 0, 0])
        let boosted = Self.kernel(crossovers: crossovers, thresholds: [0, 0, 0, 0])
        boosted.setEQ(6, band: 2)
        boosted.settle()
        let rise = Self.toneLevel(boosted, f, amplitude: 0.1) - Self.toneLevel(flat, f, amplitude: 0.1)
        print("multiband EQ3 +6 dB, tone \(f) Hz in band 200...10000 Hz: rise \(rise) dB")
        #expect(abs(rise - 6) < 0.2)
    }

    @Test func eqRaisesABandsShareOfAToneAsTheOverlapPredicts() {
        // Default crossovers: at band 3's centre (1449 Hz) the band holds m = |HP(700)|·|LP(3000)| ≈ 0.90 of the tone,
        // in phase with the rest, so a gain G on it gives 20·log10(1 + (G − 1)·m).
        let f = (700.0 * 3000).squareRoot()
        let m = H.linkwitzRiley(f, crossover: 700).high * H.linkwitzRiley(f, crossover: 3000).low
        for eq in [6.0, -12] {
            let flat = Self.kernel(thresholds: [0, 0, 0, 0])
            let changed = Self.kernel(thresholds: [0, 0, 0, 0])
            changed.setEQ(eq, band: 2)
            changed.settle()
            let rise = Self.toneLevel(changed, f, amplitude: 0.1) - Self.toneLevel(flat, f, amplitude: 0.1)
            let expected = H.dB(1 + (pow(10, eq / 20) - 1) * m)
            print("multiband EQ3 \(eq) dB at \(f) Hz with default crossovers: change \(rise) dB, predicted \(expected) dB")
            #expect(abs(rise - expected) < 0.1)
        }
    }

    @Test func preAndPostGainCancelBelowTheThresholds() {
        let k = Self.kernel(thresholds: [0, 0, 0, 0])
        k.setPreGain(12)
        k.setPostGain(-12)
        k.settle()
        let reference = Self.kernel(thresholds: [0, 0, 0, 0])
        let a = Self.toneLevel(k, 440, amplitude: 0.01), b = Self.toneLevel(reference, 440, amplitude: 0.01)
        #expect(abs(a - b) < 0.01)
    }

    @Test func theTailCoversTheCrossoversRingOut() {
        for lowest in [20.0, 120] {
            let k = Self.kernel(crossovers: [lowest, 700, 3000], thresholds: [0, 0, 0, 0])
            var impulse = [Float](repeating: 0, count: Int(1.5 * k.tailSeconds * Self.rate))
            impulse[0] = 0.001
            let y = H.run([impulse]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
            let after = Int(k.tailSeconds * Self.rate)
            #expect(Double(H.peak(y[after...])) < 0.001 * 1e-6)  // -120 dB re the impulse
            #expect(k.latencySeconds == 0)
        }
    }

    @Test func inPlaceAndResetGiveTheSameOutput() {
        let k = Self.kernel(channels: 2)
        var noise = H.Noise(seed: 8)
        let input: [[Float]] = (0..<2).map { _ in (0..<6000).map { _ in Float(0.8 * noise.next()) } }
        let a = H.run(input, blocks: [512, 7, 100]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        k.reset()
        let b = H.run(input, blocks: [64], inPlace: true) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        #expect(a == b)
    }
}
