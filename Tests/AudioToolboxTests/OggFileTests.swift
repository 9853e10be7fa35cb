import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// Ogg through AudioFile, ExtAudioFile and AudioFileStream: Opus and FLAC files ffmpeg writes into Ogg read
/// with ffmpeg's description (pre-skip as priming, the last granule's end trim as remainder, tags into the
/// info dictionary); Opus decodes to what ffmpeg's libopus decode gives, FLAC bit-exactly; seeks land on
/// the linear decode; the stream parser fed 1- and 7-byte pieces hands out the file's packets.
@Suite struct OggFileTests {
    /// 'OggS': the package's type for Ogg (Apple has none).
    static let oggType = OCAFormat.fourCharCode("OggS")

    /// An ffmpeg-made file: a stereo tone of `frames` frames, coded with `codec` into Ogg, with tags.
    static func make(_ ext: String, codec: [String], rate: Int, frames: Int, container: String = "ogg") throws -> URL {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let url = FileSupport.tempURL(ext)
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                          "sine=frequency=440:sample_rate=\(rate),aformat=channel_layouts=stereo,volume=0.5,atrim=end_sample=\(frames)"]
                                                 + codec + ["-metadata", "title=Ogg Title", "-metadata", "artist=Ogg Artist",
                                                            "-metadata", "album=Ogg Album", "-f", container, url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return url
    }

    static func opus(frames: Int) throws -> URL {
        try make("opus", codec: ["-c:a", "libopus", "-b:a", "128k"], rate: 48000, frames: frames)
    }

    static func property<T>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> (OSStatus, T) {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        let status = AudioFileGetProperty(file, id, &size, &value)
        return (status, value)
    }

