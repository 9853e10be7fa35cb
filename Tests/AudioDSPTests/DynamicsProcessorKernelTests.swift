import AudioDSP
import Foundation
import Testing

/// The dynamics processor measured on steady 1 kHz sines against its static curve, its ceiling (threshold +
/// headroom), its meters, its expander and its stereo link.
@Suite struct DynamicsProcessorKernelTests {
    typealias H = DynamicsTestHarness
    static let rate = 48000.0

    /// One parameter set: threshold, headroom, expansion ratio, expansion threshold, attack, release.
    struct Setting: CustomTestStringConvertible, Sendable {
        var threshold, headRoom, ratio, expansionThreshold, attack, release: Double
        var testDescription: String { "T \(threshold) H \(headRoom) R \(ratio) E \(expansionThreshold) a \(attack) r \(release)" }
    }

    static let settings = [
        Setting(threshold: -20, headRoom: 5, ratio: 2, expansionThreshold: -100, attack: 0.001, release: 0.05),  // Apple's defaults
        Setting(threshold: -30, headRoom: 2, ratio: 4, expansionThreshold: -50, attack: 0.005, release: 0.1),
        Setting(threshold: 0, headRoom: 12, ratio: 1.5, expansionThreshold: -40, attack: 0.02, release: 0.3),
    ]

    static func kernel(_ s: Setting, channels: Int = 1) -> DynamicsProcessorKernel {
        let k = DynamicsProcessorKernel(sampleRate: rate, maximumFrames: 512, channels: channels)
        k.setThreshold(s.threshold)
        k.setHeadRoom(s.headRoom)
        k.setExpansion(ratio: s.ratio, threshold: s.expansionThreshold)
        k.setAttack(s.attack)
        k.setRelease(s.release)
        return k
    }

    /// One steady-state measurement: a 1 kHz sine of peak `level` dBFS held long enough for the detector to settle
    /// (the level climbs from the previous step, so the attack governs), then measured over 40 periods.
    struct Step { var gain, outputPeakDB, meter, inputMeter, outputMeter: Double }

    static func measure(_ k: DynamicsProcessorKernel, level: Double, settle: Double) -> Step {
        let window = 1920  // 40 periods of 1 kHz at 48 kHz
        let frames = Int(settle * rate) + window
        let x = H.sine(1000, amplitude: pow(10, level / 20), frames: frames, rate: rate)
        let y = H.run([x]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        let tail = (frames - window)..<frames
        return Step(gain: H.dB(H.rms(y[tail]) / H.rms(x[tail])), outputPeakDB: H.dB(Double(H.peak(y[tail]))),
                    meter: Double(k.compressionAmount), inputMeter: Double(k.inputAmplitude),
                    outputMeter: Double(k.outputAmplitude))
    }

    @Test(arguments: settings)
    func steadyStateGainFollowsTheStaticCurve(_ s: Setting) {
        let k = Self.kernel(s)
        let settle = 0.1 + 10 * s.attack
        var worstCurve = 0.0, worstMeter = 0.0, worstCeiling = -Double.infinity
        for level in stride(from: -60.0, through: 20, by: 2) {
            let step = Self.measure(k, level: level, settle: settle)
            let expected = DynamicsProcessorKernel.staticCurve(inputDB: level, threshold: s.threshold, headRoom: s.headRoom,
                                                                expansionRatio: s.ratio, expansionThreshold: s.expansionThreshold)
            #expect(abs(k.staticCurve(inputDB: level) - expected) < 1e-12)
            worstCurve = max(worstCurve, abs(step.gain - (expected - level)))
            worstMeter = max(worstMeter, abs(step.meter - -step.gain))
            worstCeiling = max(worstCeiling, step.outputPeakDB - (s.threshold + s.headRoom))
            #expect(abs(step.inputMeter - level) < 0.5)
            #expect(abs(step.outputMeter - (level + step.gain)) < 0.5)
        }
        print("dynamics \(s.testDescription): worst |gain − curve| \(worstCurve) dB, worst |meter − reduction| \(worstMeter) dB, "
              + "highest output peak − (T + H) \(worstCeiling) dB")
        #expect(worstCurve < 0.5)
        #expect(worstMeter < 0.5)
        // Steady state never passes threshold + headroom (0.05 dB for the detector's residual ripple).
        #expect(worstCeiling < 0.05)
    }

    @Test func theCurveIsSmoothMonotonicAndBoundedByThresholdPlusHeadroom() {
        let t = -20.0, h = 5.0
        var previous = -Double.infinity
        for i in 0...4000 {
            let x = -120 + Double(i) * 0.05
            let y = DynamicsProcessorKernel.staticCurve(inputDB: x, threshold: t, headRoom: h, expansionRatio: 3, expansionThreshold: -60)
            #expect(y <= t + h)
            // Strictly rising until tanh saturates in Double (about 18 headrooms up); never falling by more than rounding.
            #expect(x < t + 4 * h ? y > previous : y >= previous - 1e-12)
            previous = y
        }
        // Unity between the thresholds, slope 1 on both sides of T, the asymptote T + H far above it.
        #expect(DynamicsProcessorKernel.staticCurve(inputDB: -30, threshold: t, headRoom: h) == -30)
        let slope = (DynamicsProcessorKernel.staticCurve(inputDB: t + 0.001, threshold: t, headRoom: h) - t) / 0.001
        #expect(abs(slope - 1) < 1e-6)
        #expect(abs(DynamicsProcessorKernel.staticCurve(inputDB: t + 10 * h, threshold: t, headRoom: h) - (t + h)) < 1e-6)
        // Lower headroom, more compression.
        #expect(DynamicsProcessorKernel.staticCurve(inputDB: 0, threshold: t, headRoom: 2)
                < DynamicsProcessorKernel.staticCurve(inputDB: 0, threshold: t, headRoom: 10))
    }

