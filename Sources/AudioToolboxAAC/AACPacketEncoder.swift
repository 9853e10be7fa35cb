import AudioToolbox
import CAVCodec

/// Interleaved Float32 to AAC LC packets through libavcodec's native AAC encoder: 1,024 frames a packet, the
/// encoder's delay (1,024 frames) as the priming Apple's converter reports, an ES_Descriptor cookie around the
/// encoder's AudioSpecificConfig. EncodeBitRate sets the bit rate (default 64 kbps a channel). With
/// kAudioCodecBitRateControlMode_Variable the encoder runs at a quality instead of a rate (libavcodec's -q:a 0.1...2
/// from CodecQuality 0...127); the other modes all run libavcodec's average-rate control with its bit reservoir (it has
/// no strict CBR).
final class AACPacketEncoder: PacketEncoder, CodecSettings {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = 1024
    let maximumPacketBytes: Int
    private(set) var primeInfo: AudioConverterPrimeInfo
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let channels: Int
    private let sampleRate: Double
    private var opened = false
    private var asc: [UInt8] = []
    private var staged = 0  // frames waiting in `frame`

    var bitRate: UInt32 {
        didSet { if opened { try? reopen() } }
    }
    var quality: UInt32 = kAudioConverterQuality_High {
        didSet { if opened && bitRateControlMode == kAudioCodecBitRateControlMode_Variable { try? reopen() } }
    }
    var bitRateControlMode: UInt32 = kAudioCodecBitRateControlMode_LongTermAverage {
        didSet { if opened { try? reopen() } }
    }
    var bitRateControlModes: [UInt32] {
        [kAudioCodecBitRateControlMode_Constant, kAudioCodecBitRateControlMode_LongTermAverage,
         kAudioCodecBitRateControlMode_VariableConstrained, kAudioCodecBitRateControlMode_Variable]
    }
    var availableBitRates: [AudioValueRange] {
        [AudioValueRange(mMinimum: Float64(16000 * channels), mMaximum: Float64(min(320_000, 160_000 * channels)))]
    }
    var settings: CodecSettings? { self }

    init(format output: AudioStreamBasicDescription) throws(OSStatusError) {
        channels = Int(output.mChannelsPerFrame)
        sampleRate = output.mSampleRate
        guard channels >= 1, channels <= 8, AACCodec.entry(kAudioFormatMPEG4AAC).encodeSampleRates.contains(sampleRate) else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        // libavcodec is opened here, at the first codec, not at start-up; without it AAC is a format we do not have.
        guard oca_av_load() else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        var f = output
        f.mFramesPerPacket = 1024
        format = AACCodec.complete(f, nil)!
        pcmFormat = CodecPCMFormat.float32(rate: sampleRate, channels: UInt32(channels))
        maximumPacketBytes = 768 * channels
        bitRate = UInt32(64000 * channels)
        primeInfo = AudioConverterPrimeInfo(leadingFrames: 1024, trailingFrames: 0)
        guard let fr = oca_av_frame_alloc() else { throw OSStatusError(kAudio_MemFullError) }
        frame = fr
        guard let p = oca_av_packet_alloc() else {
            var unused: UnsafeMutablePointer<AVFrame>? = fr
            oca_av_frame_free(&unused)
            throw OSStatusError(kAudio_MemFullError)
        }
        packet = p
        try reopen()
    }

    deinit {
        if context != nil { oca_avcodec_free_context(&context) }
        var f: UnsafeMutablePointer<AVFrame>? = frame
        oca_av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        oca_av_packet_free(&p)
    }

    /// (Re)creates the encoder with the current bit rate.
    private func reopen() throws(OSStatusError) {
        if context != nil { oca_avcodec_free_context(&context) }
        opened = false
        // Apple's codec prints nothing: libavcodec's encoder reports statistics ("Qavg: ...") at its default log level,
        // so that level (and only it: a client that chose one keeps it) is lowered to errors.
        if oca_av_log_get_level() == AV_LOG_INFO { oca_av_log_set_level(AV_LOG_ERROR) }
        guard let codec = oca_avcodec_find_encoder(AV_CODEC_ID_AAC), let ctx = oca_avcodec_alloc_context3(codec) else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        context = ctx
        ctx.pointee.sample_rate = Int32(sampleRate)
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        if bitRateControlMode == kAudioCodecBitRateControlMode_Variable {
            // FF_QP2LAMBDA (118) times ffmpeg's -q:a scale for its AAC encoder.
            ctx.pointee.flags |= oca_av_codec_flag_qscale()
            ctx.pointee.global_quality = Int32((118 * (0.1 + 1.9 * Double(min(quality, 127)) / 127)).rounded())
        } else {
            ctx.pointee.bit_rate = Int64(bitRate)
        }
        ctx.pointee.flags |= oca_av_codec_flag_global_header()
        oca_av_channel_layout_default(&ctx.pointee.ch_layout, Int32(channels))
        guard oca_avcodec_open2(ctx, codec, nil) >= 0 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        if let extra = ctx.pointee.extradata, ctx.pointee.extradata_size > 0 {
            asc = Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size)))
        }
        primeInfo = AudioConverterPrimeInfo(leadingFrames: UInt32(max(ctx.pointee.initial_padding, 0)), trailingFrames: 0)
        try prepareFrame()
        opened = true
    }

    private func prepareFrame() throws(OSStatusError) {
        guard let context else { return }
        oca_av_frame_unref(frame)
        frame.pointee.nb_samples = Int32(framesPerPacket)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = context.pointee.sample_rate
        guard oca_av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout) >= 0,
              oca_av_frame_get_buffer(frame, 0) >= 0 else { throw OSStatusError(kAudio_MemFullError) }
        staged = 0
    }

    var magicCookie: [UInt8]? {
        asc.isEmpty ? nil : AACCodec.esDescriptor(audioSpecificConfig: asc, averageBitRate: bitRate, maximumBitRate: bitRate)
    }

    /// Takes every packet the encoder has ready, each carrying 1,024 frames.
    private func drain(_ emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        guard let context else { return }
        while true {
            let r = oca_avcodec_receive_packet(context, packet)
            if r == oca_averror_eagain() || r == oca_averror_eof() { return }
            guard r >= 0 else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
            emit(UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)), framesPerPacket)
            oca_av_packet_unref(packet)
        }
    }

    /// Sends the staged frame (padded with silence) and makes a fresh one.
    private func sendStaged(_ emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        guard let context, staged > 0 else { return }
        for c in 0..<channels {
            let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
            (plane + staged).update(repeating: 0, count: framesPerPacket - staged)
        }
        guard oca_avcodec_send_frame(context, frame) >= 0 else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        try drain(emit)
        try prepareFrame()
    }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let samples = pcm.assumingMemoryBound(to: Float.self)
        var done = 0
        while done < frames {
            if oca_av_frame_make_writable(frame) < 0 { throw OSStatusError(kAudio_MemFullError) }
            let n = min(framesPerPacket - staged, frames - done)
            for c in 0..<channels {
                let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
                for i in 0..<n { plane[staged + i] = samples[(done + i) * channels + c] }
            }
            staged += n
            done += n
            if staged == framesPerPacket { try sendStaged(emit) }
        }
    }

    func finish(emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        try sendStaged(emit)
        guard let context else { return }
        guard oca_avcodec_send_frame(context, nil) >= 0 else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        try drain(emit)
    }

    func reset() { try? reopen() }
}
