internal import COpus

/// Opus packets to interleaved Float32 at 48 kHz through libopus (the stream's rate in the description
/// is Opus's output rate; libopus decodes to any of its rates, 48 kHz here). Mono and stereo streams (mapping
/// family 0) go through the plain decoder; family 1 (up to 8 channels, Vorbis's order) through the multistream
/// decoder with the header's stream counts and mapping table.
final class OpusPacketDecoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = 5760  // 120 ms, Opus's longest packet
    private let channels: Int
    private var decoder: OpaquePointer?
    private var multistream: OpaquePointer?

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        let head = cookie.flatMap(OpusHeader.init)
        let channels = head?.channels ?? Int(format.mChannelsPerFrame)
        self.channels = channels
        let rate = [8000.0, 12000, 16000, 24000, 48000].contains(format.mSampleRate) ? format.mSampleRate : OpusCodec.sampleRate
        var error: Int32 = 0
        if let head, head.mappingFamily != 0 {
            guard head.mappingFamily == 1, (1...8).contains(channels) else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
            multistream = head.mapping.withUnsafeBufferPointer {
                opus_multistream_decoder_create(Int32(rate), Int32(channels), Int32(head.streamCount), Int32(head.coupledCount), $0.baseAddress!, &error)
            }
            guard multistream != nil, error == OPUS_OK else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        } else {
            guard channels == 1 || channels == 2 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
            decoder = opus_decoder_create(Int32(rate), Int32(channels), &error)
            guard decoder != nil, error == OPUS_OK else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        }
        pcmFormat = CodecPCMFormat.float32(rate: rate, channels: UInt32(channels))
    }

    deinit {
        if let decoder { opus_decoder_destroy(decoder) }
        if let multistream { opus_multistream_decoder_destroy(multistream) }
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard let base = data.baseAddress, data.count > 0, data.count <= Int(Int32.max) else { return 0 }
        let frames = Int32(min(capacityFrames, maximumFramesPerPacket))
        let input = base.assumingMemoryBound(to: UInt8.self), output = pcm.assumingMemoryBound(to: Float.self)
        let n = multistream.map { opus_multistream_decode_float($0, input, Int32(data.count), output, frames, 0) }
            ?? decoder.map { opus_decode_float($0, input, Int32(data.count), output, frames, 0) } ?? -1
        guard n >= 0 else { throw OSStatusError(kCodecBadDataStatus) }
        return Int(n)
    }

    func reset() {
        if let decoder { _ = oca_opus_decoder_reset(decoder) }
        if let multistream { _ = oca_opus_multistream_decoder_reset(multistream) }
    }
}