    /// ffmpeg's decode as interleaved Float32, through libopus for Opus (the decoder ours uses).
    static func ffmpegFloats(_ url: URL, libopus: Bool) throws -> [Float] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y"] + (libopus ? ["-c:a", "libopus"] : []) + ["-i", url.path, "-f", "f32le", raw.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func snr(_ reference: [Float], _ test: [Float]) -> Double {
        var s = 0.0, e = 0.0
        for i in 0..<min(reference.count, test.count) {
            s += Double(reference[i]) * Double(reference[i])
            e += Double(reference[i] - test[i]) * Double(reference[i] - test[i])
        }
        return 10 * log10(s / max(e, 1e-30))
    }

    @Test func opusDescriptionPrimingAndTags() throws {
        let frames = 48000 + 12_345
        let url = try Self.opus(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        let f = try #require(file)
        defer { AudioFileClose(f) }
        #expect(Self.property(f, kAudioFilePropertyFileFormat, AudioFileTypeID(0)).1 == Self.oggType)
        let format = Self.property(f, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(format.mFormatID == kAudioFormatOpus && format.mSampleRate == 48000 && format.mChannelsPerFrame == 2 && format.mFramesPerPacket == 960)
        let table = Self.property(f, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mPrimingFrames == 312)
        #expect(table.mNumberValidFrames == Int64(frames))
        let packets = Self.property(f, kAudioFilePropertyAudioDataPacketCount, UInt64(0)).1
        #expect(Int64(packets) * 960 == table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames))
        var cookieSize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(f, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        #expect(AudioFileGetProperty(f, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        #expect(cookie.starts(with: Array("OpusHead".utf8)) && cookie.count == 19)
        var info: Unmanaged<CFDictionary>?
        var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        #expect(AudioFileGetProperty(f, kAudioFilePropertyInfoDictionary, &size, &info) == noErr)
        let dictionary = try #require(info?.takeRetainedValue() as? [String: Any])
        #expect(dictionary[kAFInfoDictionary_Title] as? String == "Ogg Title")
        #expect(dictionary[kAFInfoDictionary_Artist] as? String == "Ogg Artist")
        #expect(dictionary[kAFInfoDictionary_Album] as? String == "Ogg Album")
        // Every packet, with descriptions, in buffers of any size.
        var buffer = [UInt8](repeating: 0, count: 10_000)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 64)
        var start: Int64 = 0
        while true {
            var bytes = UInt32(buffer.count)
            var count: UInt32 = 64
            try #require(AudioFileReadPacketData(f, false, &bytes, &descriptions, start, &count, &buffer) == noErr)
            if count == 0 { break }
            for d in descriptions.prefix(Int(count)) {
                #expect(d.mDataByteSize > 0 && d.mVariableFramesInPacket == 0)
                // Every packet is a 20 ms Opus packet: its TOC's frame size code says so.
                #expect(buffer[Int(d.mStartOffset)] >> 3 & 3 == 3)
            }
            start += Int64(count)
        }
        #expect(start == Int64(packets))
    }

    /// The decode: the same number of frames as ffmpeg's (pre-skip and end trim honoured), and the same
    /// samples as ffmpeg's libopus decode.
    @Test(arguments: [48000, 48000 + 12_345, 7 * 960 + 1])
    func opusDecodesAsFFmpeg(_ frames: Int) throws {
        let url = try Self.opus(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let (ours, length) = try OpusFileTests.readFloats(url)
        let theirs = try Self.ffmpegFloats(url, libopus: true)
        #expect(length == Int64(frames))
        #expect(ours.count == 2 * frames && theirs.count == 2 * frames)
        let snr = Self.snr(theirs, ours)
        #expect(snr >= 60, "SNR \(snr) dB")
    }

    /// ExtAudioFileSeek to random frames gives the linear decode's frames (Opus leans on the packets before:
    /// after the codec's preroll they agree to well below the codec's own noise).
    @Test func opusSeeksLandOnTheLinearDecode() throws {
        let frames = 3 * 48000
        let url = try Self.opus(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let (linear, _) = try OpusFileTests.readFloats(url)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var worst = Double.infinity
        var all: [(Double, Int)] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let frame = Int.random(in: 0..<(frames - 500), using: &rng)
            #expect(ExtAudioFileSeek(x!, Int64(frame)) == noErr)
            var tell: Int64 = -1
            ExtAudioFileTell(x!, &tell)
            #expect(tell == Int64(frame))
            var buffer = [Float](repeating: 0, count: 1000)
            var n: UInt32 = 500
            buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 4000, mData: raw.baseAddress))
                _ = ExtAudioFileRead(x!, &n, &list)
            }
            #expect(n == 500)
            worst = min(worst, Self.snr(Array(linear[(2 * frame)..<(2 * frame + 1000)]), buffer))
            all.append((Self.snr(Array(linear[(2 * frame)..<(2 * frame + 1000)]), buffer), frame))
        }
        #expect(worst >= 80, "worst SNR \(worst) dB \(all.sorted { $0.0 < $1.0 })")
    }

    /// FLAC in Ogg: bit-exact against ffmpeg's decode and the same cookie as the native container's file.
    @Test func flacInOggIsBitExact() throws {
        let frames = 44100 + 777
        let oga = try Self.make("oga", codec: ["-c:a", "flac"], rate: 44100, frames: frames)
        defer { try? FileManager.default.removeItem(at: oga) }
        let theirs = try FFmpegInteropTests.decode(oga)
        let (ours, length) = try FLACFileTests.readInt32(oga, channels: 2)
        #expect(length == Int64(frames))
        #expect(theirs.count == 2 * frames && ours == theirs)
        var file: AudioFileID?
        try #require(AudioFileOpenURL(oga as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        let format = Self.property(file!, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()).1
        #expect(format.mFormatID == kAudioFormatFLAC && format.mSampleRate == 44100 && format.mChannelsPerFrame == 2 && format.mFramesPerPacket == 4608)
        var info: Unmanaged<CFDictionary>?
        var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &info) == noErr)
        let dictionary = try #require(info?.takeRetainedValue() as? [String: Any])
        #expect(dictionary[kAFInfoDictionary_Title] as? String == "Ogg Title")
        var cookieSize: UInt32 = 0
        AudioFileGetPropertyInfo(file!, kAudioFilePropertyMagicCookieData, &cookieSize, nil)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        AudioFileGetProperty(file!, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie)
        // The native file's STREAMINFO from the same encoder: the same but for the MD5 (ffmpeg writes it only where
        // it can seek back, and Ogg's STREAMINFO comes first); the total from the last granule position.
        let nativeFile = try Self.make("flac", codec: ["-c:a", "flac"], rate: 44100, frames: frames, container: "flac")
        defer { try? FileManager.default.removeItem(at: nativeFile) }
        var nf: AudioFileID?
        try #require(AudioFileOpenURL(nativeFile as CFURL, .readPermission, 0, &nf) == noErr)
        defer { AudioFileClose(nf!) }
        var nativeSize: UInt32 = 0
        AudioFileGetPropertyInfo(nf!, kAudioFilePropertyMagicCookieData, &nativeSize, nil)
        var nativeCookie = [UInt8](repeating: 0, count: Int(nativeSize))
        AudioFileGetProperty(nf!, kAudioFilePropertyMagicCookieData, &nativeSize, &nativeCookie)
        #expect(cookie.count == nativeCookie.count && cookie.count == 50)
        // Block sizes, then rate, channels, depth and total; frame sizes are ffmpeg's estimates in the Ogg header.
        #expect(cookie[16..<20] == nativeCookie[16..<20] && cookie[26..<34] == nativeCookie[26..<34], "\(cookie) vs \(nativeCookie)")
    }

    /// Ogg FLAC written through ExtAudioFile (16-bit source, the Ogg FLAC mapping): `flac -d` (which checks the
    /// STREAMINFO's MD5 too) and ffmpeg decode it to the source's samples exactly, with the source's length; we
    /// read it back the same; the STREAMINFO's total is the frame count.
    @Test(arguments: [(2, 2 * 44100 + 777), (1, 1000)])
    func writesOggFLACThatFlacAndFFmpegDecodeExactly(_ spec: (Int, Int)) throws {
        let (channels, frames) = spec
        let url = FileSupport.tempURL("oga")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 44100
        format.mFormatID = kAudioFormatFLAC
        format.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
        format.mChannelsPerFrame = UInt32(channels)
        let client = OCAFormat.linearPCM(sampleRate: 44100, channels: UInt32(channels), bitsPerChannel: 16, isFloat: false, interleaved: true)
        // A tone with a little noise (so that the frames are not all verbatim or constant).
        var seed: UInt32 = 12345
        let source = (0..<(channels * frames)).map { i -> Int16 in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Int16(9000 * sin(2 * Double.pi * Double(440 + 220 * (i % channels)) * Double(i / channels) / 44100)) + Int16(Int(seed >> 24) - 128)
        }
        try ExtFileIO.write(source, to: url, type: Self.oggType, format: format, client: client)

        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run("/usr/bin/flac", ["-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw.path, url.path])
        try #require(status == 0, "flac: \(text)")
        let flacs = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(flacs.count == source.count && flacs == source, "flac -d: \(flacs.count / channels) frames of \(frames)")
        let theirs = try FFmpegInteropTests.decode(url)
        #expect(theirs.count == source.count && theirs == source.map { Int32($0) << 16 }, "ffmpeg: \(theirs.count / channels) frames of \(frames)")
        let (ours, length) = try FLACFileTests.readInt32(url, channels: UInt32(channels))
        #expect(length == Int64(frames) && ours == theirs)
        // STREAMINFO's total samples (36 bits at byte 13 of the block, after the 17-byte mapping prefix).
        let head = [UInt8](try Data(contentsOf: url).prefix(28 + 51))
        #expect(Array(head[28..<33]) == [0x7F] + Array("FLAC".utf8) && Array(head[37..<41]) == Array("fLaC".utf8))
        let total = head[(28 + 17 + 13)..<(28 + 17 + 18)].reduce(Int64(0)) { $0 << 8 | Int64($1) } & 0xF_FFFF_FFFF
        #expect(total == Int64(frames))
    }

    /// The info dictionary set on an Ogg file before its audio lands in OpusTags / the Vorbis comment block under
    /// the comment names the reader maps back (TITLE, ARTIST, ALBUM, DATE, GENRE): ffprobe shows them, and the file
    /// reopened gives the same dictionary; set after audio it answers kAudioFileOperationNotSupportedError.
    @Test(arguments: [kAudioFormatOpus, kAudioFormatFLAC])
    func infoDictionaryBecomesOggComments(_ formatID: AudioFormatID) throws {
        let url = FileSupport.tempURL(formatID == kAudioFormatOpus ? "opus" : "oga")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 48000
        format.mFormatID = formatID
        format.mFormatFlags = formatID == kAudioFormatFLAC ? kAppleLosslessFormatFlag_16BitSourceData : 0
        format.mChannelsPerFrame = 2
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, Self.oggType, &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var file: AudioFileID?
        var size = UInt32(MemoryLayout<AudioFileID?>.size)
        try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_AudioFile, &size, &file) == noErr)
        let tags: [String: String] = [kAFInfoDictionary_Title: "Ogg Title é", kAFInfoDictionary_Artist: "An Artist", kAFInfoDictionary_Album: "The Album",
                                      kAFInfoDictionary_Year: "2026", kAFInfoDictionary_Genre: "Test"]
        var dictionary: CFDictionary = tags as CFDictionary
        try #require(AudioFileSetProperty(file!, kAudioFilePropertyInfoDictionary, UInt32(MemoryLayout<CFDictionary>.size), &dictionary) == noErr)
        var client = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        let source = (0..<(2 * 48000)).map { Int16(8000 * sin(Double($0 / 2) * 0.05)) }
        try ExtFileIO.write(x!, source, channels: 2, slice: { _ in .max })
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyInfoDictionary, UInt32(MemoryLayout<CFDictionary>.size), &dictionary) == kAudioFileOperationNotSupportedError)
        try #require(ExtAudioFileDispose(x!) == noErr)

        let (probe, text) = try FileSupport.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream_tags:format_tags", "-of", "default=nw=1", url.path])
        try #require(probe == 0, "ffprobe: \(text)")
        for line in ["TITLE=Ogg Title é", "ARTIST=An Artist", "ALBUM=The Album", "DATE=2026", "GENRE=Test"] {
            #expect(text.uppercased().contains(line.uppercased()), "ffprobe: \(text)")
        }
        var reopened: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &reopened) == noErr)
        defer { AudioFileClose(reopened!) }
        var info: Unmanaged<CFDictionary>?
        size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        try #require(AudioFileGetProperty(reopened!, kAudioFilePropertyInfoDictionary, &size, &info) == noErr)
        let read = try #require(info?.takeRetainedValue() as? [String: Any])
        for (key, value) in tags { #expect(read[key] as? String == value, "\(key)") }
    }

    /// FLAC in Ogg seeks exactly.
    @Test func flacInOggSeeksAreExact() throws {
        let frames = 100_000
        let oga = try Self.make("oga", codec: ["-c:a", "flac"], rate: 44100, frames: frames)
        defer { try? FileManager.default.removeItem(at: oga) }
        let (linear, _) = try FLACFileTests.readInt32(oga, channels: 2)
        #expect(linear == (try FFmpegInteropTests.decode(oga)))
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(oga as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var mismatches = 0
        var bad: [Int] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let frame = Int.random(in: 0..<(frames - 50), using: &rng)
            ExtAudioFileSeek(x!, Int64(frame))
            var buffer = [Int32](repeating: 0, count: 100)
            var n: UInt32 = 50
            buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 400, mData: raw.baseAddress))
                _ = ExtAudioFileRead(x!, &n, &list)
            }
            if n != 50 || buffer != Array(linear[(2 * frame)..<(2 * frame + 100)]) { mismatches += 1; bad.append(frame) }
        }
        #expect(mismatches == 0, "\(bad.sorted())")
    }

    /// The packets a file holds, as AudioFileReadPacketData gives them.
    static func filePackets(_ url: URL) throws -> [[UInt8]] {
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var out: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 64)
        while true {
            var bytes = UInt32(buffer.count)
            var count: UInt32 = 64
            try #require(AudioFileReadPacketData(file!, false, &bytes, &descriptions, Int64(out.count), &count, &buffer) == noErr)
            if count == 0 { break }
            for d in descriptions.prefix(Int(count)) { out.append(Array(buffer[Int(d.mStartOffset)..<(Int(d.mStartOffset) + Int(d.mDataByteSize))])) }
        }
        return out
    }

    final class StreamCollector {
        var properties: [AudioFileStreamPropertyID] = []
        var packets: [[UInt8]] = []
    }

    static let listener: AudioFileStream_PropertyListenerProc = { refCon, _, id, _ in
        Unmanaged<StreamCollector>.fromOpaque(refCon).takeUnretainedValue().properties.append(id)
    }
    static let packetsProc: AudioFileStream_PacketsProc = { refCon, _, packets, data, descriptions in
        let c = Unmanaged<StreamCollector>.fromOpaque(refCon).takeUnretainedValue()
        for i in 0..<Int(packets) {
            let d = descriptions![i]
            c.packets.append(Array(UnsafeRawBufferPointer(start: data + Int(d.mStartOffset), count: Int(d.mDataByteSize))))
        }
    }

    /// AudioFileStream fed the file in 1- and 7-byte pieces (and whole) announces the file's description,
    /// cookie and packet table and hands out exactly the packets AudioFile reads.
    @Test(arguments: [("opus", 1), ("opus", 7), ("opus", 1 << 30), ("oga", 7)])
    func streamGivesTheFilesPackets(_ spec: (String, Int)) throws {
        let url = spec.0 == "opus" ? try Self.opus(frames: 20_000)
            : try Self.make("oga", codec: ["-c:a", "flac"], rate: 44100, frames: 20_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try Self.filePackets(url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let c = StreamCollector()
        var st: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(c).toOpaque(), Self.listener, Self.packetsProc, 0, &st) == noErr)
        defer { AudioFileStreamClose(st!) }
        var offset = 0
        while offset < bytes.count {
            let n = min(spec.1, bytes.count - offset)
            let status = bytes.withUnsafeBytes { AudioFileStreamParseBytes(st!, UInt32(n), $0.baseAddress! + offset, []) }
            try #require(status == noErr)
            offset += n
        }
        #expect(c.properties.contains(kAudioFileStreamProperty_ReadyToProducePackets))
        var type: AudioFileTypeID = 0
        var size: UInt32 = 4
        #expect(AudioFileStreamGetProperty(st!, kAudioFileStreamProperty_FileFormat, &size, &type) == noErr && type == Self.oggType)
        var format = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileStreamGetProperty(st!, kAudioFileStreamProperty_DataFormat, &size, &format) == noErr)
        #expect(format.mFormatID == (spec.0 == "opus" ? kAudioFormatOpus : kAudioFormatFLAC))
        if spec.0 == "opus" {
            var table = AudioFilePacketTableInfo()
            size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
            #expect(AudioFileStreamGetProperty(st!, kAudioFileStreamProperty_PacketTableInfo, &size, &table) == noErr && table.mPrimingFrames == 312)
        }
        #expect(c.packets.count == expected.count && c.packets == expected)
    }

    /// Damaged files: a page whose checksum fails is skipped (its packets lost, the rest read), junk between
    /// pages is passed over, a truncated file reads what it holds; none of it crashes.
    @Test func damagedPagesAreSkipped() throws {
        let url = try Self.opus(frames: 6 * 48000)
        defer { try? FileManager.default.removeItem(at: url) }
        let whole = try Self.filePackets(url)
        var bytes = [UInt8](try Data(contentsOf: url))
        // The capture patterns: pages 0 and 1 are the headers; spoil a byte in the body of page 3.
        var pages: [Int] = []
        for i in 0..<(bytes.count - 4) where bytes[i] == 0x4F && bytes[i + 1] == 0x67 && bytes[i + 2] == 0x67 && bytes[i + 3] == 0x53 { pages.append(i) }
        try #require(pages.count >= 5)
        bytes[pages[3] + 40] ^= 0x55
        // Junk between pages 4 and 5.
        bytes.insert(contentsOf: Array("junk OggS junk".utf8), at: pages[4])
        let damaged = FileSupport.tempURL("opus")
        defer { try? FileManager.default.removeItem(at: damaged) }
        try Data(bytes).write(to: damaged)
        let packets = try Self.filePackets(damaged)
        #expect(packets.count < whole.count && packets.count >= whole.count - 60)
        #expect(Array(packets.suffix(10)) == Array(whole.suffix(10)))
        // Truncated in the middle of a page: the packets before it.
        let cut = FileSupport.tempURL("opus")
        defer { try? FileManager.default.removeItem(at: cut) }
        try Data(bytes.prefix(pages[4] + 100)).write(to: cut)
        let some = try Self.filePackets(cut)
        #expect(!some.isEmpty && some.count < packets.count)
        let (floats, _) = try OpusFileTests.readFloats(damaged)
        #expect(floats.count > 0)
    }
}

