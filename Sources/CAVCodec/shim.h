#ifndef OCA_CAVCODEC_SHIM_H
#define OCA_CAVCODEC_SHIM_H
// Debian's libavcodec (FFmpeg) for AAC: its native AAC decoder (LC, HE, HE v2) and encoder (LC).
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>
#include <errno.h>

// The error macros Swift cannot import.
static inline int oca_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int oca_averror_eof(void) { return AVERROR_EOF; }
static inline int oca_av_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
static inline int oca_av_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int oca_av_codec_flag_qscale(void) { return AV_CODEC_FLAG_QSCALE; }
#endif
