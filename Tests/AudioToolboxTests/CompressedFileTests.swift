import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// Compressed audio in files: µ-law, A-law and IMA4 in CAF, AIFC and WAVE through ExtAudioFile, checked
/// against ffmpeg both ways; variable-bit-rate packet tables in CAF through AudioFile, checked against
/// ffprobe's demuxer; seeking exact to the frame.
@Suite struct CompressedFileTests {
    static let floatStereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
    static let int16Stereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)

    /// A two-tone stereo test signal as interleaved Int16.
    static func signal(frames: Int) -> [Int16] {
        (0..<(2 * frames)).map { i -> Int16 in
            let t = Double(i / 2) / 44100
            let f: Double = i % 2 == 0 ? 440 : 660
            let x: Double = 12000 * sin(2 * Double.pi * f * t) + 3000 * sin(2 * Double.pi * 3100 * t)
            return Int16(x)
        }
    }

    static func compressed(_ id: AudioFormatID, channels: UInt32 = 2, rate: Double = 44100) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = rate
        f.mFormatID = id
        f.mChannelsPerFrame = channels
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f)
        return f
    }

    /// Writes `samples` (interleaved Int16 stereo) through ExtAudioFile into a file of `type` and `format`.
    static func write(_ samples: [Int16], to url: URL, type: AudioFileTypeID, format: AudioStreamBasicDescription) throws {
        // Several writes of odd sizes, as a recorder's buffers come.
        try ExtFileIO.write(samples, to: url, type: type, format: format, client: int16Stereo, slice: { _ in 1001 })
    }

    /// Reads a whole file through ExtAudioFile as interleaved Int16 stereo.
    static func read(_ url: URL) throws -> (samples: [Int16], length: Int64) {
        try ExtFileIO.read(url, client: int16Stereo, chunk: 777)
    }

    /// ffmpeg's decoding of a file to interleaved s16le stereo.
    static func ffmpegDecode(_ url: URL) throws -> [Int16] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, out) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", url.path, "-f", "s16le", "-ac", "2", raw.path])
        try #require(status == 0, "ffmpeg: \(out)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static func maxDifference(_ a: [Int16], _ b: [Int16]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// We write, ffmpeg reads: G.711 decodes to exactly our samples, IMA4 within 127 (ffmpeg's decoder
    /// keeps its running predictor where the header's 9 bits start ours; see IMA4Kernels). The frame
    /// count is the source's wherever the container can say so (CAF's packet table), else whole packets.
    @Test(arguments: [(kAudioFormatULaw, kAudioFileWAVEType, "wav"), (kAudioFormatALaw, kAudioFileWAVEType, "wav"),
                      (kAudioFormatULaw, kAudioFileAIFCType, "aifc"), (kAudioFormatALaw, kAudioFileCAFType, "caf"),
                      (kAudioFormatAppleIMA4, kAudioFileCAFType, "caf"), (kAudioFormatAppleIMA4, kAudioFileAIFCType, "aifc")])
    func ffmpegReadsWhatWeWrite(_ spec: (AudioFormatID, AudioFileTypeID, String)) throws {
        let url = FileSupport.tempURL(spec.2)
        defer { try? FileManager.default.removeItem(at: url) }
        let frames = 64 * 150 + 17
        let source = Self.signal(frames: frames)
        try Self.write(source, to: url, type: spec.1, format: Self.compressed(spec.0))
        let (ours, length) = try Self.read(url)
        let theirs = try Self.ffmpegDecode(url)
        let isIMA = spec.0 == kAudioFormatAppleIMA4
        let expectedFrames = isIMA && spec.1 != kAudioFileCAFType ? (frames + 63) / 64 * 64 : frames
        #expect(length == Int64(expectedFrames))
        #expect(ours.count == 2 * expectedFrames)
        #expect(theirs.count == ours.count || (isIMA && spec.1 == kAudioFileCAFType && theirs.count >= ours.count),
                "ffmpeg \(theirs.count / 2) frames, ours \(ours.count / 2)")
        let worst = Self.maxDifference(ours, theirs)
        #expect(worst <= (isIMA ? 127 : 0), "largest difference from ffmpeg: \(worst)")
        // And the codec's own error against the source.
        var signal = 0.0, noise = 0.0
        for i in 0..<min(ours.count, source.count) { signal += pow(Double(source[i]), 2); noise += pow(Double(ours[i]) - Double(source[i]), 2) }
        #expect(10 * log10(signal / noise) > (isIMA ? 25 : 30))
    }

    /// ffmpeg writes, we read: the same decoded samples as ffmpeg's (IMA4 within 127, as above).
    @Test(arguments: [("pcm_mulaw", "wav"), ("pcm_alaw", "wav"), ("pcm_mulaw", "caf"), ("adpcm_ima_qt", "aiff"), ("adpcm_ima_qt", "caf")])
    func weReadWhatFFmpegWrites(_ spec: (String, String)) throws {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let raw = FileSupport.tempURL("raw"), url = FileSupport.tempURL(spec.1)
        defer { for u in [raw, url] { try? FileManager.default.removeItem(at: u) } }
        try Data(Self.signal(frames: 9000).withUnsafeBytes { Array($0) }).write(to: raw)
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "s16le", "-ar", "44100", "-ac", "2", "-i", raw.path,
                                                          "-c:a", spec.0, url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        let (ours, _) = try Self.read(url)
        let theirs = try Self.ffmpegDecode(url)
        #expect(ours.count == theirs.count, "ours \(ours.count / 2) frames, ffmpeg \(theirs.count / 2)")
        #expect(Self.maxDifference(ours, theirs) <= (spec.0 == "adpcm_ima_qt" ? 127 : 0))
    }

    /// ExtAudioFileSeek to 300 random frames gives the samples a decode from the start gives there.
    @Test(arguments: [(kAudioFormatAppleIMA4, kAudioFileCAFType, "caf"), (kAudioFormatULaw, kAudioFileWAVEType, "wav"),
                      (kAudioFormatAppleIMA4, kAudioFileAIFCType, "aifc")])
    func seeksLandOnTheLinearDecodesSamples(_ spec: (AudioFormatID, AudioFileTypeID, String)) throws {
        let url = FileSupport.tempURL(spec.2)
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.write(Self.signal(frames: 20000), to: url, type: spec.1, format: Self.compressed(spec.0))
        let (linear, _) = try Self.read(url)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = Self.int16Stereo
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var rng = SystemRandomNumberGenerator()
        var mismatches = 0
        for _ in 0..<300 {
            let frame = Int.random(in: 0..<(linear.count / 2 - 100), using: &rng)
            try #require(ExtAudioFileSeek(x!, Int64(frame)) == noErr)
            var tell: Int64 = -1
            ExtAudioFileTell(x!, &tell)
            #expect(tell == Int64(frame))
            var buffer = [Int16](repeating: 0, count: 200)
            var frames: UInt32 = 100
            buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 400, mData: raw.baseAddress))
                _ = ExtAudioFileRead(x!, &frames, &list)
            }
            if frames != 100 || Array(buffer) != Array(linear[(2 * frame)..<(2 * frame + 200)]) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of 300 seeks read other samples than a linear decode")
    }

    /// Variable-size packets in CAF: written with descriptions through AudioFile, read back with the same
    /// sizes, offsets and packet table, and ffprobe's CAF demuxer sees the same packets.
    @Test func variablePacketsRoundTripThroughTheCAFPacketTable() throws {
        let url = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                                 mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, .eraseFile, &file) == noErr)
        // The cookie goes in before any audio: an esds body (AAC-LC, 44.1 kHz, stereo), which ffprobe checks.
        var cookie: [UInt8] = [0, 0, 0, 0, 0x03, 0x19, 0, 0, 0, 0x04, 0x11, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                               0x05, 0x02, 0x12, 0x10, 0x06, 0x01, 0x02]
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyMagicCookieData, UInt32(cookie.count), &cookie) == noErr)
        let sizes = (0..<500).map { 1 + ($0 * 7919) % 700 }
        var start: Int64 = 0
        var written: [UInt8] = []
        for chunk in stride(from: 0, to: sizes.count, by: 37) {
            let these = Array(sizes[chunk..<min(chunk + 37, sizes.count)])
            var bytes: [UInt8] = []
            var descriptions: [AudioStreamPacketDescription] = []
            for s in these {
                descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(bytes.count), mVariableFramesInPacket: 0, mDataByteSize: UInt32(s)))
                bytes += (0..<s).map { UInt8(truncatingIfNeeded: $0 &+ s) }
            }
            var n = UInt32(these.count)
            #expect(AudioFileWritePackets(file!, false, UInt32(bytes.count), descriptions, start, &n, bytes) == noErr)
            start += Int64(n)
            written += bytes
        }
        var table = AudioFilePacketTableInfo(mNumberValidFrames: 500 * 1024 - 2112 - 100, mPrimingFrames: 2112, mRemainderFrames: 100)
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyPacketTableInfo, UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), &table) == noErr)
        #expect(AudioFileClose(file!) == noErr)

        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var count: UInt64 = 0
        var size: UInt32 = 8
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &count) == noErr && count == 500)
        var maxPacket: UInt32 = 0
        size = 4
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyMaximumPacketSize, &size, &maxPacket) == noErr && maxPacket == UInt32(sizes.max()!))
        var readTable = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyPacketTableInfo, &size, &readTable) == noErr)
        #expect(readTable.mPrimingFrames == 2112 && readTable.mRemainderFrames == 100 && readTable.mNumberValidFrames == table.mNumberValidFrames)
        var readCookie = [UInt8](repeating: 0, count: 64)
        size = 64
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyMagicCookieData, &size, &readCookie) == noErr && Array(readCookie.prefix(Int(size))) == cookie)
        // Read back in uneven runs, limited by the buffer's bytes.
        var got: [UInt8] = []
        var packet: Int64 = 0
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 50)
        var buffer = [UInt8](repeating: 0, count: 4000)
        while true {
            var bytes = UInt32(buffer.count)
            var n: UInt32 = 50
            #expect(AudioFileReadPacketData(file!, false, &bytes, &descriptions, packet, &n, &buffer) == noErr)
            if n == 0 { break }
            for i in 0..<Int(n) {
                #expect(Int(descriptions[i].mDataByteSize) == sizes[Int(packet) + i])
                got += buffer[Int(descriptions[i].mStartOffset)..<Int(descriptions[i].mStartOffset) + Int(descriptions[i].mDataByteSize)]
            }
            packet += Int64(n)
        }
        #expect(packet == 500 && got == written)
        // Frame <-> packet and byte <-> packet translations.
        var t = AudioFramePacketTranslation(mFrame: 5000, mPacket: 0, mFrameOffsetInPacket: 0)
        size = UInt32(MemoryLayout<AudioFramePacketTranslation>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyFrameToPacket, &size, &t) == noErr && t.mPacket == 4 && t.mFrameOffsetInPacket == 904)
        var b = AudioBytePacketTranslation(mByte: Int64(sizes[0] + sizes[1] + 3), mPacket: 0, mByteOffsetInPacket: 0, mFlags: [])
        size = UInt32(MemoryLayout<AudioBytePacketTranslation>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyByteToPacket, &size, &b) == noErr && b.mPacket == 2 && b.mByteOffsetInPacket == 3)

        // ffprobe's demuxer reads the same packet sizes from our table.
        let ffprobe = try #require(["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                   "ffprobe is missing: run scripts/setup.sh")
        let (status, out) = try FileSupport.run(ffprobe, ["-v", "quiet", "-show_entries", "packet=size", "-of", "csv=p=0", url.path])
        try #require(status == 0, "ffprobe: \(out)")
        let probed = out.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(probed == sizes)
    }
}
