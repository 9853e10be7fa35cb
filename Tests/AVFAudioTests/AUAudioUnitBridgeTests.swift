import AVFoundation
import Foundation
import Testing

/// AUAudioUnitV2Bridge: built-in (version 2) units seen as AUAudioUnits, through AUAudioUnit.instantiate and through
/// AVAudioNode's auAudioUnit.
@Suite struct AUAudioUnitBridgeTests {
    static let eq = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Input for the bridge's render: a constant 0.5 on every channel.
    final class Source: @unchecked Sendable {
        let pull: AURenderPullInputBlock = { _, _, frames, _, list in
            for b in UnsafeMutableAudioBufferListPointer(list) {
                b.mData!.assumingMemoryBound(to: Float.self).update(repeating: 0.5, count: Int(frames))
            }
            return noErr
        }
    }

    @Test func instantiateWrapsABuiltInUnit() throws {
        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: Self.eq, options: []) { unit, error in
            #expect(error == nil)
            made = unit
        }
        let unit = try #require(made)
        #expect(unit is AUAudioUnitV2Bridge)
        #expect(unit.audioUnitName == "AUNBandEQ" && unit.manufacturerName == "Apple")
        #expect(unit.outputBusses.count == 1 && unit.inputBusses.count == 1)
        let gain = try #require(unit.parameterTree?.parameter(withAddress: AUParameterAddress(kAUNBandEQParam_GlobalGain)))
        #expect(gain.minValue == -96 && gain.maxValue == 24)
        gain.value = -20 * log10(2)  // half
        #expect(abs(gain.value + 6.0206) < 1e-3)
        // An indexed parameter brings its value names (kAudioUnitProperty_ParameterValueStrings) into the tree.
        let type0 = try #require(unit.parameterTree?.parameter(withAddress: AUParameterAddress(kAUNBandEQParam_FilterType)))
        #expect(type0.valueStrings?.count == 11 && type0.valueStrings?[5] == "Band Pass")
        var bandStop: AUValue = 6
        #expect(type0.string(fromValue: &bandStop) == "Band Stop")
        #expect(gain.valueStrings == nil)
        try unit.allocateRenderResources()
        defer { unit.deallocateRenderResources() }
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        out.frameLength = 512
        var flags = AudioUnitRenderActionFlags()
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        let source = Source()
        var status: AUAudioUnitStatus = noErr
        for _ in 0..<20 {  // past the gain's glide
            status = unit.renderBlock(&flags, &stamp, 512, 0, out.mutableAudioBufferList, source.pull)
            stamp.mSampleTime += 512
        }
        #expect(status == noErr)
        #expect(abs(out.floatChannelData![0][511] - 0.25) < 1e-4 && abs(out.floatChannelData![1][511] - 0.25) < 1e-4)
    }

    @Test func nodesExposeTheirUnitsParameters() throws {
        let reverb = AVAudioUnitReverb()
        let tree = try #require(reverb.auAudioUnit.parameterTree)
        let mix = try #require(tree.parameter(withAddress: AUParameterAddress(kReverb2Param_DryWetMix)))
        mix.value = 30
        #expect(reverb.wetDryMix == 30)
        reverb.wetDryMix = 70
        #expect(mix.value == 70)
        #expect(reverb.auAudioUnit.factoryPresets?.count == 13)
        #expect(reverb.auAudioUnit.factoryPresets?.first?.name == "Small Room")
        #expect(reverb.auAudioUnit === reverb.auAudioUnit)
        #expect(AVAudioMixerNode().auAudioUnit.audioUnitName == "AUMultiChannelMixer")  // no engine: no device opened
    }
}
