#ifndef OCA_CAVCODEC_SHIM_H
#define OCA_CAVCODEC_SHIM_H
// Debian's libavcodec (FFmpeg) for AAC: its native AAC decoder (LC, HE, HE v2) and encoder (LC).
//
// The headers give the struct layouts and constants only: nothing links libavcodec or libavutil. Their ~100-library
// dependency tree (x264, x265, cairo, glib, X11...) cost every tool about 25 M cycles of dynamic loading at start-up,
// so the libraries are opened with dlopen the first time an AAC codec is made (oca_av_load) and called through the
// pointers in oca_av, by the oca_-prefixed wrappers below.
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

// One pointer per function used, typed from the headers' own declarations (so a wrapper that passes the wrong
// arguments does not compile).
#define OCA_AV_FUNCTIONS(X) \
    X(av_channel_layout_copy) X(av_channel_layout_default) X(av_frame_alloc) X(av_frame_free) \
    X(av_frame_get_buffer) X(av_frame_make_writable) X(av_frame_unref) X(av_log_get_level) X(av_log_set_level) \
    X(av_mallocz) X(av_new_packet) X(av_packet_alloc) X(av_packet_free) X(av_packet_unref) \
    X(av_sample_fmt_is_planar) X(avcodec_alloc_context3) X(avcodec_find_decoder) X(avcodec_find_encoder) \
    X(avcodec_flush_buffers) X(avcodec_open2) X(avcodec_receive_frame) X(avcodec_receive_packet) \
    X(avcodec_send_frame) X(avcodec_send_packet) X(avcodec_free_context)

#define OCA_AV_POINTER(name) __typeof__(&name) name;
struct oca_av_functions { OCA_AV_FUNCTIONS(OCA_AV_POINTER) };
#undef OCA_AV_POINTER

/// The resolved functions; valid once oca_av_load() has returned true.
extern struct oca_av_functions oca_av;

/// Opens libavutil and libavcodec (the sonames of the major versions these headers describe) and resolves every
/// function, once per process; true when all are there. Thread-safe; not for a real-time thread (it may load ~100
/// libraries): AAC calls it when a codec is made.
bool oca_av_load(void);

// The error macros Swift cannot import.
static inline int oca_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int oca_averror_eof(void) { return AVERROR_EOF; }
static inline int oca_av_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
static inline int oca_av_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int oca_av_codec_flag_qscale(void) { return AV_CODEC_FLAG_QSCALE; }

// The calls, through oca_av (only after oca_av_load() succeeded).
static inline int oca_av_channel_layout_copy(AVChannelLayout *dst, const AVChannelLayout *src) { return oca_av.av_channel_layout_copy(dst, src); }
static inline void oca_av_channel_layout_default(AVChannelLayout *layout, int channels) { oca_av.av_channel_layout_default(layout, channels); }
static inline AVFrame *oca_av_frame_alloc(void) { return oca_av.av_frame_alloc(); }
static inline void oca_av_frame_free(AVFrame **frame) { oca_av.av_frame_free(frame); }
static inline int oca_av_frame_get_buffer(AVFrame *frame, int align) { return oca_av.av_frame_get_buffer(frame, align); }
static inline int oca_av_frame_make_writable(AVFrame *frame) { return oca_av.av_frame_make_writable(frame); }
static inline void oca_av_frame_unref(AVFrame *frame) { oca_av.av_frame_unref(frame); }
static inline int oca_av_log_get_level(void) { return oca_av.av_log_get_level(); }
static inline void oca_av_log_set_level(int level) { oca_av.av_log_set_level(level); }
static inline void *oca_av_mallocz(size_t size) { return oca_av.av_mallocz(size); }
static inline int oca_av_new_packet(AVPacket *packet, int size) { return oca_av.av_new_packet(packet, size); }
static inline AVPacket *oca_av_packet_alloc(void) { return oca_av.av_packet_alloc(); }
static inline void oca_av_packet_free(AVPacket **packet) { oca_av.av_packet_free(packet); }
static inline void oca_av_packet_unref(AVPacket *packet) { oca_av.av_packet_unref(packet); }
static inline int oca_av_sample_fmt_is_planar(enum AVSampleFormat format) { return oca_av.av_sample_fmt_is_planar(format); }
static inline AVCodecContext *oca_avcodec_alloc_context3(const AVCodec *codec) { return oca_av.avcodec_alloc_context3(codec); }
static inline const AVCodec *oca_avcodec_find_decoder(enum AVCodecID id) { return oca_av.avcodec_find_decoder(id); }
static inline const AVCodec *oca_avcodec_find_encoder(enum AVCodecID id) { return oca_av.avcodec_find_encoder(id); }
static inline void oca_avcodec_flush_buffers(AVCodecContext *context) { oca_av.avcodec_flush_buffers(context); }
static inline int oca_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) { return oca_av.avcodec_open2(context, codec, options); }
static inline int oca_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return oca_av.avcodec_receive_frame(context, frame); }
static inline int oca_avcodec_receive_packet(AVCodecContext *context, AVPacket *packet) { return oca_av.avcodec_receive_packet(context, packet); }
static inline int oca_avcodec_send_frame(AVCodecContext *context, const AVFrame *frame) { return oca_av.avcodec_send_frame(context, frame); }
static inline int oca_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return oca_av.avcodec_send_packet(context, packet); }
static inline void oca_avcodec_free_context(AVCodecContext **context) { oca_av.avcodec_free_context(context); }
#endif
