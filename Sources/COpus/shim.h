// libopus (Debian's libopus-dev): the Opus codec behind kAudioFormatOpus. Its control calls are variadic
// macros, which Swift cannot call: these wrappers give each one the code uses a plain signature.
#include <opus/opus.h>
#include <opus/opus_multistream.h>

static inline int oca_opus_set_bitrate(OpusEncoder *e, opus_int32 bitrate) { return opus_encoder_ctl(e, OPUS_SET_BITRATE(bitrate)); }
static inline int oca_opus_set_complexity(OpusEncoder *e, opus_int32 complexity) { return opus_encoder_ctl(e, OPUS_SET_COMPLEXITY(complexity)); }
static inline int oca_opus_set_vbr(OpusEncoder *e, opus_int32 vbr) { return opus_encoder_ctl(e, OPUS_SET_VBR(vbr)); }
static inline int oca_opus_set_vbr_constraint(OpusEncoder *e, opus_int32 constrained) { return opus_encoder_ctl(e, OPUS_SET_VBR_CONSTRAINT(constrained)); }
static inline int oca_opus_get_lookahead(OpusEncoder *e, opus_int32 *lookahead) { return opus_encoder_ctl(e, OPUS_GET_LOOKAHEAD(lookahead)); }
static inline int oca_opus_encoder_reset(OpusEncoder *e) { return opus_encoder_ctl(e, OPUS_RESET_STATE); }
static inline int oca_opus_decoder_reset(OpusDecoder *d) { return opus_decoder_ctl(d, OPUS_RESET_STATE); }
static inline int oca_opus_multistream_decoder_reset(OpusMSDecoder *d) { return opus_multistream_decoder_ctl(d, OPUS_RESET_STATE); }
// The multistream (surround) encoder's controls, for 3-8 channels.
static inline int oca_opus_ms_set_bitrate(OpusMSEncoder *e, opus_int32 bitrate) { return opus_multistream_encoder_ctl(e, OPUS_SET_BITRATE(bitrate)); }
static inline int oca_opus_ms_set_complexity(OpusMSEncoder *e, opus_int32 complexity) { return opus_multistream_encoder_ctl(e, OPUS_SET_COMPLEXITY(complexity)); }
static inline int oca_opus_ms_set_vbr(OpusMSEncoder *e, opus_int32 vbr) { return opus_multistream_encoder_ctl(e, OPUS_SET_VBR(vbr)); }
static inline int oca_opus_ms_set_vbr_constraint(OpusMSEncoder *e, opus_int32 constrained) { return opus_multistream_encoder_ctl(e, OPUS_SET_VBR_CONSTRAINT(constrained)); }
static inline int oca_opus_ms_get_lookahead(OpusMSEncoder *e, opus_int32 *lookahead) { return opus_multistream_encoder_ctl(e, OPUS_GET_LOOKAHEAD(lookahead)); }
static inline int oca_opus_ms_encoder_reset(OpusMSEncoder *e) { return opus_multistream_encoder_ctl(e, OPUS_RESET_STATE); }
