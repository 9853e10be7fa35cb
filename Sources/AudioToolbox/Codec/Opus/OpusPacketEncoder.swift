internal import COpus

/// Interleaved Float32 at 48 kHz to 20 ms Opus packets through libopus (OPUS_APPLICATION_AUDIO). Mono and stereo
/// go through the plain encoder (mapping family 0); 3-8 channels through libopus's surround encoder (mapping family
/// 1: Vorbis's channel order, coupled stereo pairs, the LFE its own narrow stream), whose stream counts and mapping
/// table the OpusHead cookie carries. The input is taken in Vorbis's order unless the client's channel layout
/// (kAudioConverterInputChannelLayout) names another: its channels are then reordered into Vorbis's.
/// The encoder's lookahead is the priming (written as OpusHead's pre-skip); at the end one more packet of
/// silence carries the last frames out of the lookahead. Bit rate and quality (complexity) are settable; the bit
/// rate is the whole stream's, which the surround encoder shares out among its streams itself.
final class OpusPacketEncoder: PacketEncoder, CodecSettings {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = OpusCodec.framesPerPacket
    let maximumPacketBytes: Int
    private(set) var primeInfo: AudioConverterPrimeInfo
    private let channels: Int
    /// The plain encoder (1-2 channels) or the multistream one (3-8).
    private let encoder: OpaquePointer
    private let isMultistream: Bool
    /// Family 1's stream count, coupled count and mapping table, as libopus chose them.
    private let streams: Int, coupled: Int, mapping: [UInt8]
    private let staging: UnsafeMutablePointer<Float>
    private var packet: [UInt8]
    /// For each channel the encoder takes (Vorbis's order), the input channel it comes from; nil: the same one.
    private var inputOrder: [Int]?

    var bitRate: UInt32 {
        didSet { _ = setBitRate(bitRate) }
    }
    var quality: UInt32 = kAudioConverterQuality_High {
        didSet {
            let complexity = Int32(min(quality, 0x7F) * 10 / 0x7F)
            _ = isMultistream ? oca_opus_ms_set_complexity(encoder, complexity) : oca_opus_set_complexity(encoder, complexity)
        }
    }
    /// 6 kb/s (Opus's least) for each stream up to 510 kb/s (its most) for each.
    var availableBitRates: [AudioValueRange] { [AudioValueRange(mMinimum: Double(6000 * streams), mMaximum: Double(510_000 * streams))] }
    /// Constant: libopus's hard CBR (every packet the same size); VariableConstrained: its constrained VBR (libopus's
    /// default); LongTermAverage and Variable: unconstrained VBR, which meets the bit rate on average.
    var bitRateControlMode: UInt32 = kAudioCodecBitRateControlMode_VariableConstrained {
        didSet {
            let vbr: Int32 = bitRateControlMode == kAudioCodecBitRateControlMode_Constant ? 0 : 1
            let constrained: Int32 = bitRateControlMode == kAudioCodecBitRateControlMode_VariableConstrained ? 1 : 0
            if isMultistream {
                _ = oca_opus_ms_set_vbr(encoder, vbr)
                _ = oca_opus_ms_set_vbr_constraint(encoder, constrained)
            } else {
                _ = oca_opus_set_vbr(encoder, vbr)
                _ = oca_opus_set_vbr_constraint(encoder, constrained)
            }
        }
    }
    var bitRateControlModes: [UInt32] {
        [kAudioCodecBitRateControlMode_Constant, kAudioCodecBitRateControlMode_LongTermAverage,
         kAudioCodecBitRateControlMode_VariableConstrained, kAudioCodecBitRateControlMode_Variable]
    }
    var settings: CodecSettings? { self }

