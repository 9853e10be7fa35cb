import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// AUReverb2 and AUMatrixReverb: the decay measured from each unit's impulse response against its parameters
/// and against the room types' documented decay (ReverbRoomPreset).
@Suite struct ReverbUnitTests {
    static let rate = 44100.0

    func impulseResponse(_ subtype: OSType, seconds: Double, configure: (AudioUnit) -> Void) throws -> [Double] {
        let unit = try EffectTestSupport.newEffect(subtype)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        configure(unit)
        return try EffectTestSupport.process(unit, [[1]], frames: Int(seconds * Self.rate), slices: [512])[0]
    }

    @Test(arguments: [0, 2, 4, 8])
    func matrixReverbRoomsDecayAsDocumented(_ room: UInt32) throws {
        let expected = ReverbRoomPreset(roomType: Int(room))!.decayTimeAt0Hz
        let ir = try impulseResponse(kAudioUnitSubType_MatrixReverb, seconds: expected * 1.5 + 0.2) { unit in
            #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, room) == noErr)
        }
        let measured = EffectTestSupport.rt60(ir, rate: Self.rate, lowPass: 300)
        #expect(abs(measured / expected - 1) < 0.2, "room \(room): measured \(measured) s, documented \(expected) s")
    }

    @Test func reverb2FollowsItsDecayParametersAndRoomTypes() throws {
        let ir = try impulseResponse(kAudioUnitSubType_Reverb2, seconds: 3.5) { unit in
            EffectTestSupport.setParameter(unit, kReverb2Param_DecayTimeAt0Hz, 2.0)
            EffectTestSupport.setParameter(unit, kReverb2Param_DecayTimeAtNyquist, 1.0)
        }
        let measured = EffectTestSupport.rt60(ir, rate: Self.rate, lowPass: 300)
        #expect(abs(measured / 2.0 - 1) < 0.2, "measured \(measured) s")
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_Reverb2)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, 8) == noErr)
        var decay: Float = 0
        #expect(AudioUnitGetParameter(unit, kReverb2Param_DecayTimeAt0Hz, kAudioUnitScope_Global, 0, &decay) == noErr)
        #expect(Double(decay) == ReverbRoomPreset(roomType: 8)!.decayTimeAt0Hz)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, 13) == kAudioUnitErr_InvalidPropertyValue)
        var tail: Float64 = 0
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size) == noErr)
        #expect(tail > 6)
    }

    @Test func aDryMixPassesTheInputExactly() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_MatrixReverb)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kReverbParam_DryWetMix, 0)
        #expect(AudioUnitInitialize(unit) == noErr)
        let x = (0..<8192).map { _ in Float.random(in: -1...1) }
        let y = try EffectTestSupport.process(unit, [x], frames: 8192)
        #expect((0..<8192).first { y[0][$0] != Double(x[$0]) } == nil)
    }
}
