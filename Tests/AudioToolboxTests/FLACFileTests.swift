import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// FLAC through AudioFile and ExtAudioFile: files the reference `flac` tool made are read bit-exactly
/// with their tags; files we write pass `flac -t` (STREAMINFO's MD5 included) and decode to the source
/// in `flac` and ffmpeg; seeks land exactly.
@Suite struct FLACFileTests {
    static func flacTool() throws -> String {
        try #require(["/usr/bin/flac", "/usr/local/bin/flac"].first { FileManager.default.isExecutableFile(atPath: $0) },
                     "flac is missing: run scripts/setup.sh")
    }

    /// A sox-made WAV: a tone plus pink noise, `bits` deep.
    static func makeWAV(frames: Int, rate: Int = 44100, channels: Int = 2, bits: Int = 16) throws -> URL {
        let sox = try #require(FileSupport.sox, "sox is missing")
        let url = FileSupport.tempURL("wav")
        let (status, text) = try FileSupport.run(sox, ["-D", "-r", "\(rate)", "-n", "-b", "\(bits)", "-c", "\(channels)", url.path,
                                                       "synth", "\(frames)s", "sine", "440", "pinknoise", "vol", "0.4"])
        try #require(status == 0, "sox: \(text)")
        return url
    }

    /// Interleaved Int32 (full scale 2^31) through ExtAudioFile, and the length it reports.
    static func readInt32(_ url: URL, channels: UInt32) throws -> ([Int32], Int64) {
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = OCAFormat.linearPCM(sampleRate: 0, channels: channels, bitsPerChannel: 32, isFloat: false, interleaved: true)
        var file = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileDataFormat, &size, &file)
        client.mSampleRate = file.mSampleRate
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, size, &client) == noErr)
        return (try ExtFileIO.readToEnd(x!, channels: Int(channels), chunk: 3000), ExtFileIO.lengthFrames(x!))
    }

    /// Files made by `flac` at several levels, depths and channel counts read exactly, tags included.
    @Test(arguments: [(16, 2, 44100, "-5", 50_000), (24, 2, 96000, "-8", 30_001), (16, 1, 22050, "-0", 12_345), (16, 6, 48000, "-5", 20_000)])
    func readsWhatFlacWrites(_ spec: (Int, Int, Int, String, Int)) throws {
        let wav = try Self.makeWAV(frames: spec.4, rate: spec.2, channels: spec.1, bits: spec.0)
        let flac = FileSupport.tempURL("flac")
        defer { [wav, flac].forEach { try? FileManager.default.removeItem(at: $0) } }
        let (status, text) = try FileSupport.run(try Self.flacTool(), ["-s", "-f", spec.3, "-T", "TITLE=Reference", "-T", "ARTIST=libFLAC",
                                                                       "-o", flac.path, wav.path])
        try #require(status == 0, "flac: \(text)")
        let (ours, length) = try Self.readInt32(flac, channels: UInt32(spec.1))
        let expected = try FileSupport.soxSamples(wav)
        #expect(length == Int64(spec.4))
        #expect(ours.count == expected.count && ours == expected, "decoded samples differ from the source")
        var file: AudioFileID?
        try #require(AudioFileOpenURL(flac as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &format)
        #expect(format.mFormatID == kAudioFormatFLAC && format.mChannelsPerFrame == UInt32(spec.1) && format.mSampleRate == Double(spec.2))
        var dictionary: CFDictionary?
        size = UInt32(MemoryLayout<CFDictionary?>.size)
        AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &dictionary)
        let info = dictionary as? [String: Any]
        #expect(info?["title"] as? String == "Reference" && info?["artist"] as? String == "libFLAC")
    }

    /// What we write: `flac -t` accepts it (frame CRCs and STREAMINFO's MD5) and `flac -d` and ffmpeg
    /// decode it to the source samples, in native FLAC and in CAF (which ffmpeg reads too).
    @Test(arguments: [(16, 2, kAudioFileFLACType, "flac"), (24, 2, kAudioFileFLACType, "flac"), (16, 1, kAudioFileFLACType, "flac"),
                      (16, 2, kAudioFileCAFType, "caf")])
    func flacReadsWhatWeWrite(_ spec: (Int, Int, AudioFileTypeID, String)) throws {
        let frames = 44100 + 777
        let wav = try Self.makeWAV(frames: frames, channels: spec.1, bits: spec.0)
        let out = FileSupport.tempURL(spec.3), decoded = FileSupport.tempURL("wav")
        defer { [wav, out, decoded].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = try FileSupport.soxSamples(wav)
        // ExtAudioFile: client Int32 samples, file FLAC at the source's depth.
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 44100
        format.mFormatID = kAudioFormatFLAC
        format.mChannelsPerFrame = UInt32(spec.1)
        format.mFormatFlags = spec.0 == 16 ? kAppleLosslessFormatFlag_16BitSourceData : kAppleLosslessFormatFlag_24BitSourceData
        let client = OCAFormat.linearPCM(sampleRate: 44100, channels: UInt32(spec.1), bitsPerChannel: 32, isFloat: false, interleaved: true)
        try ExtFileIO.write(source, to: out, type: spec.2, format: format, client: client, slice: { _ in 5000 })
        if spec.2 == kAudioFileFLACType {
            let (t, text) = try FileSupport.run(try Self.flacTool(), ["-t", "-s", out.path])
            #expect(t == 0, "flac -t: \(text)")
            let (d, dtext) = try FileSupport.run(try Self.flacTool(), ["-d", "-s", "-f", "-o", decoded.path, out.path])
            try #require(d == 0, "flac -d: \(dtext)")
            #expect(try FileSupport.soxSamples(decoded) == source)
        }
        let theirs = try FFmpegInteropTests.decode(out)
        #expect(theirs.count == source.count && theirs == source, "ffmpeg's decode differs")
        let (ours, length) = try Self.readInt32(out, channels: UInt32(spec.1))
        #expect(length == Int64(frames) && ours == source)
    }

    /// ExtAudioFileSeek to random frames of a `flac`-made file gives the linear decode's samples.
    @Test func seeksAreExact() throws {
        let wav = try Self.makeWAV(frames: 100_000)
        let flac = FileSupport.tempURL("flac")
        defer { [wav, flac].forEach { try? FileManager.default.removeItem(at: $0) } }
        _ = try FileSupport.run(try Self.flacTool(), ["-s", "-f", "-o", flac.path, wav.path])
        let (linear, _) = try Self.readInt32(flac, channels: 2)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(flac as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var mismatches = 0
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let frame = Int.random(in: 0..<(100_000 - 50), using: &rng)
            ExtAudioFileSeek(x!, Int64(frame))
            var buffer = [Int32](repeating: 0, count: 100)
            var frames: UInt32 = 50
            buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 400, mData: raw.baseAddress))
                _ = ExtAudioFileRead(x!, &frames, &list)
            }
            if frames != 50 || buffer != Array(linear[(2 * frame)..<(2 * frame + 100)]) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}

