import AudioToolbox
import Foundation
import Testing

/// ffmpeg as a second independent reader and writer.
@Suite struct FFmpegInteropTests {
    static var ffmpeg: String? { ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) } }

    /// ffmpeg's decoding of a file as interleaved s32le.
    static func decode(_ url: URL) throws -> [Int32] {
        let ffmpeg = try #require(Self.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, out) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", url.path, "-f", "s32le", "-acodec", "pcm_s32le", raw.path])
        try #require(status == 0, "ffmpeg: \(out)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
    }

    @Test(arguments: [(kAudioFileWAVEType, "wav", 16, false), (kAudioFileWAVEType, "wav", 24, false), (kAudioFileWAVEType, "wav", 32, true),
                      (kAudioFileAIFFType, "aiff", 16, false), (kAudioFileAIFCType, "aifc", 24, false), (kAudioFileAIFCType, "aifc", 32, true), (kAudioFileCAFType, "caf", 16, false),
                      (kAudioFileCAFType, "caf", 24, false), (kAudioFileRF64Type, "wav", 16, false)])
    func ffmpegReadsWhatWeWrite(_ spec: (AudioFileTypeID, String, Int, Bool)) throws {
        let url = FileSupport.tempURL(spec.1)
        defer { try? FileManager.default.removeItem(at: url) }
        let big = spec.0 == kAudioFileAIFFType || spec.0 == kAudioFileAIFCType
        let fileFormat = OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: UInt32(spec.2), isFloat: spec.3,
                                             interleaved: true, bigEndian: big)
        var ff = fileFormat
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, spec.0, &ff, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        // Values on the 16-bit grid, so every written depth holds them exactly.
        var values = (0..<2000).map { Int32(truncatingIfNeeded: (($0 &* 2_654_435_761) >> 16) << 16) }
        values.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            #expect(ExtAudioFileWrite(x!, 1000, &list) == noErr)
        }
        #expect(ExtAudioFileDispose(x!) == noErr)
        let decoded = try Self.decode(url)
        #expect(decoded.count == values.count)
        let differing = zip(decoded, values).filter { abs(Int64($0) - Int64($1)) > (spec.3 ? 256 : 0) }.count
        #expect(differing == 0, "\(differing) samples differ")
    }

    @Test(arguments: [("wav", "pcm_s16le"), ("wav", "pcm_s24le"), ("wav", "pcm_s32le"), ("wav", "pcm_f32le"), ("wav", "pcm_u8"),
                      ("aiff", "pcm_s16be"), ("aiff", "pcm_s24be"), ("caf", "pcm_s16le"), ("caf", "pcm_s24be"), ("caf", "pcm_f32be")])
    func weReadWhatFFmpegWrites(_ spec: (String, String)) throws {
        let ffmpeg = try #require(Self.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let url = FileSupport.tempURL(spec.0)
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, out) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=16000:duration=0.1",
                                                         "-ac", "2", "-acodec", spec.1, url.path])
        try #require(status == 0, "ffmpeg: \(out)")
        let expected = try Self.decode(url)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = OCAFormat.linearPCM(sampleRate: 16000, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var samples = [Int32](repeating: 0, count: expected.count)
        var frames = UInt32(expected.count / 2)
        samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            #expect(ExtAudioFileRead(x!, &frames, &list) == noErr)
        }
        #expect(Int(frames) * 2 == expected.count)
        // Float to integer differs by rounding between implementations: allow 1 LSB of 24 bits there.
        let tolerance: Int64 = spec.1.contains("f32") ? 256 : 0
        let differing = zip(samples, expected).filter { abs(Int64($0) - Int64($1)) > tolerance }.count
        #expect(differing == 0, "\(differing) samples differ")
    }
}
