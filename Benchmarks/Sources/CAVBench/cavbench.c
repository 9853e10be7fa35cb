#include "cavbench.h"
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <string.h>

// Appends one decoded frame to `out` as interleaved Int32 (left-justified) or Float32.
static int64_t append(const AVFrame *f, int channels, int as_float, void *out, int64_t at, int64_t capacity) {
    int n = f->nb_samples;
    if (at + n > capacity) n = (int)(capacity - at);
    if (n <= 0) return 0;
    int planar = av_sample_fmt_is_planar(f->format);
    enum AVSampleFormat packed = av_get_packed_sample_fmt(f->format);
    for (int c = 0; c < channels; c++) {
        const uint8_t *src = planar ? f->extended_data[c] : f->extended_data[0];
        int stride = planar ? 1 : channels, off = planar ? 0 : c;
        if (as_float) {
            float *dst = (float *)out + at * channels + c;
            switch (packed) {
            case AV_SAMPLE_FMT_FLT: { const float *s = (const float *)src + off; for (int i = 0; i < n; i++) dst[i * channels] = s[i * stride]; break; }
            case AV_SAMPLE_FMT_S16: { const int16_t *s = (const int16_t *)src + off; for (int i = 0; i < n; i++) dst[i * channels] = s[i * stride] * (1.0f / 32768); break; }
            case AV_SAMPLE_FMT_S32: { const int32_t *s = (const int32_t *)src + off; for (int i = 0; i < n; i++) dst[i * channels] = s[i * stride] * (1.0f / 2147483648.0f); break; }
            default: return -1;
            }
        } else {
            int32_t *dst = (int32_t *)out + at * channels + c;
            switch (packed) {
            case AV_SAMPLE_FMT_S16: { const int16_t *s = (const int16_t *)src + off; for (int i = 0; i < n; i++) dst[i * channels] = (int32_t)s[i * stride] << 16; break; }
            case AV_SAMPLE_FMT_S32: { const int32_t *s = (const int32_t *)src + off; for (int i = 0; i < n; i++) dst[i * channels] = s[i * stride]; break; }
            case AV_SAMPLE_FMT_FLT: { const float *s = (const float *)src + off; for (int i = 0; i < n; i++) { float v = s[i * stride] * 2147483648.0f; dst[i * channels] = v >= 2147483647.0f ? INT32_MAX : (int32_t)v; } break; }
            default: return -1;
            }
        }
    }
    return n;
}

int64_t cav_decode_file(const char *path, const char *decoder, int as_float, void *out, int64_t capacity,
                        int *channels) {
    av_log_set_level(AV_LOG_ERROR);  // not the demuxers' notes on every run
    AVFormatContext *fmt = NULL;
    if (avformat_open_input(&fmt, path, NULL, NULL) < 0) return -1;
    int64_t total = -2;
    AVCodecContext *ctx = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    if (avformat_find_stream_info(fmt, NULL) < 0) goto done;
    int stream = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, NULL, 0);
    if (stream < 0) goto done;
    AVCodecParameters *par = fmt->streams[stream]->codecpar;
    const AVCodec *codec = decoder ? avcodec_find_decoder_by_name(decoder) : avcodec_find_decoder(par->codec_id);
    if (!codec) goto done;
    ctx = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(ctx, par);
    if (avcodec_open2(ctx, codec, NULL) < 0) goto done;
    int ch = ctx->ch_layout.nb_channels;
    *channels = ch;
    total = 0;
    int draining = 0;
    while (!draining) {
        if (av_read_frame(fmt, pkt) < 0) { draining = 1; avcodec_send_packet(ctx, NULL); }
        else if (pkt->stream_index != stream) { av_packet_unref(pkt); continue; }
        else { avcodec_send_packet(ctx, pkt); av_packet_unref(pkt); }
        while (avcodec_receive_frame(ctx, frame) == 0) {
            int64_t got = append(frame, ch, as_float, out, total, capacity);
            if (got < 0) { total = -3; goto done; }
            total += got;
            av_frame_unref(frame);
        }
    }
