import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// The AMR narrowband encoder ('samr', opencore-amrnb) and AMR in 3GP/3GPP2 written here, against independent
/// tools: scripts/amr-encode.py (opencore's encoder driven through ctypes, apart from our converter), ffmpeg's own
/// amrnb decoder and ffprobe.
@Suite struct AMREncoderTests {
    /// Speech from espeak-ng mixed with a 440 Hz tone at half scale, 8 kHz mono 16-bit (about four seconds).
    static func makeInput() throws -> URL {
        let espeak = try #require(["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "espeak-ng is missing: run scripts/setup.sh")
        let sox = try #require(FileSupport.sox, "sox is missing: run scripts/setup.sh")
        let speech = FileSupport.tempURL("wav"), band = FileSupport.tempURL("wav"), tone = FileSupport.tempURL("wav"), mix = FileSupport.tempURL("wav")
        defer { for u in [speech, band, tone] { try? FileManager.default.removeItem(at: u) } }
        var (status, text) = try FileSupport.run(espeak, ["-w", speech.path, "The quick brown fox jumps over the lazy dog. Adaptive multi rate."])
        try #require(status == 0, "espeak-ng: \(text)")
        (status, text) = try FileSupport.run(sox, [speech.path, "-r", "8000", "-c", "1", "-b", "16", band.path])
        try #require(status == 0, "sox: \(text)")
        (status, text) = try FileSupport.run(sox, ["-n", "-r", "8000", "-c", "1", "-b", "16", tone.path, "synth", "3.0", "sine", "440", "vol", "0.5"])
        try #require(status == 0, "sox: \(text)")
        (status, text) = try FileSupport.run(sox, ["-m", band.path, tone.path, mix.path])
        try #require(status == 0, "sox: \(text)")
        return mix
    }

