import AudioDSP
import AudioToolbox
import Foundation
import Testing

@Suite struct AUiPodEQTests {
    static let eq = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_AUiPodEQ,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let names = ["Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep", "Electronic", "Flat", "Hip-Hop", "Jazz",
                        "Latin", "Loudness", "Lounge", "Piano", "Pop", "R&B", "Rock", "Small Speakers", "Spoken Word", "Treble Booster",
                        "Treble Reducer", "Vocal Booster"]
    static let sr = 44100.0

    /// A sine of the frequency the refCon points at, amplitude 0.5, continuous across slices.
    final class Tone { var frequency: Double; var n = 0; init(_ f: Double) { frequency = f } }
    static let tone: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let t = Unmanaged<Tone>.fromOpaque(refCon).takeUnretainedValue()
        let list = UnsafeMutableAudioBufferListPointer(ioData!)
        for i in 0..<Int(frames) {
            let x = Float(0.5 * sin(2 * Double.pi * t.frequency * Double(t.n + i) / sr))
            for b in list { b.mData!.assumingMemoryBound(to: Float.self)[i] = x }
        }
        t.n += Int(frames)
        return noErr
    }

    func makeEQ(_ tone: Tone, preset: Int32?) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.eq)
        TestSupport.setCallback(unit, 0, Self.tone, Unmanaged.passUnretained(tone).toOpaque())
        if let preset { #expect(setPreset(unit, preset) == noErr) }
        #expect(AudioUnitInitialize(unit) == noErr)
        return unit
    }

    func setPreset(_ unit: AudioUnit, _ number: Int32) -> OSStatus {
        var p = AUPreset(presetNumber: number, presetName: nil)
        return AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &p, UInt32(MemoryLayout<AUPreset>.size))
    }

    /// Gain in dB of a sine at `f` through `unit` after 0.25 s, fitted over a whole number of periods.
    func measure(_ unit: AudioUnit, _ tone: Tone, _ f: Double) throws -> Double {
        tone.frequency = f
        tone.n = 0
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        let periods = max(1, Int((4096 * f / Self.sr).rounded(.up)))
        let window = Int((Double(periods) * Self.sr / f).rounded())
        let settle = 11025
        let out = try TestSupport.render(unit, format: MultiChannelMixerTests.stereo, totalFrames: settle + window, slices: [512])
        var re = 0.0, im = 0.0
        for k in 0..<window {
            let n = settle + k, w = 2 * Double.pi * f * Double(n) / Self.sr
            re += out.channels[0][n] * sin(w)
            im += out.channels[0][n] * cos(w)
        }
        let amplitude = 2 * (re * re + im * im).squareRoot() / Double(window)
        return 20 * log10(amplitude / 0.5)
    }

    @Test func presetsAreApplesNamesInApplesOrder() throws {
        let unit = try TestSupport.newUnit(Self.eq)
        defer { AudioComponentInstanceDispose(unit) }
        var array: CFArray?
        var size = UInt32(MemoryLayout<CFArray?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size) == noErr)
        let presets = try #require(array as? [AnyObject])
        #expect(presets.count == 22)
        var present = AUPreset()
        size = UInt32(MemoryLayout<AUPreset>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, &size) == noErr)
        #expect(present.presetNumber == 7 && present.presetName?.takeRetainedValue() as String? == "Flat")
        for (i, name) in Self.names.enumerated() {
            #expect(setPreset(unit, Int32(i)) == noErr)
            size = UInt32(MemoryLayout<AUPreset>.size)
            AudioUnitGetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, &size)
            #expect(present.presetName?.takeRetainedValue() as String? == name)
        }
        #expect(setPreset(unit, 22) == kAudioUnitErr_InvalidPropertyValue)
    }

    /// Flat passes audio through bit for bit (far below -100 dB of difference).
    @Test func flatIsTransparent() throws {
        let tone = Tone(997)
        let unit = try makeEQ(tone, preset: nil)
        defer { AudioComponentInstanceDispose(unit) }
        let out = try TestSupport.render(unit, format: MultiChannelMixerTests.stereo, totalFrames: 4096, slices: [512])
        let expected = (0..<4096).map { Double(Float(0.5 * sin(2 * Double.pi * 997 * Double($0) / Self.sr))) }
        #expect(out.channels[0] == expected && out.channels[1] == expected)
    }

    /// Every preset: the measured response at 20 log-spaced frequencies equals the designed cascade's within
    /// 0.1 dB, and the design meets each documented band gain at its centre within 0.5 dB.
    @Test(arguments: 0..<22)
    func presetResponseMatchesItsBandGains(_ preset: Int) throws {
        let tone = Tone(1000)
        let unit = try makeEQ(tone, preset: Int32(preset))
        defer { AudioComponentInstanceDispose(unit) }
        let gains = Self.bandGains[preset]
        let sections = GraphicEQDesign.sections(bandGains: gains, sampleRate: Self.sr)
        for (b, f) in GraphicEQDesign.bandFrequencies.enumerated() {
            #expect(abs(GraphicEQDesign.response(sections, at: f, sampleRate: Self.sr) - gains[b]) < 0.5, "band \(f) Hz")
        }
        for k in 0..<20 {
            let f = 20 * pow(1000, Double(k) / 19)  // 20 Hz ... 20 kHz
            let measured = try measure(unit, tone, f)
            #expect(abs(measured - GraphicEQDesign.response(sections, at: f, sampleRate: Self.sr)) < 0.1, "\(Self.names[preset]) at \(f) Hz")
        }
    }

    /// The documented table (the same values as the unit's; a change to either fails here).
    static let bandGains: [[Double]] = [
        [4, 4, 3, 1, 1.5, 1, 2, 3, 2.5, 1.5], [5.5, 4.5, 3.5, 2.5, 1.5, 0, 0, 0, 0, 0], [-5.5, -4.5, -3.5, -2.5, -1.5, 0, 0, 0, 0, 0],
        [4.5, 3.5, 3, 2.5, -1.5, -1.5, 0, 2, 3, 3.5], [3.5, 6.5, 5, 0, 2, 3.5, 5, 4.5, 3.5, 0], [5, 3.5, 1.5, 1, 3, 2.5, 1.5, -2, -3.5, -4.5],
        [4, 3.5, 1, 0, -2, 2, 1, 1.5, 4, 4.5], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [5, 4, 1.5, 3, -1, -1, 1.5, -0.5, 2, 3],
        [4, 3, 1.5, 2, -1.5, -1.5, 0, 1.5, 3, 3.5], [4.5, 3, 0, 0, -1.5, -1.5, -1.5, 0, 3, 4.5], [6, 4, 0, 0, -2, 0, -1, -5, 5, 1],
        [-3, -1.5, -0.5, 1.5, 4, 2.5, 0, -1.5, 2, 1], [3, 2, 0, 2.5, 3, 1.5, 3.5, 4.5, 3, 3.5], [-1.5, -1, 0, 2, 4, 4, 2, 0, -1, -1.5],
        [2.5, 7, 5.5, 1.5, -2.5, -1.5, 2.5, 3, 3, 4], [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5], [5.5, 4, 3.5, 2.5, 1, 0, -1, -2, -3, -4],
        [-3.5, -0.5, 0, 0.5, 3.5, 4.5, 5, 4.5, 2.5, 0], [0, 0, 0, 0, 0, 1.5, 2.5, 3.5, 4.5, 5.5], [0, 0, 0, 0, 0, -1.5, -2.5, -3.5, -4.5, -5.5],
        [-1.5, -3, -3, 1.5, 3.5, 3.5, 3, 1.5, 0, -1.5],
    ]

    /// Switching presets mid-stream crossfades: the output's curvature stays that of a sine (no step in value or
    /// slope), and the new curve is reached after 10 ms.
    @Test func switchingWhilePlayingDoesNotClick() throws {
        let tone = Tone(1000)
        let unit = try makeEQ(tone, preset: 7)
        defer { AudioComponentInstanceDispose(unit) }
        var samples = try TestSupport.render(unit, format: MultiChannelMixerTests.stereo, totalFrames: 4096, slices: [256]).channels[0]
        #expect(setPreset(unit, 18) == noErr)  // Spoken Word: +4.5 dB at 1 kHz
        samples += try TestSupport.render(unit, format: MultiChannelMixerTests.stereo, totalFrames: 8192, slices: [256]).channels[0]
        // A click shows as a step in value or slope: the second difference of a sine of amplitude a at ω rad per
        // sample never exceeds a·ω², and the curves here at most double a (+6 dB); allow 1.5x that.
        let w = 2 * Double.pi * 1000 / Self.sr
        let bound = 1.5 * 2 * 0.5 * w * w
        var worst = 0.0, worstAt = 0
        for n in 1..<samples.count - 1 {
            let d: Double = samples[n + 1] - 2 * samples[n] + samples[n - 1]
            if abs(d) > worst { worst = abs(d); worstAt = n }
        }
        #expect(worst < bound, "largest second difference \(worst) at \(worstAt), bound \(bound)")
        let tail = samples.suffix(2048).map(abs).max()!
        let design = GraphicEQDesign.sections(bandGains: Self.bandGains[18], sampleRate: Self.sr)
        #expect(abs(20 * log10(tail / 0.5) - GraphicEQDesign.response(design, at: 1000, sampleRate: Self.sr)) < 0.1)
    }

    /// The hosting guide's figure 1-5: an iPod EQ inserted live between a render callback and a mixer input of
    /// an initialized graph (AUGraphUpdate between slices). Before, the 1 kHz tone passes at its level; after,
    /// at the Spoken Word curve's gain.
    @Test func hostingGuideFigure1_5InsertsTheEQLive() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, mixDesc = MultiChannelMixerTests.mixer, eqDesc = Self.eq
        var output = AUNode(), mixer = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &mixDesc, &mixer)
        #expect(AUGraphOpen(g) == noErr)
        TestSupport.setUInt32(try #require(GraphSupport.unit(g, mixer)), kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 1)
        let tone = Tone(1000)
        var cb = AURenderCallbackStruct(inputProc: Self.tone, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        #expect(AUGraphSetNodeInputCallback(g, mixer, 0, &cb) == noErr)
        #expect(AUGraphConnectNodeInput(g, mixer, 0, output, 0) == noErr)
        #expect(AUGraphInitialize(g) == noErr)
        let head = try #require(GraphSupport.unit(g, output))
        let before = try TestSupport.render(head, format: MultiChannelMixerTests.stereo, totalFrames: 4410, slices: [441])
        #expect(abs(before.channels[0].suffix(441).map(abs).max()! - 0.5) < 1e-3)  // stereo input at centre balance: unity

        var eq = AUNode()
        #expect(AUGraphAddNode(g, &eqDesc, &eq) == noErr)
        let eqUnit = try #require(GraphSupport.unit(g, eq))
        #expect(setPreset(eqUnit, 18) == noErr)
        #expect(AUGraphDisconnectNodeInput(g, mixer, 0) == noErr)
        #expect(AUGraphSetNodeInputCallback(g, eq, 0, &cb) == noErr)
        #expect(AUGraphConnectNodeInput(g, eq, 0, mixer, 0) == noErr)
        #expect(AUGraphUpdate(g, nil) == noErr)
        let after = try TestSupport.render(head, format: MultiChannelMixerTests.stereo, totalFrames: 22050, slices: [441])
        let design = GraphicEQDesign.sections(bandGains: Self.bandGains[18], sampleRate: Self.sr)
        let level = 20 * log10(after.channels[0].suffix(4410).map(abs).max()! / 0.5)
        #expect(abs(level - GraphicEQDesign.response(design, at: 1000, sampleRate: Self.sr)) < 0.1)
    }

    /// ClassInfo carries the preset: restoring it into a fresh iPod EQ selects the same curve.
    @Test func classInfoRestoresThePreset() throws {
        let a = try TestSupport.newUnit(Self.eq), b = try TestSupport.newUnit(Self.eq)
        defer { AudioComponentInstanceDispose(a); AudioComponentInstanceDispose(b) }
        #expect(setPreset(a, 4) == noErr)  // Dance
        var state: CFPropertyList?
        var size = UInt32(MemoryLayout<CFPropertyList?>.size)
        #expect(AudioUnitGetProperty(a, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size) == noErr)
        #expect((state as? NSDictionary)?[kAUPresetNumberKey] as? NSNumber == 4)
        #expect(AudioUnitSetProperty(b, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, size) == noErr)
        var present = AUPreset()
        size = UInt32(MemoryLayout<AUPreset>.size)
        #expect(AudioUnitGetProperty(b, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, &size) == noErr)
        #expect(present.presetNumber == 4 && present.presetName?.takeRetainedValue() as String? == "Dance")
    }
}