done:
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    avformat_close_input(&fmt);
    return total;
}

// Moves interleaved 16-bit input into the encoder's sample format (what our AudioConverter does too).
static void fill(AVFrame *f, const int16_t *pcm, int n, int channels) {
    int planar = av_sample_fmt_is_planar(f->format);
    enum AVSampleFormat packed = av_get_packed_sample_fmt(f->format);
    for (int c = 0; c < channels; c++) {
        uint8_t *dst = planar ? f->extended_data[c] : f->extended_data[0];
        int stride = planar ? 1 : channels, off = planar ? 0 : c;
        switch (packed) {
        case AV_SAMPLE_FMT_S16: { int16_t *d = (int16_t *)dst + off; for (int i = 0; i < n; i++) d[i * stride] = pcm[i * channels + c]; break; }
        case AV_SAMPLE_FMT_S32: { int32_t *d = (int32_t *)dst + off; for (int i = 0; i < n; i++) d[i * stride] = (int32_t)pcm[i * channels + c] << 16; break; }
        case AV_SAMPLE_FMT_FLT: { float *d = (float *)dst + off; for (int i = 0; i < n; i++) d[i * stride] = pcm[i * channels + c] * (1.0f / 32768); break; }
        default: break;
        }
    }
}

int64_t cav_encode(const char *encoder, const int16_t *pcm, int64_t frames, int channels, int sample_rate,
                   int bit_rate, int compression_level, const char *options) {
    av_log_set_level(AV_LOG_ERROR);
    const AVCodec *codec = avcodec_find_encoder_by_name(encoder);
    if (!codec) return -1;
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    ctx->sample_rate = sample_rate;
    av_channel_layout_default(&ctx->ch_layout, channels);
    ctx->sample_fmt = codec->sample_fmts ? codec->sample_fmts[0] : AV_SAMPLE_FMT_S16;
    // 16-bit sources: the lossless encoders' 16-bit format where they offer one.
    if (codec->sample_fmts)
        for (const enum AVSampleFormat *s = codec->sample_fmts; *s != AV_SAMPLE_FMT_NONE; s++)
            if (*s == AV_SAMPLE_FMT_S16 || *s == AV_SAMPLE_FMT_S16P) { ctx->sample_fmt = *s; break; }
    if (bit_rate > 0) ctx->bit_rate = bit_rate;
    if (compression_level >= 0) ctx->compression_level = compression_level;
    ctx->time_base = (AVRational){1, sample_rate};
    int64_t bytes = -2;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    AVDictionary *dict = NULL;
    if (options) av_dict_parse_string(&dict, options, "=", ":", 0);
    int opened = avcodec_open2(ctx, codec, &dict);
    av_dict_free(&dict);
    if (opened < 0) goto done;
    int chunk = ctx->frame_size > 0 ? ctx->frame_size : 4096;
    frame->format = ctx->sample_fmt;
    frame->nb_samples = chunk;
    av_channel_layout_copy(&frame->ch_layout, &ctx->ch_layout);
    frame->sample_rate = sample_rate;
    if (av_frame_get_buffer(frame, 0) < 0) goto done;
    bytes = 0;
    for (int64_t at = 0;; at += chunk) {
        int last = at >= frames;
        if (!last) {
            int n = frames - at < chunk ? (int)(frames - at) : chunk;
            av_frame_make_writable(frame);
            frame->nb_samples = n;
            frame->pts = at;
            fill(frame, pcm + at * channels, n, channels);
            if (avcodec_send_frame(ctx, frame) < 0) { bytes = -3; goto done; }
        } else {
            avcodec_send_frame(ctx, NULL);
        }
        while (avcodec_receive_packet(ctx, pkt) == 0) { bytes += pkt->size; av_packet_unref(pkt); }
        if (last) break;
    }
done:
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    return bytes;
}
