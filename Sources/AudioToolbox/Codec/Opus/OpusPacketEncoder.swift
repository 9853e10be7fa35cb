internal import COpus

/// Interleaved Float32 at 48 kHz to 20 ms Opus packets through libopus (OPUS_APPLICATION_AUDIO). The
/// encoder's lookahead is the priming (written as OpusHead's pre-skip); at the end one more packet of
/// silence carries the last frames out of the lookahead. Bit rate and quality (complexity) are settable.
final class OpusPacketEncoder: PacketEncoder, CodecSettings {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = OpusCodec.framesPerPacket
    let maximumPacketBytes = 1275 * 3  // RFC 6716's largest frame, up to three frames a packet
    private(set) var primeInfo: AudioConverterPrimeInfo
    private let channels: Int
    private let encoder: OpaquePointer
    private let staging: UnsafeMutablePointer<Float>
    private var packet = [UInt8](repeating: 0, count: 1275 * 3)

    var bitRate: UInt32 {
        didSet { _ = oca_opus_set_bitrate(encoder, Int32(clamping: bitRate == 0 ? UInt32(64000 * channels) : min(max(bitRate, 6000), 510_000))) }
    }
    var quality: UInt32 = kAudioConverterQuality_High {
        didSet { _ = oca_opus_set_complexity(encoder, Int32(min(quality, 0x7F) * 10 / 0x7F)) }
    }
    var availableBitRates: [AudioValueRange] { [AudioValueRange(mMinimum: 6000, mMaximum: 510_000)] }
    /// Constant: libopus's hard CBR (every packet the same size); VariableConstrained: its constrained VBR (libopus's
    /// default); LongTermAverage and Variable: unconstrained VBR, which meets the bit rate on average.
    var bitRateControlMode: UInt32 = kAudioCodecBitRateControlMode_VariableConstrained {
        didSet {
            _ = oca_opus_set_vbr(encoder, bitRateControlMode == kAudioCodecBitRateControlMode_Constant ? 0 : 1)
            _ = oca_opus_set_vbr_constraint(encoder, bitRateControlMode == kAudioCodecBitRateControlMode_VariableConstrained ? 1 : 0)
        }
    }
    var bitRateControlModes: [UInt32] {
        [kAudioCodecBitRateControlMode_Constant, kAudioCodecBitRateControlMode_LongTermAverage,
         kAudioCodecBitRateControlMode_VariableConstrained, kAudioCodecBitRateControlMode_Variable]
    }
    var settings: CodecSettings? { self }

    init(format output: AudioStreamBasicDescription) throws(OSStatusError) {
        channels = Int(output.mChannelsPerFrame)
        guard channels == 1 || channels == 2, output.mSampleRate == OpusCodec.sampleRate else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        var error: Int32 = 0
        guard let e = opus_encoder_create(48000, Int32(channels), OPUS_APPLICATION_AUDIO, &error), error == OPUS_OK else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        encoder = e
        var lookahead: Int32 = 0
        _ = oca_opus_get_lookahead(e, &lookahead)
        primeInfo = AudioConverterPrimeInfo(leadingFrames: UInt32(max(lookahead, 0)), trailingFrames: 0)
        bitRate = UInt32(64000 * channels)
        _ = oca_opus_set_bitrate(e, Int32(64000 * channels))
        var f = output
        f.mFramesPerPacket = UInt32(OpusCodec.framesPerPacket)
        format = OpusCodec.complete(f, nil)!
        pcmFormat = CodecPCMFormat.float32(rate: OpusCodec.sampleRate, channels: UInt32(channels))
        staging = .allocate(capacity: OpusCodec.framesPerPacket * channels)
    }

    deinit {
        opus_encoder_destroy(encoder)
        staging.deallocate()
    }

    var magicCookie: [UInt8]? { OpusHeader(channels: channels, preSkip: Int(primeInfo.leadingFrames), inputSampleRate: 48000).bytes }

    /// Encodes one 960-frame packet from `source` (`frames` of them, the rest silence).
    private func encodePacket(_ source: UnsafePointer<Float>?, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        staging.update(repeating: 0, count: framesPerPacket * channels)
        if let source, frames > 0 { staging.update(from: source, count: frames * channels) }
        let n = packet.withUnsafeMutableBufferPointer { out in
            opus_encode_float(encoder, staging, Int32(framesPerPacket), out.baseAddress!, Int32(out.count))
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

    func reset() { _ = oca_opus_encoder_reset(encoder) }
}
