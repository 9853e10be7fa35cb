import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// AUPitch ('aufx' 'tmpt'): a pitch shift at constant duration, aligned with the dry signal by its latency.
@Suite struct PitchUnitTests {
    func latencyFrames(_ unit: AudioUnit) -> Int {
        var latency: Float64 = 0
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size) == noErr)
        return Int((latency * 44100).rounded())
    }

    @Test func anOctaveUpDoublesTheFrequencyAtTheSameLevel() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Pitch, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kTimePitchParam_Pitch, 1200)
        #expect(AudioUnitInitialize(unit) == noErr)
        let x = EffectTestSupport.sine(440, amplitude: 0.5, frames: 88200)
        let y = try EffectTestSupport.process(unit, [x], frames: 88200, slices: [512, 300])[0]
        #expect(y.count == 88200)
        let d = latencyFrames(unit)
        #expect(d > 0 && d < 22050)
        let body = y[(d + 8820)..<(d + 52920)].map { Float($0) }
        let at880 = ToneAnalysis.fit(body[...], frequency: 880, rate: 44100).amplitude
        let at440 = ToneAnalysis.fit(body[...], frequency: 440, rate: 44100).amplitude
        #expect(abs(20 * log10(at880 / 0.5)) < 1.5, "880 Hz at \(at880)")
        #expect(at440 < 0.02, "440 Hz left at \(at440)")
    }

    @Test func blendZeroIsTheInputDelayedByTheLatency() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Pitch, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kTimePitchParam_EffectBlend, 0)
        EffectTestSupport.setParameter(unit, kTimePitchParam_Pitch, 700)
        #expect(AudioUnitInitialize(unit) == noErr)
        let x = (0..<30000).map { _ in Float.random(in: -1...1) }
        let y = try EffectTestSupport.process(unit, [x], frames: 30000)[0]
        let d = latencyFrames(unit)
        #expect((d..<30000).first { abs(y[$0] - Double(x[$0 - d])) > 1e-6 } == nil)
    }
}
