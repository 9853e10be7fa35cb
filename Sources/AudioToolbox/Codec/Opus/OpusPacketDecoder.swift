internal import COpus

/// Opus packets to interleaved Float32 at 48 kHz through libopus (the stream's rate in the description
/// is Opus's output rate; libopus decodes to any of its rates, 48 kHz here).
final class OpusPacketDecoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = 5760  // 120 ms, Opus's longest packet
    private let channels: Int
    private let decoder: OpaquePointer

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        channels = cookie.flatMap(OpusHeader.init)?.channels ?? Int(format.mChannelsPerFrame)
        let rate = [8000.0, 12000, 16000, 24000, 48000].contains(format.mSampleRate) ? format.mSampleRate : OpusCodec.sampleRate
        guard channels == 1 || channels == 2 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        var error: Int32 = 0
        guard let d = opus_decoder_create(Int32(rate), Int32(channels), &error), error == OPUS_OK else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        decoder = d
        pcmFormat = CodecPCMFormat.float32(rate: rate, channels: UInt32(channels))
    }

    deinit { opus_decoder_destroy(decoder) }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard let base = data.baseAddress, data.count > 0, data.count <= Int(Int32.max) else { return 0 }
        let n = opus_decode_float(decoder, base.assumingMemoryBound(to: UInt8.self), Int32(data.count),
                                  pcm.assumingMemoryBound(to: Float.self), Int32(min(capacityFrames, maximumFramesPerPacket)), 0)
        guard n >= 0 else { throw OSStatusError(kCodecBadDataStatus) }
        return Int(n)
    }

    func reset() { _ = oca_opus_decoder_reset(decoder) }
}
