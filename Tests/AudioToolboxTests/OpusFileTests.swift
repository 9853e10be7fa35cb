import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// Opus through AudioConverter and files: what ffmpeg's libopus encoder writes into MP4 and CAF decodes
/// here as ffmpeg decodes it; what we encode into CAF decodes in ffmpeg close to the source, with the
/// source's length from the packet table (the encoder's lookahead as priming).
@Suite struct OpusFileTests {
    static let rate = 48000.0

    /// Two tones as interleaved stereo Float32 at 48 kHz.
    static func source(frames: Int) -> [Float] {
        (0..<(2 * frames)).map { i -> Float in
            let t = Double(i / 2) / rate
            let f: Double = i % 2 == 0 ? 440 : 660
            return Float(0.4 * sin(2 * Double.pi * f * t))
        }
    }

    static func readFloats(_ url: URL) throws -> ([Float], Int64) {
        try ExtFileIO.read(url, client: OCAFormat.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true), chunk: 2048)
    }

    static func ffmpegFloats(_ url: URL) throws -> [Float] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", url.path, "-f", "f32le", "-ar", "48000", "-ac", "2", raw.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// SNR of `test` against `reference` at the best whole-frame lag within ±`search` frames.
    static func alignedSNR(_ reference: [Float], _ test: [Float], search: Int = 1200) -> (Double, Int) {
        var best = (-Double.infinity, 0)
        let n = min(reference.count, test.count) / 2 - 2 * search
        for lag in stride(from: -search, through: search, by: 1) {
            var s = 0.0, e = 0.0
            for i in stride(from: 2 * search, to: 2 * (search + n), by: 7) {
                let r = Double(reference[i]), t = Double(test[i + 2 * lag])
                s += r * r
                e += (r - t) * (r - t)
            }
            let snr = 10 * log10(s / max(e, 1e-20))
            if snr > best.0 { best = (snr, lag) }
        }
        return best
    }

    /// Ours into CAF: ffmpeg reads it; the decoded tone follows the source (aligned) well above Opus's
    /// noise at 128 kbps; ExtAudioFile gives back exactly the source's length.
    @Test func encodeToCAF() throws {
        let frames = 48000 + 333
        let caf = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: caf) }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = Self.rate
        format.mFormatID = kAudioFormatOpus
        format.mChannelsPerFrame = 2
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = OCAFormat.linearPCM(sampleRate: Self.rate, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var converter: AudioConverterRef?
        var size = UInt32(MemoryLayout<AudioConverterRef?>.size)
        try #require(ExtAudioFileGetProperty(x!, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr)
        var bitRate: UInt32 = 128_000
        #expect(AudioConverterSetProperty(converter!, kAudioConverterEncodeBitRate, 4, &bitRate) == noErr)
        let source = Self.source(frames: frames)
        try ExtFileIO.write(x!, source, channels: 2, slice: { _ in .max })
        try #require(ExtAudioFileDispose(x!) == noErr)
        let (ours, length) = try Self.readFloats(caf)
        #expect(length == Int64(frames) && ours.count == 2 * frames)
        let (snr, lag) = Self.alignedSNR(source, ours)
        print(String(format: "Opus 128 kbps, ours decoded: %.1f dB SNR at lag %d", snr, lag))
        #expect(lag == 0 && snr > 20)
        let theirs = try Self.ffmpegFloats(caf)
        let (fsnr, flag) = Self.alignedSNR(source, theirs)
        print(String(format: "Opus 128 kbps, ffmpeg decoded: %.1f dB SNR at lag %d", fsnr, flag))
        #expect(fsnr > 20)
    }

    /// ffmpeg's libopus encoder into MP4: we decode what ffmpeg decodes (same bitstream, both libopus-grade
    /// decoders) to well within Opus's own error.
    @Test func decodeFFmpegsOpus() throws {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let mp4 = FileSupport.tempURL("mp4")
        defer { try? FileManager.default.removeItem(at: mp4) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=2:sample_rate=48000", "-ac", "2",
                                                          "-c:a", "libopus", "-b:a", "96k", mp4.path])
        try #require(status == 0, "ffmpeg: \(text)")
        let (ours, _) = try Self.readFloats(mp4)
        let theirs = try Self.ffmpegFloats(mp4)
        let (snr, lag) = Self.alignedSNR(theirs, ours, search: 400)
        print(String(format: "Opus in MP4: ours against ffmpeg's decode %.1f dB SNR at lag %d; %d vs %d frames", snr, lag, ours.count / 2, theirs.count / 2))
        #expect(snr > 40 && lag == 0)
        #expect(abs(ours.count - theirs.count) <= 2 * 960)
    }
}

/// kAudioCodecPropertyBitRateControlMode on an encoding converter: libopus's constrained VBR by default, every mode
/// settable, an unknown one refused with kAudio_ParamError; a linear PCM converter has no such property.
@Suite struct BitRateControlModeTests {
    @Test func opusTakesEveryModeAndPCMNone() throws {
        var pcm = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                              mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 8,
                                              mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var opus = AudioStreamBasicDescription()
        opus.mFormatID = kAudioFormatOpus
        opus.mSampleRate = 48000
        opus.mChannelsPerFrame = 2
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &opus) == noErr)
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&pcm, &opus, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        var writable: DarwinBoolean = false, infoSize: UInt32 = 0
        #expect(AudioConverterGetPropertyInfo(converter!, kAudioCodecPropertyBitRateControlMode, &infoSize, &writable) == noErr)
        #expect(infoSize == 4 && writable.boolValue)
        var mode: UInt32 = 99
        size = 4
        #expect(AudioConverterGetProperty(converter!, kAudioCodecPropertyBitRateControlMode, &size, &mode) == noErr)
        #expect(mode == kAudioCodecBitRateControlMode_VariableConstrained)
        for m in [kAudioCodecBitRateControlMode_Constant, kAudioCodecBitRateControlMode_LongTermAverage, kAudioCodecBitRateControlMode_Variable] {
            var v = m
            #expect(AudioConverterSetProperty(converter!, kAudioCodecPropertyBitRateControlMode, 4, &v) == noErr)
            #expect(AudioConverterGetProperty(converter!, kAudioCodecPropertyBitRateControlMode, &size, &mode) == noErr && mode == m)
        }
        var bad: UInt32 = 4
        #expect(AudioConverterSetProperty(converter!, kAudioCodecPropertyBitRateControlMode, 4, &bad) == kAudio_ParamError)
        var plain: AudioConverterRef?
        var pcm16 = pcm
        pcm16.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        pcm16.mBitsPerChannel = 16; pcm16.mBytesPerFrame = 4; pcm16.mBytesPerPacket = 4
        try #require(AudioConverterNew(&pcm, &pcm16, &plain) == noErr)
        defer { AudioConverterDispose(plain!) }
        #expect(AudioConverterGetPropertyInfo(plain!, kAudioCodecPropertyBitRateControlMode, &infoSize, &writable) != noErr)
    }
}