    init(format output: AudioStreamBasicDescription) throws(OSStatusError) {
        let channels = Int(output.mChannelsPerFrame)
        self.channels = channels
        guard (1...8).contains(channels), output.mSampleRate == OpusCodec.sampleRate else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        var error: Int32 = 0
        if channels <= 2 {
            guard let e = opus_encoder_create(48000, Int32(channels), OPUS_APPLICATION_AUDIO, &error), error == OPUS_OK else {
                throw OSStatusError(kAudioConverterErr_FormatNotSupported)
            }
            encoder = e
            isMultistream = false
            streams = 1
            coupled = channels - 1
            mapping = []
        } else {
            var s: Int32 = 0, c: Int32 = 0
            var table = [UInt8](repeating: 0, count: channels)
            let e = table.withUnsafeMutableBufferPointer {
                opus_multistream_surround_encoder_create(48000, Int32(channels), 1, &s, &c, $0.baseAddress!, OPUS_APPLICATION_AUDIO, &error)
            }
            guard let e, error == OPUS_OK else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
            encoder = e
            isMultistream = true
            streams = Int(s)
            coupled = Int(c)
            mapping = table
        }
        var lookahead: Int32 = 0
        _ = isMultistream ? oca_opus_ms_get_lookahead(encoder, &lookahead) : oca_opus_get_lookahead(encoder, &lookahead)
        primeInfo = AudioConverterPrimeInfo(leadingFrames: UInt32(max(lookahead, 0)), trailingFrames: 0)
        // RFC 6716's largest frame, up to three frames a packet, for each stream (plus self-delimiting lengths).
        maximumPacketBytes = (1275 * 3 + 2) * streams
        packet = [UInt8](repeating: 0, count: maximumPacketBytes)
        bitRate = 0
        var f = output
        f.mFramesPerPacket = UInt32(OpusCodec.framesPerPacket)
        format = OpusCodec.complete(f, nil)!
        pcmFormat = CodecPCMFormat.float32(rate: OpusCodec.sampleRate, channels: UInt32(channels))
        staging = .allocate(capacity: OpusCodec.framesPerPacket * channels)
        bitRate = UInt32(defaultBitRate)
        _ = setBitRate(bitRate)
    }

    deinit {
        if isMultistream { opus_multistream_encoder_destroy(encoder) } else { opus_encoder_destroy(encoder) }
        staging.deallocate()
    }

    /// 64 kb/s a channel for mono and stereo; with more channels opusenc's default: 64 kb/s for each stream and 32
    /// more for each coupled one (5.1: 320 kb/s).
    private var defaultBitRate: Int { isMultistream ? 64000 * streams + 32000 * coupled : 64000 * channels }

    private func setBitRate(_ value: UInt32) -> Int32 {
        let range = availableBitRates[0]
        let rate = value == 0 ? Int32(defaultBitRate) : Int32(min(max(Double(value), range.mMinimum), range.mMaximum))
        return isMultistream ? oca_opus_ms_set_bitrate(encoder, rate) : oca_opus_set_bitrate(encoder, rate)
    }

    var magicCookie: [UInt8]? {
        var head = OpusHeader(channels: channels, preSkip: Int(primeInfo.leadingFrames), inputSampleRate: 48000)
        if isMultistream {
            head.mappingFamily = 1
            head.streamCount = streams
            head.coupledCount = coupled
            head.mapping = mapping
        }
        return head.bytes
    }

    /// The client's channels in order (its layout's labels): from then on each channel goes to its place in
    /// Vorbis's order. Labels that do not all find a place (another count, discrete or unknown channels) leave
    /// the input taken as Vorbis's order.
    func setInputChannelLabels(_ labels: [AudioChannelLabel]?) {
        inputOrder = labels.flatMap { OpusCodec.vorbisOrder(from: $0) }
        if inputOrder == Array(0..<channels) { inputOrder = nil }
    }

    /// Encodes one 960-frame packet from `source` (`frames` of them, the rest silence).
    private func encodePacket(_ source: UnsafePointer<Float>?, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        staging.update(repeating: 0, count: framesPerPacket * channels)
        if let source, frames > 0 {
            if let order = inputOrder {
                for f in 0..<frames {
                    for c in 0..<channels { staging[f * channels + c] = source[f * channels + order[c]] }
                }
            } else {
                staging.update(from: source, count: frames * channels)
            }
        }
        let n = packet.withUnsafeMutableBufferPointer { out in
            isMultistream
                ? opus_multistream_encode_float(encoder, staging, Int32(framesPerPacket), out.baseAddress!, Int32(out.count))
                : opus_encode_float(encoder, staging, Int32(framesPerPacket), out.baseAddress!, Int32(out.count))
        }
        guard n > 0 else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        packet.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[0..<Int(n)]), framesPerPacket) }
    }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let samples = pcm.assumingMemoryBound(to: Float.self)
        var done = 0
        while done < frames {
            let n = min(framesPerPacket, frames - done)
            try encodePacket(samples + done * channels, frames: n, emit: emit)
            done += n
        }
    }

    func finish(emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        // The lookahead still holds the input's last frames: silence pushes them out.
        try encodePacket(nil, frames: 0, emit: emit)
    }

    func reset() { _ = isMultistream ? oca_opus_ms_encoder_reset(encoder) : oca_opus_encoder_reset(encoder) }
}
