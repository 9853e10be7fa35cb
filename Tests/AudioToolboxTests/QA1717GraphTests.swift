import AudioToolbox
import Foundation
import Testing

/// Technical Q&A QA1717's graph, built as its listing 1 builds it (AUGenericOutput in place of RemoteIO, pulled
/// offline with AudioUnitRender): a render callback giving 16-bit interleaved stereo at 22050 Hz into an
/// AUConverter, then an AUMultiChannelMixer with one bus, then AUiPodTime, then the output unit; every node's
/// output format is set explicitly to the canonical stereo format at 44100 Hz and propagates to its destination.
@Suite struct QA1717GraphTests {
    static let outputRate = 44100.0
    static let clientRate = 22050.0

    /// The client's audio: a 220 Hz harmonic tone (harmonics 1...4), Int16 interleaved stereo, counting the
    /// frames pulled.
    final class Int16Tone {
        var framesPulled = 0
        var timesContiguous = true
        func value(_ n: Double) -> Double {
            var s = 0.0
            for h in 1...4 { s += sin(2 * Double.pi * 220 * Double(h) * n / QA1717GraphTests.clientRate + Double(h)) / Double(h) }
            return 0.25 * s
        }
        static let callback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
            let s = Unmanaged<Int16Tone>.fromOpaque(refCon).takeUnretainedValue()
            let start = timeStamp.pointee.mSampleTime
            if start != Double(s.framesPulled) { s.timesContiguous = false }
            let p = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Int16.self)
            for n in 0..<Int(frames) {
                let x = Int16((s.value(start + Double(n)) * 32767).rounded())
                p[2 * n] = x
                p[2 * n + 1] = x
            }
            s.framesPulled += Int(frames)
            return noErr
        }
    }

    static func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
                                  componentFlags: 0, componentFlagsMask: 0)
    }

    /// Builds and initializes the graph; returns it with the output and iPodTime units.
    func makeGraph(_ tone: Int16Tone) throws -> (AUGraph, output: AudioUnit, iPodTime: AudioUnit) {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        var outputDesc = TestSupport.genericOutput
        var iPodTimeDesc = Self.description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUiPodTime)
        var mixerDesc = Self.description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        var converterDesc = Self.description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
        var outputNode = AUNode(), iPodTimeNode = AUNode(), mixerNode = AUNode(), converterNode = AUNode()
        #expect(AUGraphAddNode(g, &outputDesc, &outputNode) == noErr)
        #expect(AUGraphAddNode(g, &iPodTimeDesc, &iPodTimeNode) == noErr)
        #expect(AUGraphAddNode(g, &mixerDesc, &mixerNode) == noErr)
        #expect(AUGraphAddNode(g, &converterDesc, &converterNode) == noErr)
        // converter -> mixer -> iPodTime -> output
        #expect(AUGraphConnectNodeInput(g, converterNode, 0, mixerNode, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, mixerNode, 0, iPodTimeNode, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, iPodTimeNode, 0, outputNode, 0) == noErr)
        #expect(AUGraphOpen(g) == noErr)
        let converter = try #require(GraphSupport.unit(g, converterNode))
        let mixer = try #require(GraphSupport.unit(g, mixerNode))
        let iPodTime = try #require(GraphSupport.unit(g, iPodTimeNode))
        let output = try #require(GraphSupport.unit(g, outputNode))
        #expect(TestSupport.setUInt32(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 1) == noErr)
        var callback = AURenderCallbackStruct(inputProc: Int16Tone.callback, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        #expect(AUGraphSetNodeInputCallback(g, converterNode, 0, &callback) == noErr)
        // mClientFormat.SetCanonical(2, true) at 22050 Hz: 16-bit interleaved (the iOS canonical sample).
        let client = OCAFormat.linearPCM(sampleRate: Self.clientRate, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let outputFormat = OCAFormat.canonical(sampleRate: Self.outputRate, channels: 2)
        #expect(TestSupport.setFormat(converter, kAudioUnitScope_Input, 0, client) == noErr)
        #expect(TestSupport.setFormat(converter, kAudioUnitScope_Output, 0, outputFormat) == noErr)
        #expect(TestSupport.setFormat(mixer, kAudioUnitScope_Output, 0, outputFormat) == noErr)
        #expect(TestSupport.setFormat(iPodTime, kAudioUnitScope_Output, 0, outputFormat) == noErr)
        #expect(AUGraphInitialize(g) == noErr)
        // The formats propagated to the destinations' inputs.
        #expect(TestSupport.format(iPodTime, kAudioUnitScope_Input, 0).mSampleRate == Self.outputRate)
        #expect(TestSupport.format(output, kAudioUnitScope_Input, 0).mChannelsPerFrame == 2)
        return (g, output, iPodTime)
    }

    /// At rates 0.5, 1.5 and 2: 2 s of output play 2·rate s of the client's audio, within one of AUiPodTime's
    /// pulls (MaximumFramesPerSlice, 1156 frames at 44100 Hz: 578 client frames)
    /// and the converter's filter (64 client frames), and the tone keeps its 220 Hz
    /// pitch (within 1 cent), on both sides.
    @Test(arguments: [Float(0.5), 1.5, 2])
    func graphPlaysAtRateWithPitchKept(rate: Float) throws {
        let tone = Int16Tone()
        let (g, output, iPodTime) = try makeGraph(tone)
        defer { DisposeAUGraph(g) }
        // Listing 2.
        #expect(AudioUnitSetParameter(iPodTime, kTimePitchParam_Rate, kAudioUnitScope_Global, 0, rate, 0) == noErr)
        let format = OCAFormat.canonical(sampleRate: Self.outputRate, channels: 2)
        _ = try TestSupport.render(output, format: format, totalFrames: 8192, slices: [512])
        let before = tone.framesPulled
        let out = try TestSupport.render(output, format: format, totalFrames: 88200, slices: [512], startTime: 8192)
        let inputSeconds = Double(tone.framesPulled - before) / Self.clientRate
        let ratio = inputSeconds / 2
        let left = out.channels[0][...], right = out.channels[1][...]
        let f = ToneFit.frequency(left, near: 220, span: 2, sampleRate: Self.outputRate)
        let fRight = ToneFit.frequency(right, near: 220, span: 2, sampleRate: Self.outputRate)
        print("QA1717 graph rate \(rate): 2 s of output played \(inputSeconds) s of input (ratio \(ratio), \(Double(tone.framesPulled - before) - 2 * Double(rate) * Self.clientRate) client frames off); \(f) Hz (\(ToneFit.cents(f, 220)) cents), right \(fRight) Hz")
        let deviation = Double(tone.framesPulled - before) - 2 * Double(rate) * Self.clientRate
        #expect(abs(deviation) <= 578 + 64, "rate \(rate): ratio \(ratio), \(deviation) client frames off")
        #expect(abs(ToneFit.cents(f, 220)) < 1 && abs(ToneFit.cents(fRight, 220)) < 1, "rate \(rate): \(f) Hz, \(fRight) Hz")
        #expect(tone.timesContiguous)
        #expect(left.map(abs).max()! > 0.2)
    }
}
