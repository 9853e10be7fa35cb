import AudioToolbox
import AudioToolboxAAC
import Foundation
import Testing

/// ADTS AAC files: ffmpeg's read here with ffprobe's frame count and decoded as ffmpeg decodes them; ours written
/// through ExtAudioFile read by ffprobe/ffmpeg; AudioFileStream hands out the same packets as AudioFile; hostile
/// files answer AudioFile's error codes.
@Suite struct ADTSFileTests {
    static func makeADTS(seconds: Double = 2, channels: Int = 2) throws -> URL {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let url = FileSupport.tempURL("aac")
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=\(seconds)", "-ac", "\(channels)",
                                                          "-c:a", "aac", "-b:a", "128k", "-f", "adts", url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return url
    }

    /// The lag, among whole packets and the usual priming amounts, at which `b` best matches `a` (by SNR over the
    /// first 8,192 frames after it), and the SNR over everything at that lag.
    static func aligned(_ a: [Float], _ b: [Float], channels: Int) -> (lag: Int, snr: Double) {
        var best = (lag: 0, snr: -Double.infinity)
        for lag in [0, 1024, -1024, 2048, -2048, 2112, -2112, 576, -576] {
            let x = lag >= 0 ? a[...] : a.dropFirst(-lag * channels)
            let y = lag >= 0 ? b.dropFirst(lag * channels) : b[...]
            let n = min(x.count, y.count, 8192 * channels)
            guard n > 0 else { continue }
            let snr = MP3FileTests.snr(Array(x.prefix(n)), Array(y.prefix(n)))
            if snr > best.snr { best = (lag, snr) }
        }
        let x = best.lag >= 0 ? a[...] : a.dropFirst(-best.lag * channels)
        let y = best.lag >= 0 ? b.dropFirst(best.lag * channels) : b[...]
        let n = min(x.count, y.count)
        return (best.lag, MP3FileTests.snr(Array(x.prefix(n)), Array(y.prefix(n))))
    }

