import AudioToolbox
import AudioToolboxAAC
import Foundation
import Testing
import SharedTestSupport

/// AAC through the AudioToolboxAAC product (libavcodec): ffmpeg's M4A decoded gapless as ffmpeg decodes it, AAC
/// written into CAF through ExtAudioFile and read back by us and by ffmpeg.
@Suite struct AACFileTests {
    @Test func ffmpegsAACInM4ADecodesAsFFmpegDecodesIt() throws {
        let url = try MP4FileTests.make("m4a", codec: ["-c:a", "aac", "-b:a", "128k"])
        defer { try? FileManager.default.removeItem(at: url) }
        let ours = try MP3FileTests.readFloats(url)
        #expect(ours.count == 88200 * 2, "\(ours.count / 2) frames")
        // ffmpeg's tool skips the edit list's priming but plays the last packet out (89,088 frames): compare the
        // 88,200 the edit list keeps.
        let theirs = try MP3FileTests.ffmpegFloats(url)
        #expect(theirs.count >= ours.count)
        let snr = MP3FileTests.snr(Array(theirs.prefix(ours.count)), ours)
        #expect(snr > 90, "SNR against ffmpeg's decode \(snr) dB")
    }

    /// A 440 Hz WAV to AAC in CAF at 128 kbps: exactly its length back (priming and remainder trimmed by the packet
    /// table), close to the source, and ffmpeg reads the file as AAC.
    @Test func aacWrittenIntoCAFReadsBack() throws {
        let source = try MP4FileTests.make("wav", codec: ["-c:a", "pcm_f32le"])
        let caf = FileSupport.tempURL("caf")
        defer { [source, caf].forEach { try? FileManager.default.removeItem(at: $0) } }
        let pcm = try MP3FileTests.readFloats(source)
        var format = AudioStreamBasicDescription()
        format.mSampleRate = 44100
        format.mFormatID = kAudioFormatMPEG4AAC
        format.mChannelsPerFrame = 2
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = MP3FileTests.floatStereo
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        try ExtFileIO.write(x!, pcm, channels: 2, slice: { _ in .max })
        #expect(ExtAudioFileDispose(x!) == noErr)
        let back = try MP3FileTests.readFloats(caf)
        #expect(back.count == pcm.count, "\(back.count / 2) frames back of \(pcm.count / 2)")
        let snr = MP3FileTests.snr(pcm, Array(back.prefix(pcm.count)))
        #expect(snr > 25, "SNR \(snr) dB")
        let ffprobe = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let (_, codec) = try FileSupport.run(ffprobe, ["-v", "quiet", "-show_entries", "stream=codec_name", "-of", "csv=p=0", caf.path])
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "aac")
        let theirs = try MP3FileTests.ffmpegFloats(caf)
        #expect(theirs.count >= pcm.count)
    }

    @Test func audioFormatListsAACBothWays() throws {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size) == noErr)
        var encoders = [AudioFormatID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size, &encoders) == noErr)
        #expect(encoders.contains(kAudioFormatMPEG4AAC))
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size) == noErr)
        var decoders = [AudioFormatID](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size, &decoders) == noErr)
        #expect(decoders.contains(kAudioFormatMPEG4AAC) && decoders.contains(kAudioFormatMPEG4AAC_HE))
    }

    /// An output queue plays ffmpeg's AAC M4A (the book's chapter 5 player, offline): ExtAudioFile's decode from the
    /// 1,024 priming frames on.
    @Test func anOutputQueuePlaysAAC() throws {
        let url = try MP4FileTests.make("m4a", codec: ["-c:a", "aac", "-b:a", "128k"], seconds: 4)
        defer { try? FileManager.default.removeItem(at: url) }
        try MP3FileTests.expectQueuePlays(url, priming: 1024)
    }
}
