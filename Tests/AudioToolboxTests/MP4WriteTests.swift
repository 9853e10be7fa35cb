import AudioToolbox
import AudioToolboxAAC
import Foundation
import Testing
import SharedTestSupport

/// MPEG-4 files written through ExtAudioFile (ALAC, AAC, FLAC, Opus in M4A/MP4), checked by ffprobe and ffmpeg:
/// codec, rate, channels, the duration the edit list leaves, samples equal to the source (lossless) or to our own
/// decode (AAC); AudioFileOptimize's moov-first layout; a writer that never closes leaves a readable file.
@Suite struct MP4WriteTests {
    /// A 16-bit stereo test signal (two tones and a little noise), `frames` long, as interleaved samples.
    static func signal(frames: Int, channels: Int = 2, seed: UInt64 = 7) -> [Int16] {
        var state = seed
        return (0..<frames * channels).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let t = Double(i / channels) / 44100
            let tone = 9000 * sin(2 * .pi * (i % channels == 0 ? 440 : 660) * t)
            return Int16(clamping: Int(tone) + Int(state >> 58) - 32)
        }
    }

    static let int16Stereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)

    /// Writes `samples` (16-bit interleaved, `channels`) into a new file of `type` holding `format`; `close`
    /// false leaves the ExtAudioFile open (a writer that is killed) and returns it.
    @discardableResult
    static func write(_ url: URL, type: AudioFileTypeID, format: AudioStreamBasicDescription, _ samples: [Int16], channels: UInt32 = 2,
                      close: Bool = true, reserveSeconds: Float64? = nil) throws -> ExtAudioFileRef? {
        var fileFormat = format
        var x: ExtAudioFileRef?
        let created = ExtAudioFileCreateWithURL(url as CFURL, type, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &x)
        try #require(created == noErr, "create: \(created)")
        if var seconds = reserveSeconds {
            var file: AudioFileID?
            var size = UInt32(MemoryLayout<AudioFileID?>.size)
            try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_AudioFile, &size, &file) == noErr)
            try #require(AudioFileSetProperty(file!, kAudioFilePropertyReserveDuration, 8, &seconds) == noErr)
        }
        var client = OCAFormat.linearPCM(sampleRate: format.mSampleRate, channels: channels, bitsPerChannel: 16, isFloat: false, interleaved: true)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        try ExtFileIO.write(x!, samples, channels: Int(channels), slice: { _ in 4096 })
        if close {
            try #require(ExtAudioFileDispose(x!) == noErr)
            return nil
        }
        return x
    }

    static func ffprobe(_ url: URL, _ entries: String) throws -> String {
        let tool = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let (status, out) = try FileSupport.run(tool, ["-v", "error", "-show_entries", entries, "-of", "csv=p=0", url.path])
        try #require(status == 0, "ffprobe: \(out)")
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The top-level box types in file order.
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var types: [String] = []
        var at = 0
        while at + 8 <= data.count {
            var size = data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: data[at + 4..<at + 8], as: UTF8.self))
            if size == 1 { size = data[at + 8..<at + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8 else { break }
            at += size
        }
        return types
    }

    static func alac(channels: UInt32 = 2) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = 44100
        f.mFormatID = kAudioFormatAppleLossless
        f.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
        f.mChannelsPerFrame = channels
        return f
    }

    static func aac(channels: UInt32 = 2, rate: Double = 44100) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = rate
        f.mFormatID = kAudioFormatMPEG4AAC
        f.mChannelsPerFrame = channels
        return f
    }

    /// ALAC in M4A: ffprobe sees ALAC 44.1 kHz stereo of exactly the source's duration, and ffmpeg and we both
    /// decode it to the source's samples, bit for bit.
    @Test func alacInM4AIsLosslessForFFmpegAndUs() throws {
        let url = FileSupport.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = Self.signal(frames: 100_000)
        try Self.write(url, type: kAudioFileM4AType, format: Self.alac(), source)
        #expect(try Self.ffprobe(url, "stream=codec_name,sample_rate,channels") == "alac,44100,2")
        #expect(try Self.ffprobe(url, "stream=duration_ts") == "100000")
        let expected = source.map { Float($0) / 32768 }
        let ours = try MP3FileTests.readFloats(url)
        #expect(ours == expected, "ours: \(ours.count / 2) frames")
        let theirs = try MP3FileTests.ffmpegFloats(url)
        #expect(theirs == expected, "ffmpeg: \(theirs.count / 2) frames")
        #expect(try Self.topLevelBoxes(url) == ["ftyp", "moov", "free", "mdat"])
        let (format, _, _, _, type) = try MP4FileTests.properties(url)
        #expect(type == kAudioFileM4AType && format.mFormatID == kAudioFormatAppleLossless && format.mFramesPerPacket == 4096)
    }

    /// AAC in M4A at 128 kbps: ffprobe's duration is the source's exactly (the edit list skips the encoder's priming
    /// frames, as ffmpeg honours it, and ends at the last valid frame); our decode has the source's length, and ffmpeg's
    /// decode equals ours (same libavcodec decoder: SNR stated); both are close to the source.
    @Test func aacInM4AHasTheSourcesDurationForFFmpeg() throws {
        let url = FileSupport.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = Self.signal(frames: 88200)
        try Self.write(url, type: kAudioFileM4AType, format: Self.aac(), source)
        #expect(try Self.ffprobe(url, "stream=codec_name,sample_rate,channels") == "aac,44100,2")
        #expect(try Self.ffprobe(url, "format=duration") == "2.000000")
        let (_, packets, table, _, _) = try MP4FileTests.properties(url)
        // libavcodec's encoder primes 1,024 frames.
        #expect(table.mNumberValidFrames == 88200 && table.mPrimingFrames == 1024)
        #expect(Int64(packets) * 1024 == 88200 + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames))
        #expect(try MP4FileTests.ffprobePackets(url) == Int(packets))
        let ours = try MP3FileTests.readFloats(url)
        #expect(ours.count == source.count)
        let reference = source.map { Float($0) / 32768 }
        let quality = MP3FileTests.snr(reference, ours)
        #expect(quality > 20, "SNR against the source \(quality) dB")
        let theirs = try MP3FileTests.ffmpegFloats(url)
        #expect(theirs.count >= ours.count)
        let agreement = MP3FileTests.snr(Array(theirs.prefix(ours.count)), ours)
        #expect(agreement > 60, "SNR of ffmpeg's decode against ours \(agreement) dB")
        print("AAC in M4A: SNR against the source \(quality) dB, ffmpeg's decode against ours \(agreement) dB")
    }

    /// FLAC and Opus in MP4 ('fLaC'+dfLa, 'Opus'+dOps): ffprobe names the codec; FLAC decodes to the source in
    /// ffmpeg and here; Opus here to the source's length.
    @Test func flacAndOpusInMP4() throws {
        let flacURL = FileSupport.tempURL("mp4")
        let opusURL = FileSupport.tempURL("mp4")
        defer { [flacURL, opusURL].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = Self.signal(frames: 50_000)
        var flac = AudioStreamBasicDescription()
        flac.mSampleRate = 44100
        flac.mFormatID = kAudioFormatFLAC
        flac.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
        flac.mChannelsPerFrame = 2
        try Self.write(flacURL, type: kAudioFileMPEG4Type, format: flac, source)
        #expect(try Self.ffprobe(flacURL, "stream=codec_name,sample_rate,channels") == "flac,44100,2")
        let expected = source.map { Float($0) / 32768 }
        #expect(try MP3FileTests.ffmpegFloats(flacURL) == expected)
        #expect(try MP3FileTests.readFloats(flacURL) == expected)
        #expect(try MP4FileTests.properties(flacURL).4 == kAudioFileMPEG4Type)
        // The dfLa box holds the encoder's final STREAMINFO: its 36-bit total is the source's frame count.
        let bytes = Array(try Data(contentsOf: flacURL))
        let dfLa = try #require(bytes.indices.dropLast(3).first { Array(bytes[$0..<$0 + 4]) == Array("dfLa".utf8) })
        let info = Array(bytes[(dfLa + 12)..<(dfLa + 12 + 34)])
        let total = info[13...17].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0xF_FFFF_FFFF
        #expect(total == 50_000)

        let opusSource = Self.signal(frames: 48000)
        var opus = AudioStreamBasicDescription()
        opus.mSampleRate = 48000
        opus.mFormatID = kAudioFormatOpus
        opus.mChannelsPerFrame = 2
        try Self.write(opusURL, type: kAudioFileMPEG4Type, format: opus, opusSource)
        #expect(try Self.ffprobe(opusURL, "stream=codec_name,sample_rate,channels") == "opus,48000,2")
        let back = try MP3FileTests.readFloats(opusURL, rate: 48000)
        #expect(back.count == opusSource.count, "\(back.count / 2) frames back")
    }

    /// Formats an M4A cannot hold answer kAudioFileUnsupportedDataFormatError, and AvailableFormatIDs lists the rest.
    @Test func unsupportedFormatsAreRefused() throws {
        var pcm = Self.int16Stereo
        var file: AudioFileID?
        let url = FileSupport.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileM4AType, &pcm, .eraseFile, &file) == kAudioFileUnsupportedDataFormatError)
        var ima = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 68,
                                              mFramesPerPacket: 64, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileM4AType, &ima, .eraseFile, &file) == kAudioFileUnsupportedDataFormatError)
        var type = kAudioFileM4AType
        var size: UInt32 = 0
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &type, &size) == noErr)
        var ids = [AudioFormatID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableFormatIDs, 4, &type, &size, &ids) == noErr)
        #expect(Set(ids) == Set([kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2, kAudioFormatAppleLossless,
                                 kAudioFormatFLAC, kAudioFormatOpus]))
    }

    /// 200 s of mono AAC: the sample table outgrows the room reserved in front, so the 'moov' is written after
    /// 'mdat' (IsOptimized 0); AudioFileOptimize on the file reopened for writing puts it right after 'ftyp'
    /// (IsOptimized 1), and the file decodes to the same samples, here and in ffmpeg (SNR against ours stated).
    @Test func optimizeMovesTheMovieInFront() throws {
        let url = FileSupport.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let frames = 200 * 44100
        let source = Self.signal(frames: frames, channels: 1)
        try Self.write(url, type: kAudioFileM4AType, format: Self.aac(channels: 1), source, channels: 1)
        #expect(try Self.topLevelBoxes(url) == ["ftyp", "free", "mdat", "moov"])
        func optimized(_ file: AudioFileID) -> UInt32 {
            var value: UInt32 = 9
            var size: UInt32 = 4
            AudioFileGetProperty(file, kAudioFilePropertyIsOptimized, &size, &value)
            return value
        }
        let before = try MP3FileTests.readFloats(url, channels: 1)
        #expect(before.count == frames)
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &file) == noErr)
        #expect(optimized(file!) == 0)
        #expect(AudioFileOptimize(file!) == noErr)
        #expect(optimized(file!) == 1)
        #expect(AudioFileClose(file!) == noErr)
        #expect(try Self.topLevelBoxes(url) == ["ftyp", "moov", "free", "mdat"])
        let after = try MP3FileTests.readFloats(url, channels: 1)
        #expect(after == before)
        let theirs = try MP3FileTests.ffmpegFloats(url)
        #expect(theirs.count >= after.count)
        let agreement = MP3FileTests.snr(Array(theirs.prefix(after.count)), after)
        #expect(agreement > 60, "SNR of ffmpeg's decode against ours \(agreement) dB")
        #expect(try Self.ffprobe(url, "format=duration") == "200.000000")
        print("Optimized M4A: ffmpeg's decode against ours \(agreement) dB")
    }

    /// kAudioFilePropertyReserveDuration set before writing 200 s of AAC makes room for the whole 'moov' in front of
    /// the data: no optimizing needed, and a copy taken before closing already covers all but the last seconds.
    @Test func reserveDurationKeepsTheMovieInFront() throws {
        let url = FileSupport.tempURL("m4a")
        let copy = FileSupport.tempURL("m4a")
        defer { [url, copy].forEach { try? FileManager.default.removeItem(at: $0) } }
        let frames = 200 * 44100
        let source = Self.signal(frames: frames, channels: 1)
        let open = try #require(try Self.write(url, type: kAudioFileM4AType, format: Self.aac(channels: 1), source, channels: 1, close: false,
                                               reserveSeconds: 240))
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(ExtAudioFileDispose(open) == noErr)
        #expect(try Self.topLevelBoxes(url) == ["ftyp", "moov", "free", "mdat"])
        #expect(try MP3FileTests.readFloats(url, channels: 1).count == frames)
        let partial = try MP3FileTests.readFloats(copy, channels: 1).count
        #expect(partial >= frames - 10 * 44100 && partial <= frames + 2112, "\(partial) frames before closing")
    }

    /// A writer that never closes (killed): the 'moov' rewritten in the reserve during writing covers all but the
    /// last moments, so a copy of the file taken then opens here and in ffprobe, and decodes to a prefix of the source.
    @Test func aKilledWriterLeavesAReadableFile() throws {
        let url = FileSupport.tempURL("m4a")
        let copy = FileSupport.tempURL("m4a")
        defer { [url, copy].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = Self.signal(frames: 5 * 44100)
        let open = try Self.write(url, type: kAudioFileM4AType, format: Self.alac(), source, close: false)
        defer { if let open { ExtAudioFileDispose(open) } }
        try FileManager.default.copyItem(at: url, to: copy)
        let back = try MP3FileTests.readFloats(copy)
        #expect(back.count >= 4 * 44100 * 2 && back.count <= source.count, "\(back.count / 2) frames of \(source.count / 2)")
        #expect(back == source.prefix(back.count).map { Float($0) / 32768 })
        #expect(try Self.ffprobe(copy, "stream=codec_name") == "alac")
        #expect(try MP3FileTests.ffmpegFloats(copy) == back)
    }

    /// kAudioFilePropertyInfoDictionary set on an M4A being written becomes iTunes 'ilst' items: ffprobe reads the
    /// title, artist and album, and so do we; the packet table is there as iTunSMPB too.
    @Test func infoDictionaryBecomesITunesMetadata() throws {
        let url = FileSupport.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let x = try #require(try Self.write(url, type: kAudioFileM4AType, format: Self.aac(), Self.signal(frames: 44100), close: false))
        var file: AudioFileID?
        var size = UInt32(MemoryLayout<AudioFileID?>.size)
        try #require(ExtAudioFileGetProperty(x, kExtAudioFileProperty_AudioFile, &size, &file) == noErr)
        var info: CFDictionary? = [kAFInfoDictionary_Title: "Boxed Tones", kAFInfoDictionary_Artist: "OpenCoreAudio",
                                   kAFInfoDictionary_Album: "Tests"] as NSDictionary as CFDictionary
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyInfoDictionary, UInt32(MemoryLayout<CFDictionary?>.size), &info) == noErr)
        #expect(ExtAudioFileDispose(x) == noErr)
        let tags = try Self.ffprobe(url, "format_tags=title,artist,album")
        #expect(Set(tags.split(separator: ",")) == ["Boxed Tones", "OpenCoreAudio", "Tests"], "\(tags)")
        let smpb = try Self.ffprobe(url, "format_tags=iTunSMPB")
        let fields = smpb.split(separator: " ").compactMap { UInt64($0, radix: 16) }
        #expect(fields.count == 12 && fields[1] == 1024 && fields[3] == 44100, "iTunSMPB \(smpb)")
        let (_, _, _, dictionary, _) = try MP4FileTests.properties(url)
        #expect(dictionary[kAFInfoDictionary_Title] as? String == "Boxed Tones")
        #expect(dictionary[kAFInfoDictionary_Album] as? String == "Tests")
    }

    /// The AudioFile API alone, as a client copying packets writes it: ALAC packets and cookie read from a CAF, an M4A
    /// created with AudioFileCreateWithURL, the cookie and the packet table set as properties, packets written with
    /// their descriptions; ffmpeg decodes the source's samples exactly, and the packet table reads back.
    @Test func audioFileAPICopiesPacketsIntoAnM4A() throws {
        let caf = FileSupport.tempURL("caf")
        let m4a = FileSupport.tempURL("m4a")
        defer { [caf, m4a].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = Self.signal(frames: 30_000)
        try Self.write(caf, type: kAudioFileCAFType, format: Self.alac(), source)
        var input: AudioFileID?
        try #require(AudioFileOpenURL(caf as CFURL, .readPermission, 0, &input) == noErr)
        defer { AudioFileClose(input!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioFileGetProperty(input!, kAudioFilePropertyDataFormat, &size, &format) == noErr)
        var cookieSize: UInt32 = 0
        try #require(AudioFileGetPropertyInfo(input!, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        try #require(AudioFileGetProperty(input!, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        var table = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        try #require(AudioFileGetProperty(input!, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr)

        var output: AudioFileID?
        try #require(AudioFileCreateWithURL(m4a as CFURL, kAudioFileM4AType, &format, .eraseFile, &output) == noErr)
        #expect(AudioFileSetProperty(output!, kAudioFilePropertyMagicCookieData, cookieSize, cookie) == noErr)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 64)
        var packet: Int64 = 0
        while true {
            var n: UInt32 = 64, bytes = UInt32(buffer.count)
            try #require(AudioFileReadPacketData(input!, false, &bytes, &descriptions, packet, &n, &buffer) == noErr)
            if n == 0 { break }
            #expect(AudioFileWritePackets(output!, false, bytes, descriptions, packet, &n, buffer) == noErr)
            packet += Int64(n)
        }
        #expect(AudioFileSetProperty(output!, kAudioFilePropertyPacketTableInfo, size, &table) == noErr)
        #expect(AudioFileClose(output!) == noErr)
        #expect(try MP3FileTests.ffmpegFloats(m4a) == source.map { Float($0) / 32768 })
        let (_, packets, back, _, _) = try MP4FileTests.properties(m4a)
        #expect(Int64(packets) == packet)
        #expect(back.mNumberValidFrames == 30_000 && back.mPrimingFrames == table.mPrimingFrames && back.mRemainderFrames == table.mRemainderFrames)
    }

    /// ffmpeg's M4A (its 'moov' after 'mdat', with its own metadata): AudioFileOptimize on the file opened for writing
    /// moves the 'moov' in front, keeps ffmpeg's tags, and ffmpeg decodes the same samples as before.
    @Test func optimizeAnFFmpegFile() throws {
        let url = try MP4FileTests.make("m4a", codec: ["-c:a", "alac"])
        defer { try? FileManager.default.removeItem(at: url) }
        let before = try MP3FileTests.ffmpegFloats(url)
        let order = try Self.topLevelBoxes(url)
        try #require(order.firstIndex(of: "moov")! > order.firstIndex(of: "mdat")!, "ffmpeg wrote \(order)")
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &file) == noErr)
        #expect(AudioFileOptimize(file!) == noErr)
        #expect(AudioFileClose(file!) == noErr)
        let after = try Self.topLevelBoxes(url)
        #expect(after.firstIndex(of: "moov")! < after.firstIndex(of: "mdat")!, "\(after)")
        #expect(try MP3FileTests.ffmpegFloats(url) == before)
        #expect(try Self.ffprobe(url, "format_tags=title") == "In A Box")
    }
}
