import AudioToolbox
import Foundation
import Testing

@Suite struct AudioFormatTests {
    @Test func formatInfoCompletesLinearPCM() {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = 44100
        f.mFormatID = kAudioFormatLinearPCM
        f.mFormatFlags = kAudioFormatFlagIsSignedInteger
        f.mChannelsPerFrame = 2
        f.mBitsPerChannel = 16
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f) == noErr)
        #expect(f.mBytesPerFrame == 4 && f.mBytesPerPacket == 4 && f.mFramesPerPacket == 1)
        #expect(f.mFormatFlags & kAudioFormatFlagIsPacked != 0)
        // AAC (the AudioToolboxAAC product is linked into this binary): FormatInfo fills its fixed fields.
        var aac = AudioStreamBasicDescription()
        aac.mFormatID = kAudioFormatMPEG4AAC
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &aac) == noErr)
        #expect(aac.mFramesPerPacket == 1024 && aac.mBytesPerPacket == 0)
        var unknown = AudioStreamBasicDescription()
        unknown.mFormatID = 0x7A7A7A7A
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &unknown) == kAudioFormatUnknownFormatError)
    }

    @Test func nameVBRAndCodecs() {
        var f = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 24, isFloat: false, interleaved: true)
        let specSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var name: CFString? = nil
        var size = UInt32(MemoryLayout<CFString?>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatName, specSize, &f, &size, &name) == noErr)
        #expect(name as String? == "Linear PCM, 24-bit little-endian signed integer, 2 channels, 48000 Hz")
        var vbr: UInt32 = 9
        size = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, specSize, &f, &size, &vbr) == noErr && vbr == 0)
        // Linear PCM first, then every format a codec really converts (and nothing that does not).
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size) == noErr)
        var ids = [AudioFormatID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size, &ids) == noErr)
        #expect(ids.first == kAudioFormatLinearPCM && Set(ids).isSuperset(of: [kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4]))
        #expect(!ids.contains(kAudioFormatQDesign2) && !ids.contains(kAudioFormatMPEGLayer3))
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size) == noErr)
        ids = [AudioFormatID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size, &ids) == noErr)
        #expect(ids.first == kAudioFormatLinearPCM && Set(ids).isSuperset(of: [kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4]))
        var ima = AudioStreamBasicDescription(mSampleRate: 0, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &ima) == noErr)
        #expect(ima.mFramesPerPacket == 64 && ima.mBytesPerPacket == 68)
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_MPEG_5_1_A
        var channels: UInt32 = 0
        size = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout, UInt32(MemoryLayout<AudioChannelLayout>.size),
                                       &layout, &size, &channels) == noErr && channels == 6)
        // A property not implemented answers Apple's 'prop'; one that is, without its specifier, '!spc'.
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_PanningMatrix, 0, nil, &size) == kAudioFormatUnsupportedPropertyError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_ID3TagSize, 0, nil, &size) == kAudioFormatBadSpecifierSizeError)
        size = 4
        var shortSpecifier: UInt32 = 0
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, 4, &shortSpecifier, &size, &vbr) == kAudioFormatBadSpecifierSizeError)
    }
}

/// AUConverter in QA1717's position: Int16 interleaved 22050 Hz stereo from a render callback,
/// converted to the canonical Float32 non-interleaved 44100 Hz, inside a graph rendered by AUGenericOutput.
@Suite struct AUConverterTests {
    final class Source {
        var frame = 0
        let frequency = 441.0
        func value(_ n: Int) -> Double { 0.5 * sin(2 * Double.pi * frequency * Double(n) / 22050) }
    }

    static let int16Sine: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let s = Unmanaged<Source>.fromOpaque(refCon).takeUnretainedValue()
        let p = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Int16.self)
        for i in 0..<Int(frames) {
            let v = Int16((s.value(s.frame) * 32767).rounded())
            p[2 * i] = v
            p[2 * i + 1] = v
            s.frame += 1
        }
        return noErr
    }

    @Test func qa1717ClientFormatIntoTheCanonicalFormatInAGraph() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput
        var convDesc = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var output = AUNode(), converter = AUNode()
        #expect(AUGraphAddNode(g, &outDesc, &output) == noErr)
        #expect(AUGraphAddNode(g, &convDesc, &converter) == noErr)
        AUGraphOpen(g)
        var convUnit: AudioUnit?
        AUGraphNodeInfo(g, converter, nil, &convUnit)
        let client = OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        #expect(TestSupport.setFormat(convUnit!, kAudioUnitScope_Input, 0, client) == noErr)
        #expect(TestSupport.setFormat(convUnit!, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2)) == noErr)
        let source = Source()
        var cb = AURenderCallbackStruct(inputProc: Self.int16Sine, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        AUGraphSetNodeInputCallback(g, converter, 0, &cb)
        AUGraphConnectNodeInput(g, converter, 0, output, 0)
        #expect(AUGraphInitialize(g) == noErr)
        var head: AudioUnit?
        AUGraphNodeInfo(g, output, nil, &head)
        let total = 44100 / 2
        let out = try TestSupport.render(head!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: total,
                                         slices: [512, 1024, 100])
        // The same 441 Hz sine at twice the rate, delayed by nothing (the converter aligns its output).
        var worst = 0.0
        for k in 200..<(total - 200) {
            let want = 0.5 * sin(2 * Double.pi * 441 * Double(k) / 44100)
            worst = max(worst, abs(out.channels[0][k] - want), abs(out.channels[1][k] - want))
        }
        // Int16 quantisation of the source bounds the error (~1.5e-5); allow 1e-4.
        #expect(worst < 1e-4, "largest deviation \(worst)")
        // Half as many input frames were pulled as output frames rendered (plus the filter's look-ahead).
        #expect(abs(source.frame - total / 2) < 2048)
    }
}
