import CoreAudioTypes
import Testing

@Suite struct CoreAudioTypesTests {
    @Test func structLayoutsMatchApple() {
        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
        #expect(MemoryLayout<AudioBuffer>.size == 16)
        #expect(MemoryLayout<AudioBufferList>.size == 24)
        #expect(MemoryLayout<AudioTimeStamp>.size == 64)
        #expect(MemoryLayout<SMPTETime>.size == 24)
        #expect(MemoryLayout<AudioStreamPacketDescription>.size == 16)
        #expect(MemoryLayout<AudioValueRange>.size == 16)
        #expect(MemoryLayout<AudioChannelDescription>.size == 20)
        #expect(MemoryLayout<AudioChannelLayout>.size == 32)
        #expect(MemoryLayout<AudioClassDescription>.size == 12)
    }

    @Test func formatConstants() {
        #expect(kAudioFormatLinearPCM == 0x6C70636D)
        #expect(kAudioFormatMPEG4AAC == 0x61616320)
        #expect(kAudioFormatFLAC == 0x666C6163)
        #expect(kAudioFormatFlagIsNonInterleaved == 32)
        #expect(kLinearPCMFormatFlagsSampleFractionMask == 0x1F80)
        #expect(kAudioFormatFlagsNativeFloatPacked == 9)
        #expect(kAudioFormatFlagsCanonical == 9)
        #expect(kAudioFormatFlagsAudioUnitCanonical == 0x29)
        #expect(kAudioChannelLayoutTag_Stereo == (101 << 16) | 2)
        #expect(kAudioChannelLabel_Discrete_3 == 0x10003)
        #expect(kAudioStreamAnyRate == 0)
        #expect(kAudio_ParamError == -50)
        #expect(noErr == 0)
    }

    @Test func optionSetNamesMatchApple() {
        let flags: AudioTimeStampFlags = [.sampleTimeValid, .hostTimeValid]
        #expect(flags == .sampleHostTimeValid)
        #expect(flags.rawValue == 3)
        #expect(AudioChannelBitmap.bit_Right.rawValue == 2)
        #expect(SMPTETimeType.type2997Drop.rawValue == 5)
        #expect(SMPTETimeFlags.running.rawValue == 2)
    }

    @Test func memberwiseAndZeroInitializers() {
        let zero = AudioStreamBasicDescription()
        #expect(zero.mSampleRate == 0 && zero.mFormatID == 0 && zero.mReserved == 0)
        var ts = AudioTimeStamp()
        ts.mSampleTime = 512
        ts.mFlags = .sampleTimeValid
        #expect(ts.mSMPTETime.mType == .type24)
        let buffer = AudioBuffer(mNumberChannels: 2, mDataByteSize: 8, mData: nil)
        #expect(buffer.mData == nil)
    }

    @Test func audioBufferListPointer() {
        let abl = AudioBufferList.allocate(maximumBuffers: 3)
        defer { free(abl.unsafeMutablePointer) }
        #expect(abl.count == 3)
        #expect(AudioBufferList.sizeInBytes(maximumBuffers: 3) == 24 + 2 * 16)
        var storage = [Float32](repeating: 0, count: 12)
        storage.withUnsafeMutableBufferPointer { p in
            for i in 0..<3 {
                abl[i] = AudioBuffer(UnsafeMutableBufferPointer(rebasing: p[(i * 4)..<(i * 4 + 4)]), numberOfChannels: 1)
            }
            for (i, buffer) in abl.enumerated() {
                let samples = UnsafeMutableBufferPointer<Float32>(buffer)
                #expect(samples.count == 4)
                for n in 0..<4 { samples[n] = Float32(i * 10 + n) }
            }
        }
        #expect(storage == [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23])
        #expect(abl.unsafePointer.pointee.mNumberBuffers == 3)
        #expect(UnsafeMutableAudioBufferListPointer(nil) == nil)
        abl.count = 1
        #expect(abl.count == 1 && Array(abl).count == 1)
    }

    @Test func darwinBoolean() {
        let t: DarwinBoolean = true
        var f = DarwinBoolean(false)
        #expect(t.boolValue && !f.boolValue)
        f = true
        #expect(f == t)
        #expect(MemoryLayout<DarwinBoolean>.size == 1)
    }

    @Test func fourCharCodesAndFormatDescriptions() {
        #expect(OCAFormat.fourCharCode("lpcm") == kAudioFormatLinearPCM)
        #expect(OCAFormat.fourCharCode("def") == 0x64656620)  // padded like 'def '
        #expect(OCAFormat.string(fromFourCharCode: kAudioFormatLinearPCM) == "'lpcm'")
        #expect(OCAFormat.string(fromFourCharCode: kAudioFormatDVIIntelIMA) == "0x6D730011")
        #expect(OCAFormat.describe(OCAFormat.canonical(sampleRate: 44100, channels: 2))
                == " 2 ch,  44100 Hz, 'lpcm' (0x00000029) 32-bit little-endian float, deinterleaved")
        #expect(OCAFormat.describe(OCAFormat.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true))
                == " 1 ch,  48000 Hz, 'lpcm' (0x0000000C) 16-bit little-endian signed integer")
        #expect(OCAFormat.describe(OCAFormat.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 24, isFloat: false,
                                                       interleaved: true, bigEndian: true))
                == " 2 ch,   8000 Hz, 'lpcm' (0x0000000E) 24-bit big-endian signed integer")
    }

    @Test func cfLite() {
        let s: CFString = "hello" as CFString
        #expect(s as String == "hello")
        let url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, "/tmp/x.caf" as CFString, .cfurlposixPathStyle, false)
        #expect((url as URL?)?.path == "/tmp/x.caf")
        #expect(CFSwapInt32BigToHost(0x0102_0304) == 0x0403_0201)
        #expect(CFSwapInt16HostToBig(0x0102) == 0x0201)
        #expect(CFAbsoluteTimeGetCurrent() > 7e8)
    }

    @Test func optionalPointerMemset() {
        var x: [UInt8] = [1, 2, 3]
        x.withUnsafeMutableBytes { raw in
            let optional: UnsafeMutableRawPointer? = raw.baseAddress
            memset(optional, 0, 3)
        }
        #expect(x == [0, 0, 0])
        #expect(memset(nil, 0, 3) == nil)
    }
}