extension OggFileTests {
    /// Ogg Opus written through ExtAudioFile: ffprobe sees the stream, ffmpeg decodes exactly the source's
    /// length (our pre-skip and end trim honoured) close to the source; we read it back the same; a page
    /// per second, a packet longer than a page continues on the next.
    @Test(arguments: [48000 + 333, 5 * 48000 + 17, 100])
    func writesOggOpusThatFFmpegReads(_ frames: Int) throws {
        let url = FileSupport.tempURL("opus")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 48000
        format.mFormatID = kAudioFormatOpus
        format.mChannelsPerFrame = 2
        let client = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        let source = OpusFileTests.source(frames: frames)
        // In uneven slices, as a recorder writes.
        try ExtFileIO.write(source, to: url, type: Self.oggType, format: format, client: client)
        let ffprobe = "/usr/bin/ffprobe"
        let (status, text) = try FileSupport.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,initial_padding,duration_ts", "-of", "csv=p=0", url.path])
        try #require(status == 0, "ffprobe: \(text)")
        #expect(text.contains("opus"), "\(text)")
        let theirs = try Self.ffmpegFloats(url, libopus: true)
        #expect(theirs.count == 2 * frames, "ffmpeg decoded \(theirs.count / 2) frames of \(frames)")
        let (ours, length) = try OpusFileTests.readFloats(url)
        #expect(length == Int64(frames) && ours.count == 2 * frames)
        #expect(Self.snr(theirs, ours) >= 60)
        if frames > 4000 {
            // In time with the source (the priming cut exactly), within Opus's error at 128 kb/s.
            let snr = Self.snr(source, ours)
            #expect(snr > 20, "SNR \(snr) dB")
        }
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        let table = Self.property(file!, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()).1
        #expect(table.mNumberValidFrames == Int64(frames) && table.mPrimingFrames > 0)
    }

    /// AudioFileWritePackets: a packet of 65,300 bytes (longer than a page holds) is split over pages and read back whole.
    @Test func longPacketsContinueOnTheNextPage() throws {
        let url = FileSupport.tempURL("opus")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 48000
        format.mFormatID = kAudioFormatOpus
        format.mChannelsPerFrame = 1
        format.mFramesPerPacket = 960
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, Self.oggType, &format, .eraseFile, &file) == noErr)
        // A code-3 CELT packet (TOC 0xF8 | 3: 20 ms frames, the count byte says 1) padded far past a page.
        let packets: [[UInt8]] = [[0xFB, 0x01] + [UInt8](repeating: 7, count: 65_300), [0xF8, 1, 2, 3], [0xFB, 0x01] + [UInt8](repeating: 9, count: 255 * 3 - 2)]
        for (i, p) in packets.enumerated() {
            var d = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(p.count))
            var n: UInt32 = 1
            #expect(AudioFileWritePackets(file!, false, UInt32(p.count), &d, Int64(i), &n, p) == noErr)
        }
        #expect(AudioFileClose(file!) == noErr)
        #expect(try Self.filePackets(url) == packets)
    }
}
