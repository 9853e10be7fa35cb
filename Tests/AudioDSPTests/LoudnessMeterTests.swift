import AudioDSP
import Foundation
import Testing

/// The loudness meter against the figures its standards publish: BS.1770-4's 48 kHz filter table and its
/// -3.01 LKFS for a full-scale 997 Hz sine in one channel, EBU Tech 3341's gating cases (-23.0 ± 0.1 LUFS),
/// Tech 3342's loudness-range cases (± 1 LU) and a true peak between samples.
@Suite struct LoudnessMeterTests {
    /// Stereo sine segments: (seconds, dBFS of each channel's peak, which channels sound).
    static func measure(_ segments: [(Double, Double)], rate: Double = 48000, frequency: Double = 1000,
                        channels: Int = 2, only: Int? = nil) -> LoudnessMeasurement {
        let meter = LoudnessMeter(sampleRate: rate, channels: channels)
        var n = 0
        for (seconds, dB) in segments {
            let frames = Int(seconds * rate), a = pow(10, dB / 20)
            var block = [Float](repeating: 0, count: frames * channels)
            for i in 0..<frames {
                let x = Float(a * sin(2 * Double.pi * frequency * Double(n + i) / rate))
                for c in 0..<channels where only == nil || only == c { block[i * channels + c] = x }
            }
            n += frames
            block.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: frames) }
        }
        return meter.measurement
    }

    @Test func filterAt48kHzIsTheRecommendationsTable() {
        let k = KWeightingFilter(sampleRate: 48000)
        let shelf = [k.shelf.0, k.shelf.1, k.shelf.2, k.shelf.3, k.shelf.4]
        let table = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585]
        for (x, y) in zip(shelf, table) { #expect(abs(x - y) < 1e-8, "shelf \(shelf)") }
        #expect(abs(k.highPass.3 - -1.99004745483398) < 1e-8 && abs(k.highPass.4 - 0.99007225036621) < 1e-8)
        #expect(k.highPass.0 == 1 && k.highPass.1 == -2 && k.highPass.2 == 1)
    }

    /// BS.1770-4 section 2.1: a 0 dB FS 997 Hz sine in one front channel reads -3.01 LKFS; in both, 0.
    @Test func fullScaleSineReadsMinusThreeInOneChannel() {
        let one = Self.measure([(10, 0)], frequency: 997, only: 0)
        #expect(abs(one.integrated - -3.01) < 0.01, "\(one.integrated)")
        let both = Self.measure([(10, 0)], rate: 44100, frequency: 997)
        #expect(abs(both.integrated - 0) < 0.01, "\(both.integrated)")
    }

    /// EBU Tech 3341 cases 1, 3 and 4: -23 dBFS stereo reads -23.0; quieter passages around it are gated out.
    @Test func gatingFollowsTech3341() {
        let cases: [[(Double, Double)]] = [[(20, -23)], [(10, -36), (60, -23), (10, -36)],
                                            [(10, -72), (10, -36), (60, -23), (10, -36), (10, -72)]]
        for segments in cases {
            let m = Self.measure(segments)
            #expect(abs(m.integrated - -23) < 0.1, "\(segments): \(m.integrated)")
        }
        let silent = Self.measure([(5, -80)])
        #expect(silent.integrated == -.infinity && silent.range == 0)
    }

    /// EBU Tech 3342 cases 1-3: two 20 s levels give their difference as the range (± 1 LU).
    @Test func loudnessRangeFollowsTech3342() {
        for (a, b, expected) in [(-20.0, -30.0, 10.0), (-20, -15, 5), (-40, -20, 20)] {
            let m = Self.measure([(20, a), (20, b)])
            #expect(abs(m.range - expected) < 1, "\(a) then \(b): LRA \(m.range)")
        }
    }

    /// A sine at a quarter of the rate, sampled 45 degrees off its peaks, has sample peak 0.707 and true peak 1:
    /// the detector finds it within Tech 3341's +0.2/-0.4 dB.
    @Test func truePeakFindsThePeakBetweenSamples() {
        let meter = LoudnessMeter(sampleRate: 48000, channels: 1)
        let x = (0..<48000).map { Float(sin(Double.pi / 2 * Double($0) + Double.pi / 4)) }
        x.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: x.count) }
        let m = meter.measurement
        #expect(abs(m.samplePeak - 0.7071) < 1e-3)
        let dB = 20 * log10(m.truePeak)
        #expect(dB > -0.4 && dB < 0.2, "true peak \(dB) dBTP")
    }
}
