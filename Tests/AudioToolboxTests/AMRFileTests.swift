import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// AMR narrowband and wideband as AudioFile, AudioFileStream and ExtAudioFile see them, in raw .amr files and in
/// 3GP: the input is speech from espeak-ng, encoded by scripts/amr-encode.py (opencore-amrnb's encoder, libvo-amrwbenc's);
/// ffmpeg's own AMR decoders (not opencore) are the reference for the decoded samples.
@Suite struct AMRFileTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts")

    static let shortText = "Adaptive multi rate speech, narrow and wide. The quick brown fox jumps over the lazy dog."
    static let longText = """
        Adaptive multi rate speech coding was standardised for mobile telephony. The narrowband codec samples \
        at eight kilohertz and sends one frame every twenty milliseconds; the wideband codec samples at sixteen \
        kilohertz and keeps the higher consonants that make speech easy to follow. Each frame carries linear \
        prediction coefficients, pitch lags and gains, and an algebraic codebook. The decoder keeps predictors \
        and filter memories from frame to frame, so that a frame decoded alone sounds different from the same \
        frame decoded after its neighbours. The quick brown fox jumps over the lazy dog, twice, and then once more \
        for good measure, while the sphinx of black quartz judges my vow.
        """

    /// An .amr file of speech (about three seconds, or `seconds` long when given, trimmed or padded from a longer
    /// text of 40 s, or that text said over and over when `repeated`): narrowband at 12.2 kb/s or wideband at 23.85 kb/s.
    static func makeAMR(wideband: Bool, mode: Int? = nil, seconds: Int? = nil, repeated: Bool = false) throws -> URL {
        let espeak = try #require(["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "espeak-ng is missing: run scripts/setup.sh")
        let sox = try #require(FileSupport.sox, "sox is missing: run scripts/setup.sh")
        let speech = FileSupport.tempURL("wav"), band = FileSupport.tempURL("wav"), amr = FileSupport.tempURL("amr")
        defer { try? FileManager.default.removeItem(at: speech); try? FileManager.default.removeItem(at: band) }
        var (status, text) = try FileSupport.run(espeak, ["-w", speech.path, seconds == nil ? shortText : longText])
        try #require(status == 0, "espeak-ng: \(text)")
        let length = seconds.map { (repeated ? ["repeat", "\($0 / 30)"] : ["pad", "0", "\($0)"]) + ["trim", "0", "\($0)"] } ?? []
        (status, text) = try FileSupport.run(sox, [speech.path, "-r", wideband ? "16000" : "8000", "-c", "1", "-b", "16", band.path] + length)
        try #require(status == 0, "sox: \(text)")
        var args = [scripts.appendingPathComponent("amr-encode.py").path, band.path, amr.path] + (wideband ? ["--wb"] : [])
        if let mode { args += ["--mode", "\(mode)"] }
        (status, text) = try FileSupport.run("/usr/bin/python3", args)
        try #require(status == 0, "amr-encode.py: \(text)")
        return amr
    }

    /// The same frames in a 3GP file, muxed by ffmpeg without re-encoding.
    static func make3GP(from amr: URL) throws -> URL {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let url = FileSupport.tempURL("3gp")
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", amr.path, "-c", "copy", url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return url
    }

    static func client(_ rate: Double) -> AudioStreamBasicDescription {
        OCAFormat.linearPCM(sampleRate: rate, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
    }

    /// The whole file through ExtAudioFile as mono Float32 at the band's rate, and the length it reports.
    static func readFloats(_ url: URL, rate: Double) throws -> ([Float], Int64) {
        try ExtFileIO.read(url, client: client(rate), chunk: 1000)
    }

    /// ffmpeg's decode (its native amrnb/amrwb decoders) as Float32 at the band's rate.
    static func ffmpegFloats(_ url: URL, wideband: Bool) throws -> [Float] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg)
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-c:a", wideband ? "amrwb" : "amrnb", "-i", url.path,
                                                          "-f", "f32le", raw.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func snr(_ reference: [Float], _ test: [Float]) -> Double {
        var s = 0.0, n = 0.0
        for i in 0..<min(reference.count, test.count) { s += Double(reference[i] * reference[i]); n += pow(Double(test[i] - reference[i]), 2) }
        return 10 * log10(s / max(n, 1e-30))
    }

    static func property<T>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> (OSStatus, T) {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        let status = AudioFileGetProperty(file, id, &size, &value)
        return (status, value)
    }

    /// The .amr file as AudioFile gives it: type 'amrf', the band's description (Apple's: mono, 8 or 16 kHz,
    /// 160 or 320 frames a variable-size packet), one packet per frame of the file, counted independently here
    /// from the ToC bytes; decoded, every frame gives 20 ms, as ffmpeg's decoder does, and the samples agree with
    /// ffmpeg's float decoder (a different implementation from the fixed-point reference opencore follows).
    @Test(arguments: [false, true])
    func amrFileDecodesLikeFFmpeg(_ wideband: Bool) throws {
        let url = try Self.makeAMR(wideband: wideband)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Array(try Data(contentsOf: url))
        // Frames by the ToC bytes (RFC 4867's table, written out here apart from the code under test).
        let sizes = wideband ? [18, 24, 33, 37, 41, 47, 51, 59, 61, 6, 1, 1, 1, 1, 1, 1] : [13, 14, 16, 18, 20, 21, 27, 32, 6, 1, 1, 1, 1, 1, 1, 1]
        var offset = wideband ? 9 : 6, frameCount = 0
        while offset < bytes.count { offset += sizes[Int(bytes[offset] >> 3) & 15]; frameCount += 1 }
        #expect(offset == bytes.count)
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        let (_, type) = Self.property(file!, kAudioFilePropertyFileFormat, AudioFileTypeID(0))
        let (_, format) = Self.property(file!, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        let (_, packets) = Self.property(file!, kAudioFilePropertyAudioDataPacketCount, UInt64(0))
        let (_, maxPacket) = Self.property(file!, kAudioFilePropertyMaximumPacketSize, UInt32(0))
        AudioFileClose(file!)
        #expect(type == kAudioFileAMRType)
        #expect(format.mFormatID == (wideband ? kAudioFormatAMR_WB : kAudioFormatAMR))
        #expect(format.mSampleRate == (wideband ? 16000 : 8000) && format.mChannelsPerFrame == 1)
        #expect(format.mFramesPerPacket == (wideband ? 320 : 160) && format.mBytesPerPacket == 0)
        #expect(packets == UInt64(frameCount))
        #expect(maxPacket == (wideband ? 61 : 32))
        let rate = wideband ? 16000.0 : 8000
        let (ours, length) = try Self.readFloats(url, rate: rate)
        let theirs = try Self.ffmpegFloats(url, wideband: wideband)
        #expect(length == Int64(frameCount * (wideband ? 320 : 160)))
        #expect(ours.count == theirs.count && ours.count == Int(length), "ours \(ours.count), ffmpeg \(theirs.count), length \(length)")
        let quality = Self.snr(theirs, ours)
        print(String(format: "AMR-%@: opencore against ffmpeg's decoder %.1f dB SNR over %d frames", wideband ? "WB" : "NB", quality, ours.count))
        #expect(quality >= Self.minimumSNR(wideband), "SNR against ffmpeg: \(quality) dB")
    }

    /// The agreement asked of two independent decoders of the same bitstream (ffmpeg's float decoders against
    /// the fixed-point reference): measured 36 dB narrowband at 12.2 kb/s (20.6 dB at 10.2 kb/s, 35.5-36.5 dB at
    /// the other modes), 25.8 dB wideband at 23.85 kb/s.
    static func minimumSNR(_ wideband: Bool) -> Double { wideband ? 20 : 17 }

    /// Every narrowband mode (4.75 to 12.2 kb/s): the frame sizes of each mode parse, and the decode has
    /// ffmpeg's length and agrees with its decoder.
    @Test(arguments: 0..<7)
    func everyNarrowbandMode(_ mode: Int) throws {
        let url = try Self.makeAMR(wideband: false, mode: mode)
        defer { try? FileManager.default.removeItem(at: url) }
        let (ours, _) = try Self.readFloats(url, rate: 8000)
        let theirs = try Self.ffmpegFloats(url, wideband: false)
        #expect(ours.count == theirs.count)
        let quality = Self.snr(theirs, ours)
        print(String(format: "AMR-NB mode %d: %.1f dB SNR against ffmpeg", mode, quality))
        #expect(quality >= Self.minimumSNR(false))
    }

    /// The same frames in 3GP (ffmpeg's mux, 'samr'/'sawb' sample entries): file type '3gpp', the band's
    /// description, and exactly the .amr file's samples.
    @Test(arguments: [false, true])
    func threeGPHoldsTheSameFrames(_ wideband: Bool) throws {
        let amr = try Self.makeAMR(wideband: wideband)
        let gp = try Self.make3GP(from: amr)
        defer { try? FileManager.default.removeItem(at: amr); try? FileManager.default.removeItem(at: gp) }
        var file: AudioFileID?
        try #require(AudioFileOpenURL(gp as CFURL, .readPermission, 0, &file) == noErr)
        let (_, type) = Self.property(file!, kAudioFilePropertyFileFormat, AudioFileTypeID(0))
        let (_, format) = Self.property(file!, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        AudioFileClose(file!)
        #expect(type == kAudioFile3GPType)
        #expect(format.mFormatID == (wideband ? kAudioFormatAMR_WB : kAudioFormatAMR) && format.mChannelsPerFrame == 1)
        #expect(format.mSampleRate == (wideband ? 16000 : 8000) && format.mFramesPerPacket == (wideband ? 320 : 160))
        let rate = wideband ? 16000.0 : 8000
        let (fromAMR, _) = try Self.readFloats(amr, rate: rate)
        let (from3GP, _) = try Self.readFloats(gp, rate: rate)
        #expect(from3GP.count == fromAMR.count && from3GP == fromAMR)
    }

    static func int16Client(_ rate: Double) -> AudioStreamBasicDescription {
        OCAFormat.linearPCM(sampleRate: rate, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
    }

    /// Up to `count` frames from the current position as Int16 (fewer at the end).
    static func readInt16(_ x: ExtAudioFileRef, _ count: Int) throws -> [Int16] {
        var buffer = [Int16](repeating: 0, count: max(count, 1))
        var frames = UInt32(count)
        let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(2 * count), mData: raw.baseAddress))
            return ExtAudioFileRead(x, &frames, &list)
        }
        try #require(status == noErr)
        return Array(buffer.prefix(Int(frames)))
    }

    /// ExtAudioFileSeek to 1,000 random frames (seeded) of 6 s of speech, forward and backward, then a read of 1 to
    /// 1,024 frames: ExtAudioFileTell says the target and the frames are exactly those of one linear decode (Int16).
    /// opencore's decoders never settle bit-exactly after a preroll and their state is opaque, so a seek decodes
    /// from the file's start (from where it is, when the target lies ahead); the time the 1,000 seeks take is printed.
    /// The last frame reads alone; a seek to the end or past it answers noErr and then reads nothing.
    @Test(arguments: [false, true])
    func seeksAreExact(_ wideband: Bool) throws {
        let url = try Self.makeAMR(wideband: wideband, seconds: 6)
        defer { try? FileManager.default.removeItem(at: url) }
        let rate = wideband ? 16000.0 : 8000
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = Self.int16Client(rate)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var linear: [Int16] = []
        let linearStart = ContinuousClock.now
        while true {
            let chunk = try Self.readInt16(x!, 1000)
            if chunk.isEmpty { break }
            linear += chunk
        }
        let linearTime = ContinuousClock.now - linearStart
        // 6 s in whole 20 ms frames (a short file: every backward seek decodes from the start).
        #expect(linear.count == Int(rate) * 6)
        #expect(linear.contains { abs(Int($0)) > 1000 }, "the decode is speech, not silence")
        var rng = SplitMix64(state: wideband ? 14 : 13)
        var mismatches = 0, backward = 0, previous = 0
        let start = ContinuousClock.now
        for _ in 0..<1000 {
            let frame = Int.random(in: 0..<linear.count, using: &rng)
            let count = Int.random(in: 1...1024, using: &rng)
            if frame < previous { backward += 1 }
            try #require(ExtAudioFileSeek(x!, Int64(frame)) == noErr)
            var tell: Int64 = -1
            ExtAudioFileTell(x!, &tell)
            #expect(tell == Int64(frame))
            let got = try Self.readInt16(x!, count)
            let expected = Array(linear[frame..<min(frame + count, linear.count)])
            if got != expected { mismatches += 1 }
            previous = frame + got.count
        }
        let elapsed = ContinuousClock.now - start
        print("AMR-\(wideband ? "WB" : "NB") 6 s: 1,000 seeks (\(backward) backward) and reads in \(elapsed) (one linear decode: \(linearTime)), \(mismatches) differing from the linear decode")
        #expect(mismatches == 0)
        #expect(ExtAudioFileSeek(x!, Int64(linear.count - 1)) == noErr)
        #expect(try Self.readInt16(x!, 100) == [linear.last!])
        for past in [linear.count, linear.count + 12345] {
            #expect(ExtAudioFileSeek(x!, Int64(past)) == noErr)
            #expect(try Self.readInt16(x!, 100).isEmpty)
        }
        #expect(ExtAudioFileSeek(x!, -1) == kExtAudioFileError_InvalidSeek)
        // Back to the start after the end: the decoder starts over.
        #expect(ExtAudioFileSeek(x!, 0) == noErr)
        #expect(try Self.readInt16(x!, 1024) == Array(linear.prefix(1024)))
    }

    /// ExtAudioFileSeek to 300 random frames (seeded) of 200 s of speech, most of them more than 60 s (3,000 packets)
    /// from the start and from the previous read, forward and backward, each followed by a read of 1 to 1,024 frames:
    /// the frames are exactly those of a linear decode (Int16) made through another ExtAudioFile. The reader that
    /// seeks has decoded nothing before, so its first seeks far ahead decode their way there (leaving decoder
    /// checkpoints behind); the number of seeks and the time they take are printed. The same in 3GP (ffmpeg's mux).
    @Test(arguments: [false, true], [false, true])
    func longSeeksAreExact(_ wideband: Bool, _ threeGP: Bool) throws {
        let seconds = 200
        let amr = try Self.makeAMR(wideband: wideband, seconds: seconds, repeated: true)
        defer { try? FileManager.default.removeItem(at: amr) }
        let url = threeGP ? try Self.make3GP(from: amr) : amr
        defer { if threeGP { try? FileManager.default.removeItem(at: url) } }
        let rate = wideband ? 16000.0 : 8000
        var client = Self.int16Client(rate)
        var reader: ExtAudioFileRef?, seeker: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &reader) == noErr)
        defer { ExtAudioFileDispose(reader!) }
        try #require(ExtAudioFileSetProperty(reader!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var linear: [Int16] = []
        linear.reserveCapacity(Int(rate) * seconds)
        let linearStart = ContinuousClock.now
        while true {
            let chunk = try Self.readInt16(reader!, 4096)
            if chunk.isEmpty { break }
            linear += chunk
        }
        let linearTime = ContinuousClock.now - linearStart
        #expect(linear.count == Int(rate) * seconds)
        #expect(linear[linear.count / 2..<linear.count / 2 + Int(rate) * 5].contains { abs(Int($0)) > 1000 }, "speech all through, not silence")
        try #require(ExtAudioFileOpenURL(url as CFURL, &seeker) == noErr)
        defer { ExtAudioFileDispose(seeker!) }
        try #require(ExtAudioFileSetProperty(seeker!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var rng = SplitMix64(state: wideband ? 24 : 23)
        let seeks = 300, sixtySeconds = Int(rate) * 60
        var mismatches = 0, backward = 0, far = 0, beyond = 0, previous = 0
        var slowest = Duration.zero
        let start = ContinuousClock.now
        for _ in 0..<seeks {
            let frame = Int.random(in: 0..<linear.count, using: &rng)
            let count = Int.random(in: 1...1024, using: &rng)
            if frame < previous { backward += 1 }
            if abs(frame - previous) > sixtySeconds { far += 1 }
            if frame > sixtySeconds { beyond += 1 }
            let seekStart = ContinuousClock.now
            try #require(ExtAudioFileSeek(seeker!, Int64(frame)) == noErr)
            var tell: Int64 = -1
            ExtAudioFileTell(seeker!, &tell)
            #expect(tell == Int64(frame))
            let got = try Self.readInt16(seeker!, count)
            slowest = max(slowest, ContinuousClock.now - seekStart)
            let expected = Array(linear[frame..<min(frame + count, linear.count)])
            if got != expected { mismatches += 1 }
            previous = frame + got.count
        }
        let elapsed = ContinuousClock.now - start
        print("AMR-\(wideband ? "WB" : "NB") \(threeGP ? "3GP" : ".amr") \(seconds) s: \(seeks) seeks (\(backward) backward, \(far) more than 60 s from the last read, " +
              "\(beyond) beyond 60 s) and reads in \(elapsed), \(elapsed / seeks) each, slowest \(slowest) (one linear decode: \(linearTime)); " +
              "\(seeks - mismatches) exact, \(mismatches) differing from the linear decode")
        #expect(mismatches == 0)
        #expect(far > seeks / 3 && beyond > seeks / 2 && backward > seeks / 3)
    }

    /// A hostile file: 256 KiB of 1-byte NO_DATA frames is 262,144 packets, 87 minutes. Seeks still take bounded time
    /// from a fresh reader: to a target within 30,000 packets (10 minutes) of the last checkpoint the reader decodes
    /// its way there (once, leaving checkpoints), to a farther one it prerolls 16 packets. The times are printed.
    @Test func hostileFileSeeksInBoundedTime() throws {
        let url = FileSupport.tempURL("amr")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Array("#!AMR\n".utf8) + [UInt8](repeating: 15 << 3 | 4, count: 256 * 1024)).write(to: url)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = Self.int16Client(8000)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var length: Int64 = 0, size = UInt32(MemoryLayout<Int64>.size)
        try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr)
        #expect(length == 256 * 1024 * 160)
        let minute = 8000 * 60
        var times: [String] = [], slowest = Duration.zero
        for target in [86 * minute, minute, 9 * minute + 30 * 8000, 20 * minute, 19 * minute, 28 * minute, 85 * minute, 0, Int(length / 2)] {
            let start = ContinuousClock.now
            try #require(ExtAudioFileSeek(x!, Int64(target)) == noErr)
            #expect(try Self.readInt16(x!, 1024).count == 1024)
            let time = ContinuousClock.now - start
            slowest = max(slowest, time)
            times.append("\(Int64(target) / Int64(minute)) min: \(time)")
        }
        print("AMR-NB 87 minutes of NO_DATA frames, seek and read at " + times.joined(separator: ", "))
        #expect(slowest < .seconds(10))
    }

    /// Narrowband encodes and decodes, as on Apple's systems; wideband only decodes here (no encoder library is
    /// linked): AudioConverterNew to 'sawb' answers 'fmt?', the encode list has 'samr' and not 'sawb', the decode
    /// list has both bands, and FormatInfo completes a bare description with the band's fields.
    @Test func decodeOnlyAndFormatInfo() throws {
        var pcm = OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
        for id in [kAudioFormatAMR, kAudioFormatAMR_WB] {
            var amr = AudioStreamBasicDescription()
            amr.mFormatID = id
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &amr) == noErr)
            let wide = id == kAudioFormatAMR_WB
            #expect(amr.mSampleRate == (wide ? 16000 : 8000) && amr.mChannelsPerFrame == 1 && amr.mFramesPerPacket == (wide ? 320 : 160))
            #expect(amr.mBytesPerPacket == 0 && amr.mBitsPerChannel == 0)
            var c: AudioConverterRef?
            let encoded = AudioConverterNew(&pcm, &amr, &c)
            #expect(encoded == (wide ? kAudioConverterErr_FormatNotSupported : noErr))
            if let c, !wide { AudioConverterDispose(c) }
            var out = OCAFormat.linearPCM(sampleRate: amr.mSampleRate, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
            #expect(AudioConverterNew(&amr, &out, &c) == noErr)
            if let c { AudioConverterDispose(c) }
        }
        func list(_ id: AudioFormatPropertyID) -> [AudioFormatID] {
            var size: UInt32 = 0
            AudioFormatGetPropertyInfo(id, 0, nil, &size)
            var ids = [AudioFormatID](repeating: 0, count: Int(size) / 4)
            AudioFormatGetProperty(id, 0, nil, &size, &ids)
            return ids
        }
        #expect(list(kAudioFormatProperty_DecodeFormatIDs).contains(kAudioFormatAMR))
        #expect(list(kAudioFormatProperty_DecodeFormatIDs).contains(kAudioFormatAMR_WB))
        #expect(list(kAudioFormatProperty_EncodeFormatIDs).contains(kAudioFormatAMR))
        #expect(!list(kAudioFormatProperty_EncodeFormatIDs).contains(kAudioFormatAMR_WB))
    }

    /// The global info: AMR's extension, MIME type and UTI, its formats; 3GP and 3GP2 readable and writable.
    @Test func globalInfo() throws {
        func strings(_ id: AudioFilePropertyID, _ type: AudioFileTypeID) -> [String] {
            var t = type
            var value: Unmanaged<CFArray>?
            var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
            guard AudioFileGetGlobalInfo(id, 4, &t, &size, &value) == noErr, let array = value?.takeRetainedValue() else { return [] }
            return (array as NSArray).compactMap { $0 as? String }
        }
        #expect(strings(kAudioFileGlobalInfo_ExtensionsForType, kAudioFileAMRType) == ["amr"])
        #expect(strings(kAudioFileGlobalInfo_MIMETypesForType, kAudioFileAMRType) == ["audio/amr"])
        #expect(strings(kAudioFileGlobalInfo_UTIsForType, kAudioFileAMRType) == ["org.3gpp.adaptive-multi-rate-audio"])
        #expect(strings(kAudioFileGlobalInfo_ExtensionsForType, kAudioFile3GPType).contains("3gp"))
        #expect(strings(kAudioFileGlobalInfo_ExtensionsForType, kAudioFile3GP2Type).contains("3g2"))
        func types(_ id: AudioFilePropertyID) -> [AudioFileTypeID] {
            var size: UInt32 = 0
            AudioFileGetGlobalInfoSize(id, 0, nil, &size)
            var ids = [AudioFileTypeID](repeating: 0, count: Int(size) / 4)
            AudioFileGetGlobalInfo(id, 0, nil, &size, &ids)
            return ids
        }
        let readable = types(kAudioFileGlobalInfo_ReadableTypes), writable = types(kAudioFileGlobalInfo_WritableTypes)
        #expect(readable.contains(kAudioFileAMRType) && readable.contains(kAudioFile3GPType) && readable.contains(kAudioFile3GP2Type))
        #expect(writable.contains(kAudioFileAMRType) && writable.contains(kAudioFile3GPType) && writable.contains(kAudioFile3GP2Type))
    }

    final class StreamCollector {
        var packets: [[UInt8]] = []
        var format = AudioStreamBasicDescription()
        var fileType: AudioFileTypeID = 0
        var ready = false
    }

    /// AudioFileStream fed an .amr file in pieces of every size hands out exactly the packets AudioFile reads.
    @Test(arguments: [false, true])
    func audioFileStreamSplitsTheSameFrames(_ wideband: Bool) throws {
        let url = try Self.makeAMR(wideband: wideband)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Array(try Data(contentsOf: url))
        let expected = try TestSupport.packetsAudioFileReads(url, maxPacketBytes: 61)
        let collector = StreamCollector()
        let listener: AudioFileStream_PropertyListenerProc = { user, stream, id, _ in
            let c = Unmanaged<StreamCollector>.fromOpaque(user).takeUnretainedValue()
            if id == kAudioFileStreamProperty_DataFormat {
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                AudioFileStreamGetProperty(stream, id, &size, &c.format)
            }
            if id == kAudioFileStreamProperty_FileFormat {
                var size: UInt32 = 4
                AudioFileStreamGetProperty(stream, id, &size, &c.fileType)
            }
            if id == kAudioFileStreamProperty_ReadyToProducePackets { c.ready = true }
        }
        let packets: AudioFileStream_PacketsProc = { user, _, count, data, descriptions in
            let c = Unmanaged<StreamCollector>.fromOpaque(user).takeUnretainedValue()
            for i in 0..<Int(count) {
                let d = descriptions![i]
                c.packets.append(Array(UnsafeRawBufferPointer(start: data + Int(d.mStartOffset), count: Int(d.mDataByteSize))))
            }
        }
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), listener, packets, 0, &stream) == noErr)
        var offset = 0, piece = 1
        while offset < bytes.count {
            let n = min(piece, bytes.count - offset)
            let status = bytes[offset..<(offset + n)].withUnsafeBytes { AudioFileStreamParseBytes(stream!, UInt32(n), $0.baseAddress, []) }
            #expect(status == noErr)
            offset += n
            piece = piece * 3 % 97 + 1
        }
        AudioFileStreamClose(stream!)
        #expect(collector.ready && collector.fileType == kAudioFileAMRType)
        #expect(collector.format.mFormatID == (wideband ? kAudioFormatAMR_WB : kAudioFormatAMR))
        #expect(collector.packets.count == expected.count && collector.packets == expected)
    }

    /// Packets copied into a new .amr file (AudioFileCreate, WritePackets) make a file ffmpeg reads as the
    /// original: the same bytes after the magic.
    @Test func writtenAMRFileIsTheSameStream() throws {
        let url = try Self.makeAMR(wideband: false)
        let copy = FileSupport.tempURL("amr")
        defer { try? FileManager.default.removeItem(at: url); try? FileManager.default.removeItem(at: copy) }
        var input: AudioFileID?, output: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &input) == noErr)
        var (_, format) = Self.property(input!, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        try #require(AudioFileCreateWithURL(copy as CFURL, kAudioFileAMRType, &format, .eraseFile, &output) == noErr)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 50)
        var buffer = [UInt8](repeating: 0, count: 50 * 32)
        var packet: Int64 = 0
        while true {
            var n: UInt32 = 50, size = UInt32(buffer.count)
            AudioFileReadPacketData(input!, false, &size, &descriptions, packet, &n, &buffer)
            if n == 0 { break }
            #expect(AudioFileWritePackets(output!, false, size, descriptions, packet, &n, buffer) == noErr)
            packet += Int64(n)
        }
        AudioFileClose(input!)
        #expect(AudioFileClose(output!) == noErr)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: url))
    }
}
