import AudioToolbox
import Foundation
import Testing

/// A render callback source writing a constant to every channel and counting its pulls.
final class ConstantSource {
    var value: Float
    var pulls = 0
    init(_ value: Float) { self.value = value }

    static let callback: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let s = Unmanaged<ConstantSource>.fromOpaque(refCon).takeUnretainedValue()
        s.pulls += 1
        for b in UnsafeMutableAudioBufferListPointer(ioData!) {
            b.mData!.assumingMemoryBound(to: Float.self).update(repeating: s.value, count: Int(frames))
        }
        return noErr
    }
}

@Suite struct MultiChannelMixerTests {
    static let mixer = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let mono = OCAFormat.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)
    static let stereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)

    /// A mixer with one constant source per input (mono or stereo by `formats`), not yet initialized.
    func makeMixer(_ sources: [ConstantSource], _ formats: [AudioStreamBasicDescription]) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.mixer)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, UInt32(sources.count)) == noErr)
        for (i, s) in sources.enumerated() {
            #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, AudioUnitElement(i), formats[i]) == noErr)
            #expect(TestSupport.setCallback(unit, AudioUnitElement(i), ConstantSource.callback, Unmanaged.passUnretained(s).toOpaque()) == noErr)
        }
        return unit
    }

    func set(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ v: Float) {
        #expect(AudioUnitSetParameter(unit, id, scope, element, v, 0) == noErr)
    }

    /// Mono inputs: volume times the constant-power pan law, summed per side; stereo input: balance.
    @Test func mixesWithGainAndPanLaws() throws {
        let a = ConstantSource(0.5), b = ConstantSource(0.25), c = ConstantSource(0.125)
        let unit = try makeMixer([a, b, c], [Self.mono, Self.mono, Self.stereo])
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 0, -1)
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 1, 0.5)
        set(unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 1, 0.5)
        set(unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 2, 0.5)  // balance right: left side * cos(π/4)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 1024, slices: [512])
        let theta = 1.5 * Double.pi / 4
        let expectedL = 0.5 + 0.25 * 0.5 * cos(theta) + 0.125 * cos(Double.pi / 4)
        let expectedR = 0.0 + 0.25 * 0.5 * sin(theta) + 0.125
        #expect(out.channels[0].allSatisfy { abs($0 - expectedL) < 1e-6 })
        #expect(out.channels[1].allSatisfy { abs($0 - expectedR) < 1e-6 })
    }

    /// AUStereoMixer: pan 0...1 (0.5 centre) through the same laws, volume per input and output, no Enable.
    @Test func stereoMixerUsesItsOwnParameters() throws {
        let a = ConstantSource(0.5), b = ConstantSource(0.25)
        let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_StereoMixer,
                                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2) == noErr)
        for (i, s) in [a, b].enumerated() {
            #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, AudioUnitElement(i), Self.mono) == noErr)
            #expect(TestSupport.setCallback(unit, AudioUnitElement(i), ConstantSource.callback, Unmanaged.passUnretained(s).toOpaque()) == noErr)
        }
        var pan: Float = -1
        #expect(AudioUnitGetParameter(unit, kStereoMixerParam_Pan, kAudioUnitScope_Input, 0, &pan) == noErr)
        #expect(pan == 0.5)
        set(unit, kStereoMixerParam_Pan, kAudioUnitScope_Input, 0, 0)
        set(unit, kStereoMixerParam_Volume, kAudioUnitScope_Input, 1, 0.5)
        set(unit, kStereoMixerParam_Volume, kAudioUnitScope_Output, 0, 0.5)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 512, slices: [512])
        let centre = cos(Double.pi / 4)
        #expect(out.channels[0].allSatisfy { abs($0 - 0.5 * (0.5 + 0.125 * centre)) < 1e-6 })
        #expect(out.channels[1].allSatisfy { abs($0 - 0.5 * (0.125 * centre)) < 1e-6 })
    }

    @Test func disabledInputsAreSilentAndNotPulled() throws {
        let a = ConstantSource(0.5), b = ConstantSource(0.25)
        let unit = try makeMixer([a, b], [Self.stereo, Self.stereo])
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, 1, 0)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(b.pulls == 0 && a.pulls == 4)
        // Enabled at volume 0: silent, but still pulled so its source keeps time.
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0)
        _ = try TestSupport.render(unit, format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(a.pulls == 8)
        #expect(out.channels.allSatisfy { $0.allSatisfy { $0 == 0.5 } })
    }

    /// A volume jump is spread linearly over 10 ms (441 frames at 44.1 kHz), then held.
    @Test func volumeChangesAreDezippered() throws {
        let a = ConstantSource(1)
        let unit = try makeMixer([a], [Self.stereo])
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        _ = try TestSupport.render(unit, format: Self.stereo, totalFrames: 512, slices: [512])
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 1024, slices: [256])
        let step = 1.0 / 441
        for k in [0, 100, 255, 256, 300, 439] { #expect(abs(out.channels[0][k] - (1 - Double(k + 1) * step)) < 1e-5) }
        #expect(out.channels[0][440...].allSatisfy { $0 == 0 })
        // Output volume scales the mix the same way.
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 1)
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, 0.25)
        let settled = try TestSupport.render(unit, format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(abs(settled.channels[1][2047] - 0.25) < 1e-6)
    }

    @Test func elementsParametersAndFormats() throws {
        let unit = try TestSupport.newUnit(Self.mixer)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0).1 == 8)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 3) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, 2) == kAudioUnitErr_PropertyNotWritable)
        var value: Float = 0
        #expect(AudioUnitGetParameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 2, &value) == noErr && value == 1)
        #expect(AudioUnitGetParameter(unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 3, &value) == kAudioUnitErr_InvalidElement)
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, kMultiChannelMixerParam_Pan, &info, &size) == noErr)
        #expect(info.minValue == -1 && info.maxValue == 1 && info.unit == .pan)
        // 4096 frames per slice (the screen-lock case) renders.
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, 4096) == noErr)
        let source = ConstantSource(0.1)
        for i in 0..<3 { TestSupport.setCallback(unit, AudioUnitElement(i), ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque()) }
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 4096, slices: [4096])
        #expect(out.channels[0].allSatisfy { abs($0 - 0.3) < 1e-6 })
        #expect(AudioUnitUninitialize(unit) == noErr)
        // The hosting guide sets just the sample rate on the output scope; inputs at another rate are refused.
        var rate = 48000.0
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, 8) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
        for i in 0..<3 { #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, UInt32(i), &rate, 8) == noErr) }
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(AudioUnitUninitialize(unit) == noErr)
        // A mono output is refused at initialize.
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.mono) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
    }

    /// The hosting guide's figure 1-4: two render callbacks into a multichannel mixer, the mixer into an
    /// output unit, all in an AUGraph rendered offline. Input 0 plays frame n as n, input 1 a constant 0.5
    /// panned hard left (stereo balance), so left is n + 0.5 and right is n, exactly.
    @Test func hostingGuideFigure1_4GraphMixesTwoCallbacks() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, mixDesc = Self.mixer
        var output = AUNode(), mixer = AUNode()
        #expect(AUGraphAddNode(g, &outDesc, &output) == noErr)
        #expect(AUGraphAddNode(g, &mixDesc, &mixer) == noErr)
        #expect(AUGraphOpen(g) == noErr)
        let mixerUnit = try #require(GraphSupport.unit(g, mixer))
        #expect(TestSupport.setUInt32(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2) == noErr)
        set(mixerUnit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 1, -1)
        var half: Float32 = 0.5
        try withUnsafeMutablePointer(to: &half) { halfPointer in
            var ramp = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
            var constant = AURenderCallbackStruct(inputProc: GraphSupport.constant, inputProcRefCon: UnsafeMutableRawPointer(halfPointer))
            #expect(AUGraphSetNodeInputCallback(g, mixer, 0, &ramp) == noErr)
            #expect(AUGraphSetNodeInputCallback(g, mixer, 1, &constant) == noErr)
            #expect(AUGraphConnectNodeInput(g, mixer, 0, output, 0) == noErr)
            #expect(AUGraphInitialize(g) == noErr)
            let out = try TestSupport.render(try #require(GraphSupport.unit(g, output)), format: Self.stereo, totalFrames: 3000, slices: [512, 100])
            #expect(out.channels[0].enumerated().allSatisfy { $0.element == Double($0.offset) + 0.5 })
            #expect(out.channels[1].enumerated().allSatisfy { abs($0.element - Double($0.offset)) < 1e-9 * Double($0.offset + 1) })
        }
    }

    /// Meters report the slice's RMS and peak in dB, before and after the element's volume, on input and output.
    @Test func metersMatchTheMeasuredLevels() throws {
        let a = ConstantSource(0.5)
        let unit = try makeMixer([a], [Self.mono])
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5)
        set(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, 0.5)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Input, 0, 1) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Output, 0, 1) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Input, 0) == (noErr, 1))
        #expect(AudioUnitInitialize(unit) == noErr)
        var value: Float = 0
        #expect(AudioUnitGetParameter(unit, kMultiChannelMixerParam_PrePeakHoldLevel, kAudioUnitScope_Input, 0, &value) == noErr)
        #expect(value == -120)  // nothing rendered yet
        _ = try TestSupport.render(unit, format: Self.stereo, totalFrames: 512, slices: [512])
        func meter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope) -> Double {
            var v: Float = 0
            AudioUnitGetParameter(unit, id, scope, 0, &v)
            return Double(v)
        }
        // Input: a constant 0.5 (peak = RMS = -6.02 dB), post volume 0.5 (-12.04 dB).
        #expect(abs(meter(kMultiChannelMixerParam_PreAveragePower, kAudioUnitScope_Input) - 20 * log10(0.5)) < 1e-4)
        #expect(abs(meter(kMultiChannelMixerParam_PostPeakHoldLevel, kAudioUnitScope_Input) - 20 * log10(0.25)) < 1e-4)
        // Output before its volume: 0.25·cos(π/4) on both sides; after: half that.
        let side = 0.25 * cos(Double.pi / 4)
        #expect(abs(meter(kMultiChannelMixerParam_PrePeakHoldLevel, kAudioUnitScope_Output) - 20 * log10(side)) < 1e-4)
        #expect(abs(meter(kMultiChannelMixerParam_PostAveragePower, kAudioUnitScope_Output) - 20 * log10(side * 0.5)) < 1e-4)
        #expect(AudioUnitSetParameter(unit, kMultiChannelMixerParam_PreAveragePower, kAudioUnitScope_Global, 0, 0, 0) == kAudioUnitErr_InvalidParameter)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, 1) == kAudioUnitErr_InvalidScope)
    }
}