    static func int16(_ rate: Double) -> AudioStreamBasicDescription {
        OCAFormat.linearPCM(sampleRate: rate, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
    }

    /// The whole file through ExtAudioFile as 16-bit mono at `rate`.
    static func readInt16(_ url: URL, rate: Double = 8000) throws -> [Int16] {
        try ExtFileIO.read(url, client: int16(rate), chunk: 4096).samples
    }

    /// 8 kHz mono samples encoded to AMR-NB by ExtAudioFile into a file of `type`.
    static func encode(_ samples: [Int16], to url: URL, type: AudioFileTypeID, framesPerPacket: UInt32 = 0) throws {
        var amr = AudioStreamBasicDescription()
        amr.mFormatID = kAudioFormatAMR
        amr.mSampleRate = 8000
        amr.mChannelsPerFrame = 1
        amr.mFramesPerPacket = framesPerPacket
        try ExtFileIO.write(samples, to: url, type: type, format: amr, client: int16(8000), slice: { _ in 1000 })
    }

    /// ffmpeg's own amrnb decoder (not opencore) as 16-bit samples.
    static func ffmpegDecode(_ url: URL) throws -> [Int16] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-c:a", "amrnb", "-i", url.path, "-f", "s16le", raw.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Our encoder through ExtAudioFile writes the same .amr file, byte for byte, as opencore's encoder driven
    /// directly by scripts/amr-encode.py (12.2 kb/s, DTX off, the short last frame padded with silence): the
    /// converter adds nothing and loses nothing. ffmpeg's decoder gives 160 samples for each frame, and its output
    /// lags the input by the codec's 5 ms lookahead (measured by cross-correlation: 39 samples), which the encoder
    /// does not declare as priming.
    @Test func encodesLikeOpencoreAndDecodesInFFmpeg() throws {
        let input = try Self.makeInput()
        let ours = FileSupport.tempURL("amr"), reference = FileSupport.tempURL("amr")
        defer { for u in [input, ours, reference] { try? FileManager.default.removeItem(at: u) } }
        let samples = try Self.readInt16(input)
        try #require(samples.count > 30000)
        try Self.encode(samples, to: ours, type: kAudioFileAMRType)
        let (status, text) = try FileSupport.run("/usr/bin/python3", [AMRFileTests.scripts.appendingPathComponent("amr-encode.py").path, input.path, reference.path])
        try #require(status == 0, "amr-encode.py: \(text)")
        let ourBytes = try Data(contentsOf: ours), referenceBytes = try Data(contentsOf: reference)
        let frames = (samples.count + 159) / 160
        #expect(referenceBytes.count == 6 + 32 * frames)
        #expect(ourBytes == referenceBytes, "ours \(ourBytes.count) bytes, opencore's \(referenceBytes.count)")

        let decoded = try Self.ffmpegDecode(ours)
        #expect(decoded.count == frames * 160)
        // The lag that best lines the decode up with the input, over the first 30,000 samples.
        func correlation(_ lag: Int) -> Double {
            (0..<30000).reduce(0.0) { $0 + Double(samples[$1]) * Double(decoded[$1 + lag]) }
        }
        let lag = (0...100).max { correlation($0) < correlation($1) }!
        print("AMR-NB encoder: ffmpeg's decode lags the input by \(lag) samples")
        #expect((35...45).contains(lag))
    }

    /// Every mode written to .amr: each frame is that mode's size (RFC 4867's table, written out here), its ToC
    /// byte names the mode, and the file is the magic plus one frame per 160 input samples.
    @Test(arguments: 0..<8)
    func everyModeHasItsFrameSize(_ mode: Int) throws {
        let rates: [UInt32] = [4750, 5150, 5900, 6700, 7400, 7950, 10200, 12200]
        let sizes = [13, 14, 16, 18, 20, 21, 27, 32]
        let samples = (0..<8000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 8000)) }
        var amr = AudioStreamBasicDescription()
        amr.mFormatID = kAudioFormatAMR
        amr.mSampleRate = 8000
        amr.mChannelsPerFrame = 1
        let url = FileSupport.tempURL("amr")
        defer { try? FileManager.default.removeItem(at: url) }
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileAMRType, &amr, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = Self.int16(8000)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var converter: AudioConverterRef?
        var size = UInt32(MemoryLayout<AudioConverterRef?>.size)
        try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr)
        var rate = rates[mode]
        #expect(AudioConverterSetProperty(converter!, kAudioConverterEncodeBitRate, 4, &rate) == noErr)
        var config: CFArray? = nil
        _ = withUnsafeBytes(of: &config) { ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ConverterConfig, UInt32($0.count), $0.baseAddress!) }
        try ExtFileIO.write(x!, samples, channels: 1, slice: { _ in .max })
        ExtAudioFileDispose(x!)
        let bytes = Array(try Data(contentsOf: url))
        #expect(bytes.count == 6 + 50 * sizes[mode])
        var offset = 6, count = 0
        while offset < bytes.count {
            #expect(Int(bytes[offset] >> 3) & 15 == mode)
            offset += sizes[mode]
            count += 1
        }
        #expect(count == 50)
        #expect(try Self.ffmpegDecode(url).count == 8000)
    }

    /// The same encoding in 3GP and 3GPP2: ffprobe reads amr_nb, 8 kHz mono, with the input's duration (the edit
    /// list trims the last frame's padding); ffmpeg decodes it to the .amr file's samples; our AudioFile reads the
    /// type, one 160-frame packet a frame and the packet table; ExtAudioFile reads the input's length and the
    /// .amr file's samples.
    @Test(arguments: [kAudioFile3GPType, kAudioFile3GP2Type])
    func threeGPWrittenAndReadBack(_ type: AudioFileTypeID) throws {
        let input = try Self.makeInput()
        let amr = FileSupport.tempURL("amr"), gp = FileSupport.tempURL(type == kAudioFile3GPType ? "3gp" : "3g2")
        defer { for u in [input, amr, gp] { try? FileManager.default.removeItem(at: u) } }
        let samples = try Self.readInt16(input)
        try Self.encode(samples, to: amr, type: kAudioFileAMRType)
        try Self.encode(samples, to: gp, type: type)
        let frames = (samples.count + 159) / 160

        let head = Array(try Data(contentsOf: gp).prefix(12))
        #expect(head[4..<12] == ArraySlice(Array((type == kAudioFile3GPType ? "ftyp3gp4" : "ftyp3g2a").utf8)))
        let ffprobe = try #require(["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let (status, text) = try FileSupport.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,duration", "-of", "default=nw=1", gp.path])
        try #require(status == 0, "ffprobe: \(text)")
        #expect(text.contains("codec_name=amr_nb") && text.contains("sample_rate=8000") && text.contains("channels=1"), "\(text)")
        let duration = text.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) }
        #expect(abs((duration ?? 0) - Double(samples.count) / 8000) < 0.0002, "\(text)")
        let fromAMR = try Self.ffmpegDecode(amr), from3GP = try Self.ffmpegDecode(gp)
        #expect(from3GP.count >= samples.count && from3GP.prefix(samples.count) == fromAMR.prefix(samples.count))

        var file: AudioFileID?
        try #require(AudioFileOpenURL(gp as CFURL, .readPermission, 0, &file) == noErr)
        let (_, fileType) = AMRFileTests.property(file!, kAudioFilePropertyFileFormat, AudioFileTypeID(0))
        let (_, format) = AMRFileTests.property(file!, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        let (_, packets) = AMRFileTests.property(file!, kAudioFilePropertyAudioDataPacketCount, UInt64(0))
        let (tableStatus, table) = AMRFileTests.property(file!, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        AudioFileClose(file!)
        #expect(fileType == type)
        #expect(format.mFormatID == kAudioFormatAMR && format.mSampleRate == 8000 && format.mChannelsPerFrame == 1)
        #expect(packets == UInt64(frames))
        #expect(tableStatus == noErr && table.mNumberValidFrames == Int64(samples.count) && table.mPrimingFrames == 0)
        #expect(table.mRemainderFrames == Int32(frames * 160 - samples.count))
        let ours3GP = try Self.readInt16(gp), oursAMR = try Self.readInt16(amr)
        #expect(ours3GP.count == samples.count)
        #expect(ours3GP == Array(oursAMR.prefix(samples.count)))
    }

    /// AMR-WB has no encoder here, but its packets copy into 3GP: a wideband .amr (libvo-amrwbenc, through
    /// amr-encode.py) read packet by packet and written to a '3gpp' file with AudioFileWritePackets decodes in
    /// ffmpeg to the .amr file's samples, and reads back with the same packets.
    @Test func widebandPacketsCopyInto3GP() throws {
        let amr = try AMRFileTests.makeAMR(wideband: true)
        let gp = FileSupport.tempURL("3gp")
        defer { for u in [amr, gp] { try? FileManager.default.removeItem(at: u) } }
        let source = try TestSupport.packetsAudioFileReads(amr, maxPacketBytes: 64)
        var format = AudioStreamBasicDescription()
        format.mFormatID = kAudioFormatAMR_WB
        format.mSampleRate = 16000
        format.mChannelsPerFrame = 1
        format.mFramesPerPacket = 320
        var out: AudioFileID?
        try #require(AudioFileCreateWithURL(gp as CFURL, kAudioFile3GPType, &format, .eraseFile, &out) == noErr)
        for (i, packet) in source.enumerated() {
            var description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
            var n: UInt32 = 1
            let status = packet.withUnsafeBytes { AudioFileWritePackets(out!, false, UInt32(packet.count), &description, Int64(i), &n, $0.baseAddress!) }
            try #require(status == noErr && n == 1)
        }
        try #require(AudioFileClose(out!) == noErr)
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg)
        func decode(_ url: URL) throws -> Data {
            let raw = FileSupport.tempURL("raw")
            defer { try? FileManager.default.removeItem(at: raw) }
            let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-c:a", "amrwb", "-i", url.path, "-f", "s16le", raw.path])
            try #require(status == 0, "ffmpeg: \(text)")
            return try Data(contentsOf: raw)
        }
        let a = try decode(amr), b = try decode(gp)
        #expect(a.count == source.count * 640 && a == b)
        #expect(try TestSupport.packetsAudioFileReads(gp, maxPacketBytes: 64) == source)
    }

    /// Ten frames a packet (afconvert's `-d samr#1600`): every packet is ten 12.2 kb/s frames (320 bytes, the last
    /// padded with silent frames), the 'damr' box says 10 frames per sample, and our reader decodes the file to the
    /// single-frame .amr file's samples. (ffmpeg's demuxer does not split such samples and its decoder takes the
    /// first frame of each, so ffmpeg is no reference here.)
    @Test func tenFramesAPacketIn3GP() throws {
        let input = try Self.makeInput()
        let amr = FileSupport.tempURL("amr"), gp = FileSupport.tempURL("3gp")
        defer { for u in [input, amr, gp] { try? FileManager.default.removeItem(at: u) } }
        let samples = try Self.readInt16(input)
        try Self.encode(samples, to: amr, type: kAudioFileAMRType)
        try Self.encode(samples, to: gp, type: kAudioFile3GPType, framesPerPacket: 1600)
        let packets = try TestSupport.packetsAudioFileReads(gp, maxPacketBytes: 320)
        #expect(packets.count == (samples.count + 1599) / 1600)
        #expect(packets.allSatisfy { $0.count == 320 })
        let bytes = Array(try Data(contentsOf: gp))
        let damr = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == ArraySlice(Array("damr".utf8)) })
        #expect(bytes[damr + 12] == 10)
        #expect(try Self.readInt16(gp) == Array(try Self.readInt16(amr).prefix(samples.count)))
    }

    /// The converter's encoder settings: 12.2 kb/s unless told otherwise (no Apple document gives its default; the
    /// codec's highest mode is opencore's and ffmpeg's too), a rate between two modes takes the lower one, below
    /// 4.75 kb/s the lowest, 0 the default again; the control mode is constant, the only one it takes; no priming.
    @Test func bitRateSettings() throws {
        var pcm = Self.int16(8000)
        var amr = AudioStreamBasicDescription()
        amr.mFormatID = kAudioFormatAMR
        amr.mSampleRate = 8000
        amr.mChannelsPerFrame = 1
        var c: AudioConverterRef?
        try #require(AudioConverterNew(&pcm, &amr, &c) == noErr)
        defer { AudioConverterDispose(c!) }
        func get<T>(_ id: AudioConverterPropertyID, _ initial: T) -> T {
            var v = initial
            var size = UInt32(MemoryLayout<T>.size)
            _ = withUnsafeMutableBytes(of: &v) { AudioConverterGetProperty(c!, id, &size, $0.baseAddress!) }
            return v
        }
        #expect(get(kAudioConverterEncodeBitRate, UInt32(0)) == 12200)
        for (asked, used) in [(8000, 7950), (10199, 7950), (10200, 10200), (1000, 4750), (64000, 12200), (0, 12200)] as [(UInt32, UInt32)] {
            var v = asked
            #expect(AudioConverterSetProperty(c!, kAudioConverterEncodeBitRate, 4, &v) == noErr)
            #expect(get(kAudioConverterEncodeBitRate, UInt32(0)) == used, "asked \(asked)")
        }
        #expect(get(kAudioCodecPropertyBitRateControlMode, UInt32(99)) == kAudioCodecBitRateControlMode_Constant)
        var mode = kAudioCodecBitRateControlMode_Constant
        #expect(AudioConverterSetProperty(c!, kAudioCodecPropertyBitRateControlMode, 4, &mode) == noErr)
        mode = kAudioCodecBitRateControlMode_Variable
        #expect(AudioConverterSetProperty(c!, kAudioCodecPropertyBitRateControlMode, 4, &mode) == kAudio_ParamError)
        #expect(get(kAudioCodecPropertyBitRateControlMode, UInt32(99)) == kAudioCodecBitRateControlMode_Constant)
        let prime = get(kAudioConverterPrimeInfo, AudioConverterPrimeInfo(leadingFrames: 9, trailingFrames: 9))
        #expect(prime.leadingFrames == 0 && prime.trailingFrames == 0)
        let out = get(kAudioConverterCurrentOutputStreamDescription, AudioStreamBasicDescription())
        #expect(out.mSampleRate == 8000 && out.mChannelsPerFrame == 1 && out.mFramesPerPacket == 160 && out.mBytesPerPacket == 0)
    }

    /// 200 s of AMR outgrow the 'moov' reserve (10,000 packets: 40 KB of sample sizes), so the 'moov' follows
    /// the data; AudioFileOptimize moves it in front and the file decodes in ffmpeg exactly as before.
    @Test func longThreeGPOptimizes() throws {
        let url = FileSupport.tempURL("3gp")
        defer { try? FileManager.default.removeItem(at: url) }
        let samples = (0..<(200 * 8000)).map { Int16(6000 * sin(2 * Double.pi * 300 * Double($0) / 8000)) }
        try Self.encode(samples, to: url, type: kAudioFile3GPType)
        #expect(try MP4WriteTests.topLevelBoxes(url) == ["ftyp", "free", "mdat", "moov"])
        let before = try Self.ffmpegDecode(url)
        #expect(before.count >= samples.count)
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &file) == noErr)
        #expect(AudioFileOptimize(file!) == noErr)
        #expect(AudioFileClose(file!) == noErr)
        #expect(try MP4WriteTests.topLevelBoxes(url) == ["ftyp", "moov", "free", "mdat"])
        #expect(try Self.ffmpegDecode(url) == before)
        let (_, packets) = try {
            var f: AudioFileID?
            try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &f) == noErr)
            defer { AudioFileClose(f!) }
            return AMRFileTests.property(f!, kAudioFilePropertyAudioDataPacketCount, UInt64(0))
        }()
        #expect(packets == 10000)
    }
}
