import AudioToolbox
import CAVCodec

/// AAC packets to interleaved Float32 through libavcodec's AAC decoder, configured from the ES_Descriptor's
/// AudioSpecificConfig (or, without a cookie, from the description alone, as for ADTS-less raw LC).
final class AACPacketDecoder: PacketDecoder {
    private(set) var pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = 2048
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let format: AudioStreamBasicDescription
    private var cookie: [UInt8]?

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        guard format.mSampleRate > 0, format.mChannelsPerFrame > 0 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        // libavcodec is opened here, at the first codec, not at start-up; without it AAC is a format we do not have.
        guard oca_av_load() else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        self.format = format
        self.cookie = cookie
        pcmFormat = CodecPCMFormat.float32(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        guard let f = oca_av_frame_alloc() else { throw OSStatusError(kAudio_MemFullError) }
        frame = f
        guard let p = oca_av_packet_alloc() else {
            var unused: UnsafeMutablePointer<AVFrame>? = f
            oca_av_frame_free(&unused)
            throw OSStatusError(kAudio_MemFullError)
        }
        packet = p
        try open()
    }

    deinit {
        close()
        var f: UnsafeMutablePointer<AVFrame>? = frame
        oca_av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        oca_av_packet_free(&p)
    }

    private func close() {
        if context != nil { oca_avcodec_free_context(&context) }
    }

    private func open() throws(OSStatusError) {
        close()
        guard let codec = oca_avcodec_find_decoder(AV_CODEC_ID_AAC), let ctx = oca_avcodec_alloc_context3(codec) else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        context = ctx
        ctx.pointee.sample_rate = Int32(format.mSampleRate)
        oca_av_channel_layout_default(&ctx.pointee.ch_layout, Int32(format.mChannelsPerFrame))
        if let cookie, let es = ESDescriptor(cookie), !es.specificInfo.isEmpty {
            let asc = es.specificInfo
            guard let extra = oca_av_mallocz(asc.count + Int(oca_av_input_padding())) else { throw OSStatusError(kAudio_MemFullError) }
            extra.copyMemory(from: asc, byteCount: asc.count)
            ctx.pointee.extradata = extra.assumingMemoryBound(to: UInt8.self)
            ctx.pointee.extradata_size = Int32(asc.count)
        }
        guard oca_avcodec_open2(ctx, codec, nil) >= 0 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
    }

    func setMagicCookie(_ cookie: [UInt8]) throws(OSStatusError) {
        self.cookie = cookie
        try open()
    }

    func reset() {
        if let context { oca_avcodec_flush_buffers(context) }
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard let context else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        guard data.count > 0 else { return 0 }
        guard oca_av_new_packet(packet, Int32(data.count)) >= 0 else { throw OSStatusError(kAudio_MemFullError) }
        defer { oca_av_packet_unref(packet) }
        packet.pointee.data.update(from: data.baseAddress!.assumingMemoryBound(to: UInt8.self), count: data.count)
        guard oca_avcodec_send_packet(context, packet) >= 0 else { throw OSStatusError(kCodecBadDataStatus) }
        let channels = Int(pcmFormat.mChannelsPerFrame)
        let out = pcm.assumingMemoryBound(to: Float.self)
        var written = 0
        while true {
            let r = oca_avcodec_receive_frame(context, frame)
            if r == oca_averror_eagain() || r == oca_averror_eof() { break }
            guard r >= 0 else { throw OSStatusError(kCodecBadDataStatus) }
            defer { oca_av_frame_unref(frame) }
            let n = min(Int(frame.pointee.nb_samples), capacityFrames - written)
            let frameChannels = Int(frame.pointee.ch_layout.nb_channels)
            let planar = oca_av_sample_fmt_is_planar(AVSampleFormat(frame.pointee.format)) != 0
            guard AVSampleFormat(frame.pointee.format) == AV_SAMPLE_FMT_FLTP || AVSampleFormat(frame.pointee.format) == AV_SAMPLE_FMT_FLT else {
                throw OSStatusError(kAudioConverterErr_FormatNotSupported)
            }
            for c in 0..<channels {
                let source = min(c, frameChannels - 1)
                if planar {
                    let plane = UnsafeRawPointer(frame.pointee.extended_data[source]!).assumingMemoryBound(to: Float.self)
                    for i in 0..<n { out[(written + i) * channels + c] = plane[i] }
                } else {
                    let all = UnsafeRawPointer(frame.pointee.extended_data[0]!).assumingMemoryBound(to: Float.self)
                    for i in 0..<n { out[(written + i) * channels + c] = all[i * frameChannels + source] }
                }
            }
            written += n
        }
        return written
    }
}