    /// ffmpeg's ADTS: AAC LC 44.1 kHz stereo, ffprobe's packet count, a cookie whose AudioSpecificConfig is the
    /// header's; decoded here equal to ffmpeg's decode (SNR >= 60 dB after alignment, same length).
    @Test func ffmpegsADTSDecodesAsFFmpegDecodesIt() throws {
        let url = try Self.makeADTS()
        defer { try? FileManager.default.removeItem(at: url) }
        let (format, packets, _, _, type) = try MP4FileTests.properties(url)
        #expect(type == kAudioFileAAC_ADTSType)
        #expect(format.mFormatID == kAudioFormatMPEG4AAC && format.mSampleRate == 44100 && format.mChannelsPerFrame == 2 && format.mFramesPerPacket == 1024)
        #expect(Int(packets) == (try MP4FileTests.ffprobePackets(url)))
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileAAC_ADTSType, &file) == noErr)
        var size: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file!, kAudioFilePropertyMagicCookieData, &size, nil) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(size))
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyMagicCookieData, &size, &cookie) == noErr)
        var duration = 0.0
        size = 8
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyEstimatedDuration, &size, &duration) == noErr)
        AudioFileClose(file!)
        #expect(abs(duration - Double(packets) * 1024 / 44100) < 1e-9)
        // AAC LC (2), 44.1 kHz (index 4), stereo: 0x12 0x10.
        #expect(ESDescriptor(cookie)?.specificInfo == [0x12, 0x10])
        let ours = try MP3FileTests.readFloats(url)
        let theirs = try MP3FileTests.ffmpegFloats(url)
        #expect(ours.count == Int(packets) * 1024 * 2, "ours \(ours.count / 2) frames of \(packets) packets")
        let (lag, snr) = Self.aligned(theirs, ours, channels: 2)
        #expect(snr >= 60, "SNR against ffmpeg's decode \(snr) dB at lag \(lag); ffmpeg \(theirs.count / 2) frames, ours \(ours.count / 2)")
        print("ADTS from ffmpeg: SNR \(snr) dB against ffmpeg's decode at lag \(lag); ffmpeg \(theirs.count / 2) frames, ours \(ours.count / 2)")
    }

    /// AAC written as ADTS through ExtAudioFile: ffprobe reads AAC 44.1 kHz stereo with as many packets as we wrote,
    /// ffmpeg's decode equals ours, and each frame starts with a 7-byte header (sync 0xFFF1).
    @Test func adtsWrittenHereReadsInFFmpeg() throws {
        let url = FileSupport.tempURL("aac")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = MP4WriteTests.signal(frames: 88200)
        try MP4WriteTests.write(url, type: kAudioFileAAC_ADTSType, format: MP4WriteTests.aac(), source)
        let bytes = Array(try Data(contentsOf: url))
        #expect(bytes.prefix(2) == [0xFF, 0xF1])
        #expect(try MP4WriteTests.ffprobe(url, "stream=codec_name,sample_rate,channels") == "aac,44100,2")
        let (_, packets, _, _, type) = try MP4FileTests.properties(url)
        #expect(type == kAudioFileAAC_ADTSType)
        #expect(try MP4FileTests.ffprobePackets(url) == Int(packets))
        let ours = try MP3FileTests.readFloats(url)
        #expect(ours.count == Int(packets) * 2048)
        let theirs = try MP3FileTests.ffmpegFloats(url)
        let (lag, snr) = Self.aligned(theirs, ours, channels: 2)
        #expect(snr >= 60, "SNR against ffmpeg's decode \(snr) dB at lag \(lag); ffmpeg \(theirs.count / 2) frames, ours \(ours.count / 2)")
        print("ADTS written here: SNR \(snr) dB against ffmpeg's decode at lag \(lag); ffmpeg \(theirs.count / 2) frames, ours \(ours.count / 2)")
    }

    /// AudioFileStream fed an ADTS file in pieces of every size hands out exactly AudioFile's packets.
    @Test func audioFileStreamSplitsTheSameFrames() throws {
        let url = try Self.makeADTS()
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Array(try Data(contentsOf: url))
        let expected = try TestSupport.packetsAudioFileReads(url, maxPacketBytes: 8192)
        let collector = MP3FileTests.StreamCollector()
        let listener: AudioFileStream_PropertyListenerProc = { user, stream, id, _ in
            let c = Unmanaged<MP3FileTests.StreamCollector>.fromOpaque(user).takeUnretainedValue()
            if id == kAudioFileStreamProperty_DataFormat {
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                AudioFileStreamGetProperty(stream, id, &size, &c.format)
            }
            if id == kAudioFileStreamProperty_ReadyToProducePackets { c.ready = true }
        }
        let packets: AudioFileStream_PacketsProc = { user, _, count, data, descriptions in
            let c = Unmanaged<MP3FileTests.StreamCollector>.fromOpaque(user).takeUnretainedValue()
            for i in 0..<Int(count) {
                let d = descriptions![i]
                c.packets.append(Array(UnsafeRawBufferPointer(start: data + Int(d.mStartOffset), count: Int(d.mDataByteSize))))
            }
        }
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), listener, packets, kAudioFileAAC_ADTSType, &stream) == noErr)
        var offset = 0, piece = 1
        while offset < bytes.count {
            let n = min(piece, bytes.count - offset)
            let status = bytes[offset..<(offset + n)].withUnsafeBytes { AudioFileStreamParseBytes(stream!, UInt32(n), $0.baseAddress, []) }
            #expect(status == noErr)
            offset += n
            piece = piece * 3 % 2999 + 1
        }
        AudioFileStreamClose(stream!)
        #expect(collector.ready && collector.format.mFormatID == kAudioFormatMPEG4AAC && collector.format.mFramesPerPacket == 1024)
        #expect(collector.packets.count == expected.count)
        #expect(collector.packets == expected)
    }

    /// Hostile ADTS: each case answers its error code (or opens with the frames that are whole), never crashes.
    @Test func hostileADTSAnswersErrorCodes() throws {
        let url = try Self.makeADTS(seconds: 0.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let good = Array(try Data(contentsOf: url))
        let first = try #require(ADTSHeader(good))
        let goodPackets = try MP4FileTests.ffprobePackets(url)
        func open(_ bytes: [UInt8]) throws -> (OSStatus, UInt64) {
            let path = FileSupport.tempURL("aac")
            defer { try? FileManager.default.removeItem(at: path) }
            try Data(bytes).write(to: path)
            var file: AudioFileID?
            let status = AudioFileOpenURL(path as CFURL, .readPermission, kAudioFileAAC_ADTSType, &file)
            guard status == noErr else { return (status, 0) }
            var packets: UInt64 = 0
            var size: UInt32 = 8
            AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets)
            AudioFileClose(file!)
            return (status, packets)
        }
        // A last frame cut short: dropped.
        #expect(try open(Array(good.dropLast(5))) == (noErr, UInt64(goodPackets - 1)))
        // The only frame cut short: no packet at all.
        #expect(try open(Array(good.prefix(first.frameLength - 1))).0 == kAudioFileInvalidPacketOffsetError)
        // Bad sync at the start: not a file of any type.
        var bad = good
        bad[1] = 0x00
        #expect(try open(bad).0 == kAudioFileUnsupportedFileTypeError)
        // A zero (and a too-short) frame length at the start: no header.
        for length in [0, 3] {
            var zero = good
            zero[3] = zero[3] & 0xFC
            zero[4] = UInt8(length >> 3)
            zero[5] = UInt8((length & 7) << 5) | zero[5] & 0x1F
            #expect(try open(zero).0 == kAudioFileUnsupportedFileTypeError)
        }
        // The largest frame length (8,191): the next "header" is junk, so not taken for ADTS.
        var huge = good
        huge[3] |= 3
        huge[4] = 0xFF
        huge[5] |= 0xE0
        let (hugeStatus, _) = try open(huge)
        #expect(hugeStatus == kAudioFileUnsupportedFileTypeError || hugeStatus == kAudioFileInvalidPacketOffsetError)
        // Junk in the middle: skipped to the next header; frames on both sides kept.
        var junk = good
        let middle = first.frameLength * 3
        junk.insert(contentsOf: [UInt8](repeating: 0x5A, count: 100) + [0xFF, 0xF1, 0x00], at: middle)
        let (junkStatus, junkPackets) = try open(junk)
        #expect(junkStatus == noErr && Int(junkPackets) == goodPackets, "\(junkPackets) of \(goodPackets)")
        // Channel configuration 0 (a program config element in the stream): unsupported.
        var pce = good
        var at = 0
        while at + 7 <= pce.count, let h = ADTSHeader(pce[at...]) {
            pce[at + 2] &= 0xFE
            pce[at + 3] &= 0x3F
            at += h.frameLength
        }
        #expect(try open(pce).0 == kAudioFileUnsupportedDataFormatError)
        // Every truncation of the first 3 frames opens or fails cleanly.
        for n in stride(from: 0, to: min(good.count, 3 * first.frameLength), by: 7) { _ = try open(Array(good.prefix(n))) }
    }

    /// Frames with a CRC (9-byte headers, from the fuzz corpus): ffprobe's packet count, decoded as ffmpeg decodes them.
    @Test func framesWithCRCDecodeAsFFmpegDecodesThem() throws {
        let url = FuzzCorpusPath.regressions.appendingPathComponent("adts-crc-present.aac")
        let (format, packets, _, _, type) = try MP4FileTests.properties(url)
        #expect(type == kAudioFileAAC_ADTSType && format.mSampleRate == 8000 && format.mChannelsPerFrame == 1)
        #expect(Int(packets) == (try MP4FileTests.ffprobePackets(url)) && packets == 9)
        let ours = try MP3FileTests.readFloats(url, channels: 1, rate: 8000)
        let theirs = try MP3FileTests.ffmpegFloats(url)
        let (lag, snr) = Self.aligned(theirs, ours, channels: 1)
        #expect(snr >= 60, "SNR against ffmpeg's decode \(snr) dB at lag \(lag)")
    }
}

/// Where the kept fuzz corpus is.
enum FuzzCorpusPath {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus/regressions")
}
