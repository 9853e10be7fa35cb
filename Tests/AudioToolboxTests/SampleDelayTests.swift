import AudioToolbox
import Testing

/// AUSampleDelay, Apple's whole-frame delay effect.
@Suite struct SampleDelayTests {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_SampleDelay,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    func makeUnit(delay: Float) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.description)
        TestSupport.setCallback(unit, 0, GraphSupport.ramp, nil)
        #expect(AudioUnitSetParameter(unit, kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0, delay, 0) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        return unit
    }

    @Test func zeroDelayPassesThrough() throws {
        let unit = try makeUnit(delay: 0)
        defer { AudioComponentInstanceDispose(unit) }
        let out = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 1000,
                                         slices: [128, 3])
        #expect(out.channels.allSatisfy { ch in ch.enumerated().allSatisfy { $0.element == Double($0.offset) } })
    }

    @Test func delaysByTheParameterAcrossSlices() throws {
        let unit = try makeUnit(delay: 300)
        defer { AudioComponentInstanceDispose(unit) }
        let out = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 2000,
                                         slices: [128, 77])
        for c in 0..<2 {
            #expect(out.channels[c][..<300].allSatisfy { $0 == 0 })
            #expect(out.channels[c][300...].enumerated().allSatisfy { $0.element == Double($0.offset) })
        }
        var tail: Float64 = 0
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size) == noErr)
        #expect(abs(tail - 300.0 / 44100) < 1e-12)
    }

    @Test func parameterRangeFollowsTheSampleRate() throws {
        let unit = try TestSupport.newUnit(Self.description)
        defer { AudioComponentInstanceDispose(unit) }
        TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 96000, channels: 1))
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kSampleDelayParam_DelayFrames,
                                     &info, &size) == noErr)
        #expect(info.unit == .sampleFrames && info.minValue == 0 && info.maxValue == 96000 && info.defaultValue == 0)
        info.cfNameString?.release()
    }
}