    @Test func expansionAttenuatesBelowTheExpansionThreshold() {
        // E = -40, R = 3: 10 dB under E comes out 30 dB under it, i.e. 20 dB quieter; 5 dB under, 10 dB quieter.
        let k = Self.kernel(Setting(threshold: -20, headRoom: 5, ratio: 3, expansionThreshold: -40, attack: 0.002, release: 0.05))
        let deep = Self.measure(k, level: -50, settle: 0.2)
        let shallow = Self.measure(k, level: -45, settle: 0.2)
        let none = Self.measure(k, level: -30, settle: 0.2)
        print("expansion: -50 dBFS gain \(deep.gain) dB, -45 dBFS \(shallow.gain) dB, -30 dBFS \(none.gain) dB")
        #expect(abs(deep.gain - -20) < 0.5)
        #expect(abs(shallow.gain - -10) < 0.5)
        #expect(abs(none.gain) < 0.05)
        #expect(abs(deep.meter - 20) < 0.5 || abs(shallow.meter - 10) < 0.5)
    }

    @Test func overallGainComesAfterTheCurve() {
        let s = Self.settings[0]
        let k = Self.kernel(s)
        k.setOverallGain(6)
        let step = Self.measure(k, level: 0, settle: 0.2)
        let expected = k.staticCurve(inputDB: 0) + 6
        #expect(abs(step.gain - expected) < 0.1)
        #expect(abs(step.meter - -k.staticCurve(inputDB: 0)) < 0.1)  // the meter leaves the overall gain out
    }

    @Test func channelsShareOneGain() {
        let k = Self.kernel(Self.settings[0], channels: 2)
        let frames = Int(0.3 * Self.rate)
        let loud = H.sine(1000, amplitude: 1, frames: frames, rate: Self.rate)
        let quiet = H.sine(300, amplitude: 0.01, frames: frames, rate: Self.rate)
        let out = H.run([loud, quiet], blocks: [512, 17]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        var worst = 0.0
        for i in stride(from: 0, to: frames, by: 7) where abs(loud[i]) > 0.1 && abs(quiet[i]) > 0.001 {
            worst = max(worst, abs(Double(out[0][i] / loud[i]) - Double(out[1][i] / quiet[i])))
        }
        #expect(worst < 1e-5)
        // The quiet channel, far below the threshold on its own, is turned down with the loud one.
        #expect(H.dB(H.rms(out[1][(frames - 4800)...]) / H.rms(quiet[(frames - 4800)...])) < -10)
    }

    @Test func releaseIsSlowerThanAttack() {
        // Loud then quiet: the reduction builds within a few attack times and lingers for about the release time.
        let k = Self.kernel(Setting(threshold: -20, headRoom: 5, ratio: 1, expansionThreshold: -100, attack: 0.002, release: 0.5))
        _ = Self.measure(k, level: 0, settle: 0.05)
        let built = Double(k.compressionAmount)
        #expect(abs(built - -(k.staticCurve(inputDB: 0) - 0)) < 0.5)
        _ = Self.measure(k, level: -40, settle: 0.1)
        #expect(k.compressionAmount > 5)   // 0.14 s into a 0.5 s release: still compressing
        _ = Self.measure(k, level: -40, settle: 3)
        #expect(k.compressionAmount < 0.01)
    }

    @Test func inPlaceAndResetGiveTheSameOutput() {
        let k = Self.kernel(Self.settings[1], channels: 2)
        var noise = H.Noise(seed: 4)
        let input: [[Float]] = (0..<2).map { _ in (0..<9000).map { i in Float(noise.next() * (i < 4000 ? 0.9 : 0.02)) } }
        let a = H.run(input, blocks: [512, 5, 300]) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        k.reset()
        let b = H.run(input, blocks: [64], inPlace: true) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        #expect(a == b)
    }
}
