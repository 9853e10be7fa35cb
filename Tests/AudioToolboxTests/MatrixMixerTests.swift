import AudioToolbox
import Foundation
import Testing

/// AUMatrixMixer: channels numbered across buses, four gains per route, every volume 0 until set.
@Suite struct MatrixMixerTests {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MatrixMixer,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    func set(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ v: Float, _ id: AudioUnitParameterID = kMatrixMixerParam_Volume) {
        #expect(AudioUnitSetParameter(unit, id, scope, element, v, 0) == noErr)
    }

    @Test func routesEachInputChannelThroughItsFourGains() throws {
        let stereo = ConstantSource(0.5), mono = ConstantSource(0.25)
        let unit = try TestSupport.newUnit(Self.description)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, 2) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2)) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 1, OCAFormat.canonical(sampleRate: 44100, channels: 1)) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2)) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 1, OCAFormat.canonical(sampleRate: 44100, channels: 1)) == noErr)
        for (i, s) in [stereo, mono].enumerated() {
            #expect(TestSupport.setCallback(unit, AudioUnitElement(i), ConstantSource.callback, Unmanaged.passUnretained(s).toOpaque()) == noErr)
        }
        #expect(AudioUnitInitialize(unit) == noErr)
        // Everything starts at 0: silence.
        let silent = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 256, slices: [256])
        #expect(silent.channels.allSatisfy { $0.allSatisfy { $0 == 0 } })
        // Input channels 0,1 (stereo) and 2 (mono); output channels 0,1 (bus 0) and 2 (bus 1).
        set(unit, kAudioUnitScope_Global, 0xFFFF_FFFF, 0.5)
        for c in 0..<3 { set(unit, kAudioUnitScope_Input, AudioUnitElement(c), 1); set(unit, kAudioUnitScope_Output, AudioUnitElement(c), 1) }
        set(unit, kAudioUnitScope_Input, 2, 0.8)
        set(unit, kAudioUnitScope_Output, 1, 0.5)
        set(unit, kAudioUnitScope_Global, 0 << 16 | 0, 1)      // L -> out 0
        set(unit, kAudioUnitScope_Global, 1 << 16 | 1, 1)      // R -> out 1
        set(unit, kAudioUnitScope_Global, 2 << 16 | 0, 0.5)    // mono -> out 0 at half
        set(unit, kAudioUnitScope_Global, 2 << 16 | 2, 1)      // mono -> out 2
        set(unit, kAudioUnitScope_Global, 0 << 16 | 2, 0.25)   // L -> out 2 at a quarter
        let pullsBefore = stereo.pulls
        let bus0 = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 256, slices: [256],
                                          bus: 0, startTime: 1000)
        let bus1 = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 1), totalFrames: 256, slices: [256],
                                          bus: 1, startTime: 1000)
        #expect(stereo.pulls == pullsBefore + 1, "inputs are pulled once per time stamp")
        #expect(bus0.channels[0].allSatisfy { abs($0 - 0.5 * (0.5 + 0.25 * 0.8 * 0.5)) < 1e-6 })
        #expect(bus0.channels[1].allSatisfy { abs($0 - 0.5 * 0.5 * 0.5) < 1e-6 })
        #expect(bus1.channels[0].allSatisfy { abs($0 - 0.5 * (0.25 * 0.8 + 0.5 * 0.25)) < 1e-6 })
        // Disabling output bus 1 silences it; disabling input 1 removes the mono channel everywhere.
        set(unit, kAudioUnitScope_Input, 1, 0, kMatrixMixerParam_Enable)
        let off = try TestSupport.render(unit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 256, slices: [256],
                                         bus: 0, startTime: 2000)
        #expect(off.channels[0].allSatisfy { abs($0 - 0.25) < 1e-6 })

        var dims = [UInt32](repeating: 0, count: 2)
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MatrixDimensions, kAudioUnitScope_Global, 0, &dims, &size) == noErr)
        #expect(dims == [3, 3])
        var levels = [Float32](repeating: -1, count: 16)
        size = 64
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MatrixLevels, kAudioUnitScope_Global, 0, &levels, &size) == noErr)
        #expect(levels[0] == 1 && levels[2 * 4 + 0] == 0.5 && levels[2 * 4 + 3] == 0.8 && levels[3 * 4 + 1] == 0.5 && levels[15] == 0.5)
        var v: Float = 0
        #expect(AudioUnitGetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Global, 2 << 16 | 2, &v) == noErr && v == 1)
        #expect(AudioUnitGetParameter(unit, kMatrixMixerParam_Enable, kAudioUnitScope_Output, 5, &v) == kAudioUnitErr_InvalidElement)
    }
}
