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

    /// Metering: off until MeteringMode is set; then each channel's meters report the last slice (a constant 0.5
    /// input, volume 0.5, crosspoint 1, output volume 1, master 0.8: input pre 0.5 / post 0.25, output post 0.2 / pre
    /// 0.25), in dB and linear; MeterClipping gives the largest output sample since the last call, then 0.
    @Test func metersAndClipping() throws {
        let source = ConstantSource(0.5)
        let unit = try TestSupport.newUnit(Self.description)
        defer { AudioComponentInstanceDispose(unit) }
        let mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, mono) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, mono) == noErr)
        #expect(TestSupport.setCallback(unit, 0, ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        set(unit, kAudioUnitScope_Global, 0xFFFF_FFFF, 0.8)
        set(unit, kAudioUnitScope_Input, 0, 0.5)
        set(unit, kAudioUnitScope_Output, 0, 1)
        set(unit, kAudioUnitScope_Global, 0 << 16 | 0, 1)
        func meter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope) -> Float {
            var v: Float = -1
            #expect(AudioUnitGetParameter(unit, id, scope, 0, &v) == noErr)
            return v
        }
        _ = try TestSupport.render(unit, format: mono, totalFrames: 256, slices: [256], startTime: 0)
        #expect(meter(kMatrixMixerParam_PostPeakHoldLevelLinear, kAudioUnitScope_Output) == 0, "not metered yet")
        #expect(meter(kMatrixMixerParam_PostPeakHoldLevel, kAudioUnitScope_Output) == -120)

        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, 1) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0).1 == 1)
        let out = try TestSupport.render(unit, format: mono, totalFrames: 256, slices: [256], startTime: 256)
        #expect(out.channels[0].allSatisfy { abs($0 - 0.2) < 1e-6 })
        let expected: [(AudioUnitParameterID, AudioUnitScope, Float)] = [
            (kMatrixMixerParam_PreAveragePowerLinear, kAudioUnitScope_Input, 0.5), (kMatrixMixerParam_PrePeakHoldLevelLinear, kAudioUnitScope_Input, 0.5),
            (kMatrixMixerParam_PostAveragePowerLinear, kAudioUnitScope_Input, 0.25), (kMatrixMixerParam_PostPeakHoldLevelLinear, kAudioUnitScope_Input, 0.25),
            (kMatrixMixerParam_PreAveragePowerLinear, kAudioUnitScope_Output, 0.25), (kMatrixMixerParam_PostPeakHoldLevelLinear, kAudioUnitScope_Output, 0.2),
        ]
        for (id, scope, want) in expected { #expect(abs(meter(id, scope) - want) < 1e-5, "\(id) scope \(scope)") }
        #expect(abs(meter(kMatrixMixerParam_PostAveragePower, kAudioUnitScope_Output) - 20 * log10f(0.2)) < 1e-3)
        #expect(abs(meter(kMatrixMixerParam_PrePeakHoldLevel, kAudioUnitScope_Input) - 20 * log10f(0.5)) < 1e-3)
        var v: Float = 0
        #expect(AudioUnitGetParameter(unit, kMatrixMixerParam_PostAveragePower, kAudioUnitScope_Output, 1, &v) == kAudioUnitErr_InvalidElement)

        var clipping = AudioUnitMeterClipping()
        var size = UInt32(MemoryLayout<AudioUnitMeterClipping>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MeterClipping, kAudioUnitScope_Global, 0, &clipping, &size) == noErr)
        #expect(abs(clipping.peakValueSinceLastCall - 0.2) < 1e-6 && !clipping.sawInfinity.boolValue && !clipping.sawNotANumber.boolValue)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MeterClipping, kAudioUnitScope_Global, 0, &clipping, &size) == noErr)
        #expect(clipping.peakValueSinceLastCall == 0, "reset by the call")
        // A louder slice (master 8: 2.0 out, past full scale) is reported.
        set(unit, kAudioUnitScope_Global, 0xFFFF_FFFF, 8)
        _ = try TestSupport.render(unit, format: mono, totalFrames: 256, slices: [256], startTime: 512)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MeterClipping, kAudioUnitScope_Global, 0, &clipping, &size) == noErr)
        #expect(abs(clipping.peakValueSinceLastCall - 2) < 1e-5)
    }
}
