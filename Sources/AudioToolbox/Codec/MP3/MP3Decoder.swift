internal import CMPG123
import Foundation

/// libmpg123 in feed mode, one MPEG audio frame per packet, to interleaved Float32. Gapless trimming is
/// off: priming and remainder are the file's packet table's business (as with Apple's decoder), so the
/// decoder gives every frame's full output. Each packet is fed whole and its output collected at once.
final class MP3Decoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = 1152
    private let channels: Int
    private var handle: OpaquePointer?

    /// libmpg123's one-time global setup (a no-op after the first call in newer versions, but required).
    private static let initialized: Bool = { mpg123_init() == MPG123_OK.rawValue }()

    init(format: AudioStreamBasicDescription) throws(OSStatusError) {
        channels = Int(format.mChannelsPerFrame)
        pcmFormat = CodecPCMFormat.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        guard Self.initialized else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        var error: Int32 = 0
        guard let h = mpg123_new(nil, &error) else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        handle = h
        // NO_READAHEAD: we feed whole frames, so each packet's output comes at once (otherwise the parser
        // waits for the next frame's header and the last frame never comes out).
        let flags = Int(MPG123_FORCE_FLOAT.rawValue | MPG123_QUIET.rawValue | MPG123_IGNORE_INFOFRAME.rawValue | MPG123_NO_READAHEAD.rawValue)
        mpg123_param2(h, Int32(MPG123_FLAGS.rawValue), flags, 0)
        // Output exactly the stream's rate and channels as Float32: no internal resampling or mixing.
        mpg123_format_none(h)
        for rate in [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] {
            mpg123_format(h, rate, Int32(channels == 1 ? MPG123_MONO.rawValue : MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        }
        guard mpg123_open_feed(h) == MPG123_OK.rawValue else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
    }

    deinit {
        if let handle { mpg123_delete(handle) }
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard let handle, let base = data.baseAddress, data.count > 0 else { return 0 }
        let frameBytes = channels * 4
        var produced = 0
        var done = 0
        var status = mpg123_decode(handle, base.assumingMemoryBound(to: UInt8.self), data.count,
                                   pcm.assumingMemoryBound(to: UInt8.self), capacityFrames * frameBytes, &done)
        produced += done
        // After the packet, collect whatever else the decoder can give without more input.
        while status == MPG123_NEW_FORMAT.rawValue || (status == MPG123_OK.rawValue && produced < capacityFrames * frameBytes) {
            done = 0
            status = mpg123_decode(handle, nil, 0, pcm.assumingMemoryBound(to: UInt8.self) + produced,
                                   capacityFrames * frameBytes - produced, &done)
            produced += done
            if done == 0 && status == MPG123_OK.rawValue { break }
        }
        if status == MPG123_ERR.rawValue { throw OSStatusError(kCodecBadDataStatus) }
        return produced / frameBytes
    }

    func reset() {
        // Reopening the feed forgets the bit reservoir and the filter banks' history.
        if let handle { mpg123_open_feed(handle) }
    }
}
