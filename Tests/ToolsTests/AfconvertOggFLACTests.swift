import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// afconvert into Ogg FLAC (`-f OggS -d flac`) beyond 16-bit stereo: 24-bit stereo, 8-bit mono, 16- and 24-bit 5.1.
/// The encoder keeps the source's depth (8-bit is stored as 16-bit: Apple's lossless flags name no 8-bit depth);
/// `flac -d` (which checks the STREAMINFO's MD5) and ffmpeg decode the file to the source's samples exactly, and
/// ExtAudioFile reads the same samples back with the source's length.
@Suite struct AfconvertOggFLACTests {
    /// Samples as left-aligned 32-bit integers (sox's conversion: a depth change is a shift, exact).
    static func int32Samples(_ url: URL) throws -> [Int32] {
        let raw = Fixture.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        _ = try SoundCheckTests.require("/usr/bin/sox", [url.path, "-t", "raw", "-e", "signed", "-b", "32", "-L", raw.path])
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
    }

    @Test(arguments: [(24, 2), (8, 1), (16, 6), (24, 6)])
    func oggFLACKeepsTheSamples(_ spec: (Int, Int)) throws {
        let (bits, channels) = spec
        let frames = 62_400  // 1.3 s at 48 kHz
        let wav = Fixture.tempURL("wav"), oga = Fixture.tempURL("oga"), decoded = Fixture.tempURL("wav"), raw = Fixture.tempURL("raw")
        defer { [wav, oga, decoded, raw].forEach { try? FileManager.default.removeItem(at: $0) } }
        // A different tone in each channel under noise, so that no channel is constant or a copy of another.
        let tones = [440, 660, 550, 770, 330, 990].prefix(channels).flatMap { ["sine", "\($0)"] }
        _ = try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", "48000", "-b", "\(bits)", "-c", "\(channels)", wav.path,
                                                         "synth", "1.3"] + tones + ["vol", "0.6", "dither", "-s"])
        let source = try Self.int32Samples(wav)
        try #require(source.count == frames * channels)
        let r = try Tools.run("afconvert", ["-f", "OggS", "-d", "flac", wav.path, oga.path])
        try #require(r.status == 0, "afconvert: \(r.stderr)")

        // flac's decode: the source's depth (16 for 8-bit) in its WAVE header, and the source's samples.
        _ = try SoundCheckTests.require("/usr/bin/flac", ["-d", "-s", "-f", "-o", decoded.path, oga.path])
        let header = [UInt8](try Data(contentsOf: decoded).prefix(36))
        #expect(Int(header[34]) | Int(header[35]) << 8 == max(bits, 16))
        let flacs = try Self.int32Samples(decoded)
        #expect(flacs.count == source.count && flacs == source, "flac -d: \(flacs.count / channels) frames of \(frames)")

        _ = try SoundCheckTests.require("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", oga.path, "-f", "s32le", raw.path])
        let ffmpegs = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(ffmpegs.count == source.count && ffmpegs == source, "ffmpeg: \(ffmpegs.count / channels) frames of \(frames)")

        // Ours: the file's description, its length and its samples as 32-bit integers.
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(oga as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileDataFormat, &size, &format)
        #expect(format.mFormatID == kAudioFormatFLAC && format.mChannelsPerFrame == UInt32(channels) && format.mSampleRate == 48000)
        #expect(format.mFormatFlags == (bits == 24 ? kAppleLosslessFormatFlag_24BitSourceData : kAppleLosslessFormatFlag_16BitSourceData))
        var length: Int64 = 0
        size = 8
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        #expect(length == Int64(frames))
        var client = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: UInt32(4 * channels), mFramesPerPacket: 1, mBytesPerFrame: UInt32(4 * channels),
                                                 mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        let ours: [Int32] = try ExtFileIO.readToEnd(x!, channels: channels, chunk: 4096)
        #expect(ours.count == source.count && ours == source, "ExtAudioFile: \(ours.count / channels) frames of \(frames)")
    }

    /// ExtAudioFile writing Ogg FLAC itself, 24-bit 5.1 from a 32-bit integer client (24-bit samples aligned high):
    /// `flac -d` and ffmpeg give back exactly those samples, and the STREAMINFO says 24 bits and 6 channels.
    @Test func extAudioFileWrites24BitSixChannels() throws {
        let channels = 6, frames = 30_000
        let oga = Fixture.tempURL("oga"), decoded = Fixture.tempURL("wav"), raw = Fixture.tempURL("raw")
        defer { [oga, decoded, raw].forEach { try? FileManager.default.removeItem(at: $0) } }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 48000
        format.mFormatID = kAudioFormatFLAC
        format.mFormatFlags = kAppleLosslessFormatFlag_24BitSourceData
        format.mChannelsPerFrame = UInt32(channels)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(oga as CFURL, AudioFileTypeID(0x4F67_6753), &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: UInt32(4 * channels), mFramesPerPacket: 1, mBytesPerFrame: UInt32(4 * channels),
                                                 mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        // A tone per channel near full scale with 24-bit noise in the low bits.
        var seed: UInt32 = 99
        var source = (0..<(channels * frames)).map { i -> Int32 in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let tone = 7_000_000 * sin(2 * Double.pi * Double(300 + 110 * (i % channels)) * Double(i / channels) / 48000)
            return (Int32(tone) + Int32(seed >> 20) - 2048) << 8
        }
        let status = source.withUnsafeMutableBytes { b -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(b.count), mData: b.baseAddress))
            return ExtAudioFileWrite(x!, UInt32(frames), &list)
        }
        try #require(status == noErr)
        try #require(ExtAudioFileDispose(x!) == noErr)
        _ = try SoundCheckTests.require("/usr/bin/flac", ["-d", "-s", "-f", "-o", decoded.path, oga.path])
        let header = [UInt8](try Data(contentsOf: decoded).prefix(36))
        #expect(Int(header[22]) == channels && Int(header[34]) == 24)
        let flacs = try Self.int32Samples(decoded)
        #expect(flacs.count == source.count && flacs == source, "flac -d: \(flacs.count / channels) frames of \(frames)")
        _ = try SoundCheckTests.require("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", oga.path, "-f", "s32le", raw.path])
        let ffmpegs = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(ffmpegs.count == source.count && ffmpegs == source)
    }
}
