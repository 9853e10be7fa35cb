import AudioToolbox
import Foundation
import Testing

/// AUDistortion's parameters and Apple's 22 factory presets; AURogerBeep's beep after the talker stops.
@Suite struct DistortionRogerBeepTests {
    @Test func distortionHasApplesPresetsAndADryPath() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Distortion)
        defer { AudioComponentInstanceDispose(unit) }
        var presets: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<CFArray?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presets, &size) == noErr)
        let list = presets!.takeRetainedValue()
        #expect(CFArrayGetCount(list) == 22)
        let first = unsafeBitCast(CFArrayGetValueAtIndex(list, 0), to: UnsafePointer<AUPreset>.self).pointee
        #expect(first.presetNumber == 0 && (first.presetName!.takeUnretainedValue() as String) == "Drums Bit Brush")
        var preset = AUPreset(presetNumber: 16, presetName: nil)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                                     UInt32(MemoryLayout<AUPreset>.size)) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        let noise = (0..<44100).map { _ in Float.random(in: -1...1) }
        let y = try EffectTestSupport.process(unit, [noise], frames: 44100)
        #expect(y[0].allSatisfy { $0.isFinite && abs($0) <= 1.01 })
        #expect(y[0] != noise.map(Double.init))
        // Final mix 0: the dry input, exactly.
        let dry = try EffectTestSupport.newEffect(kAudioUnitSubType_Distortion)
        defer { AudioComponentInstanceDispose(dry) }
        EffectTestSupport.setParameter(dry, kDistortionParam_FinalMix, 0)
        #expect(AudioUnitInitialize(dry) == noErr)
        let same = try EffectTestSupport.process(dry, [noise], frames: 44100)
        #expect((0..<44100).first { same[0][$0] != Double(noise[$0]) } == nil)
    }

    /// Noise for 1.5 s, then silence: with 200 ms gates a beep follows the silence by 200 ms (within a level window),
    /// lasts about 200 ms and peaks at the roger gain; nothing else is changed.
    @Test func aBeepFollowsTheEndOfTalking() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_RogerBeep, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kRogerBeepParam_InGateThresholdTime, 200)
        EffectTestSupport.setParameter(unit, kRogerBeepParam_OutGateThresholdTime, 200)
        EffectTestSupport.setParameter(unit, kRogerBeepParam_InGateThreshold, -30)
        EffectTestSupport.setParameter(unit, kRogerBeepParam_OutGateThreshold, -40)
        #expect(AudioUnitInitialize(unit) == noErr)
        let talk = (0..<66150).map { _ in Float.random(in: -0.5...0.5) }
        let y = try EffectTestSupport.process(unit, [talk], frames: 88200)[0]
        #expect((0..<66150).allSatisfy { y[$0] == Double(talk[$0]) })
        let start = try #require((66150..<88200).first { abs(y[$0]) > 1e-4 }, "no beep")
        let delay = Double(start - 66150) / 44100
        #expect(delay > 0.19 && delay < 0.26, "beep \(delay) s after the silence")
        let end = (start..<88200).last { abs(y[$0]) > 1e-4 }!
        #expect(abs(Double(end - start) / 44100 - 0.2) < 0.01)
        let peak = 20 * log10(y[start...end].map(abs).max()!)
        #expect(abs(peak + 6) < 0.1, "beep peak \(peak) dB")
    }
}
