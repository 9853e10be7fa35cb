import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// Apple Lossless through AudioFile and ExtAudioFile: ffmpeg's ALAC in M4A and CAF decodes to the source
/// exactly, and ALAC we write into CAF decodes in ffmpeg to the source with its exact length.
@Suite struct ALACFileTests {
    /// ffmpeg's ALAC (16- and 24-bit) in M4A and CAF: ExtAudioFile gives the source's samples and length.
    @Test(arguments: [(16, "m4a"), (24, "m4a"), (16, "caf")])
    func decodesFFmpegsALAC(_ spec: (Int, String)) throws {
        let wav = try FLACFileTests.makeWAV(frames: 23_456, bits: spec.0)
        let out = FileSupport.tempURL(spec.1)
        defer { [wav, out].forEach { try? FileManager.default.removeItem(at: $0) } }
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", wav.path, "-c:a", "alac", out.path])
        try #require(status == 0, "ffmpeg: \(text)")
        let (samples, length) = try FLACFileTests.readInt32(out, channels: 2)
        // ffmpeg's CAF writer records whole packets as valid frames (24,576 here): the length is the file's
        // word; the samples are the short last packet's real ones.
        #expect(length == (spec.1 == "caf" ? 24_576 : 23_456))
        #expect(samples == (try FileSupport.soxSamples(wav)), "ALAC decode differs from the source")
    }

    /// ALAC written through ExtAudioFile into CAF: ffmpeg decodes the source exactly (its length from our
    /// packet table), and so do we.
    @Test(arguments: [16, 24])
    func ffmpegDecodesWhatWeWrite(_ bits: Int) throws {
        let frames = 40_000 + 123
        let wav = try FLACFileTests.makeWAV(frames: frames, bits: bits)
        let caf = FileSupport.tempURL("caf")
        defer { [wav, caf].forEach { try? FileManager.default.removeItem(at: $0) } }
        let source = try FileSupport.soxSamples(wav)
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 44100
        format.mFormatID = kAudioFormatAppleLossless
        format.mChannelsPerFrame = 2
        format.mFormatFlags = bits == 16 ? kAppleLosslessFormatFlag_16BitSourceData : kAppleLosslessFormatFlag_24BitSourceData
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: false, interleaved: true)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        try ExtFileIO.write(x!, source, channels: 2, slice: { _ in .max })
        try #require(ExtAudioFileDispose(x!) == noErr)
        let theirs = try FFmpegInteropTests.decode(caf)
        #expect(theirs.count == source.count && theirs == source, "ffmpeg's decode of our ALAC differs")
        let (ours, length) = try FLACFileTests.readInt32(caf, channels: 2)
        #expect(length == Int64(frames) && ours == source)
    }
}
