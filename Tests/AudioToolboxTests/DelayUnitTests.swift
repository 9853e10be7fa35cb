import AudioToolbox
import Foundation
import Testing

/// AUDelay: echoes exact to the sample, feedback's geometric decay, the equal-power mix, the loop's low-pass.
@Suite struct DelayUnitTests {
    func run(_ parameters: [(AudioUnitParameterID, Float)], _ signal: [Float], frames: Int) throws -> [Double] {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Delay)
        defer { AudioComponentInstanceDispose(unit) }
        for (id, v) in parameters { EffectTestSupport.setParameter(unit, id, v) }
        #expect(AudioUnitInitialize(unit) == noErr)
        return try EffectTestSupport.process(unit, [signal], frames: frames, slices: [512, 77])[0]
    }

    @Test(arguments: [0.01, 0.25, 2.0])
    func anImpulseComesBackAtTheDelay(_ seconds: Float) throws {
        let d = Int((Double(seconds) * 44100).rounded())
        let y = try run([(kDelayParam_WetDryMix, 100), (kDelayParam_DelayTime, seconds), (kDelayParam_Feedback, 0),
                         (kDelayParam_LopassCutoff, 22050)], [1], frames: d + 600)
        #expect(y[d] == 1)
        #expect(y.enumerated().allSatisfy { $0.offset == d || $0.element == 0 })
    }

    @Test func feedbackDecaysGeometricallyAndNegativeFeedbackAlternates() throws {
        for fb: Float in [50, -50] {
            let y = try run([(kDelayParam_WetDryMix, 100), (kDelayParam_DelayTime, 0.01), (kDelayParam_Feedback, fb),
                             (kDelayParam_LopassCutoff, 22050)], [1], frames: 441 * 6 + 10)
            for k in 1...5 {
                let expected = pow(Double(fb) / 100, Double(k - 1))
                #expect(abs(y[441 * k] - expected) < 1e-6, "echo \(k): \(y[441 * k]) vs \(expected)")
            }
        }
    }

    @Test func mixIsAnEqualPowerCrossfade() throws {
        let x = (0..<4096).map { _ in Float.random(in: -1...1) }
        let dry = try run([(kDelayParam_WetDryMix, 0)], x, frames: 4096)
        #expect((0..<4096).first { dry[$0] != Double(x[$0]) } == nil)
        let half = try run([(kDelayParam_WetDryMix, 50), (kDelayParam_DelayTime, 0.5), (kDelayParam_Feedback, 0), (kDelayParam_LopassCutoff, 22050)],
                           [1], frames: 22100)
        #expect(abs(half[0] - cos(Double.pi / 4)) < 1e-6 && abs(half[22050] - sin(Double.pi / 4)) < 1e-6)
    }

    /// The loop's 1 kHz low-pass: a 10 kHz tone's first echo is attenuated by the one-pole's magnitude there.
    @Test func theLoopLowPassFiltersTheEchoes() throws {
        let x = EffectTestSupport.sine(10_000, frames: 8820)
        let y = try run([(kDelayParam_WetDryMix, 100), (kDelayParam_DelayTime, 0.1), (kDelayParam_Feedback, 0),
                         (kDelayParam_LopassCutoff, 1000)], x, frames: 8820)
        let measured = 20 * log10(EffectTestSupport.rms(y[6000..<8820]) / EffectTestSupport.rms(x[1590..<4410].map(Double.init)[...]))
        let a = 1 - exp(-2 * Double.pi * 1000 / 44100), w = 2 * Double.pi * 10_000 / 44100
        let designed = 20 * log10(a / ((1 - (1 - a) * cos(w)) * (1 - (1 - a) * cos(w)) + (1 - a) * sin(w) * (1 - a) * sin(w)).squareRoot())
        #expect(abs(measured - designed) < 0.5, "measured \(measured) dB, designed \(designed) dB")
    }

    /// Changing the delay while a sine plays glides: no step much larger than the sine's own.
    @Test func changingTheDelayDoesNotClick() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Delay, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kDelayParam_WetDryMix, 100)
        EffectTestSupport.setParameter(unit, kDelayParam_Feedback, 0)
        EffectTestSupport.setParameter(unit, kDelayParam_DelayTime, 0.05)
        #expect(AudioUnitInitialize(unit) == noErr)
        let source = EffectTestSupport.Source([EffectTestSupport.sine(440, frames: 44100)])
        TestSupport.setCallback(unit, 0, EffectTestSupport.sourceCallback, Unmanaged.passUnretained(source).toOpaque())
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        var y = try TestSupport.render(unit, format: format, totalFrames: 11025, slices: [512]).channels[0]
        EffectTestSupport.setParameter(unit, kDelayParam_DelayTime, 0.06)
        y += try TestSupport.render(unit, format: format, totalFrames: 11025, slices: [512], startTime: 11025).channels[0]
        withExtendedLifetime(source) {}
        let sineStep = 0.5 * 2 * Double.pi * 440 / 44100
        let worst = zip(y.dropFirst(4000), y.dropFirst(3999)).map { abs($0 - $1) }.max()!
        #expect(worst < 1.5 * sineStep, "largest step \(worst), the sine's \(sineStep)")
    }
}