extension FLACFileTests {
    /// kAudioConverterCodecQuality chooses the compression level: Min is flac's -0 and Max its -8 (sizes within 1% of
    /// `flac -8` at Max, both 4,096-frame blocks), Max is smaller than Min, and both decode to the source.
    @Test func codecQualityChoosesTheLevel() throws {
        let frames = 3 * 44100
        let wav = try Self.makeWAV(frames: frames)
        let reference = FileSupport.tempURL("flac")
        defer { [wav, reference].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = try FileSupport.soxSamples(wav)
        var sizes: [UInt32: Int] = [:]
        for quality in [kAudioConverterQuality_Min, kAudioConverterQuality_Max] {
            let out = FileSupport.tempURL("flac")
            defer { try? FileManager.default.removeItem(at: out) }
            var format = AudioStreamBasicDescription()
            format.mSampleRate = 44100
            format.mFormatID = kAudioFormatFLAC
            format.mChannelsPerFrame = 2
            format.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
            var x: ExtAudioFileRef?
            try #require(ExtAudioFileCreateWithURL(out as CFURL, kAudioFileFLACType, &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
            var client = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
            try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
            var converter: AudioConverterRef?
            var size = UInt32(MemoryLayout<AudioConverterRef>.size)
            try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr)
            var q = quality
            try #require(AudioConverterSetProperty(converter!, kAudioConverterCodecQuality, 4, &q) == noErr)
            try ExtFileIO.write(x!, source, channels: 2, slice: { _ in .max })
            try #require(ExtAudioFileDispose(x!) == noErr)
            sizes[quality] = try Data(contentsOf: out).count
            let (ours, _) = try Self.readInt32(out, channels: 2)
            #expect(ours == source, "quality \(quality) decodes to the source")
        }
        let (status, text) = try FileSupport.run(try Self.flacTool(), ["-s", "-f", "-8", "--blocksize=4096", "--no-padding", "--no-seektable",
                                                                      "-o", reference.path, wav.path])
        try #require(status == 0, "flac -8: \(text)")
        let theirs = try Data(contentsOf: reference).count
        let minSize = try #require(sizes[kAudioConverterQuality_Min]), maxSize = try #require(sizes[kAudioConverterQuality_Max])
        print("FLAC CodecQuality: Min \(minSize) bytes, Max \(maxSize), flac -8 \(theirs)")
        #expect(maxSize < minSize, "Max \(maxSize) bytes, Min \(minSize)")
        #expect(abs(Double(maxSize) / Double(theirs) - 1) < 0.01, "Max \(maxSize) bytes, flac -8 \(theirs)")
    }
}
