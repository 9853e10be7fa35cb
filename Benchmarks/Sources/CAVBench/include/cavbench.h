// The libavcodec peer for CodecBench: whole-file decoding (libavformat demuxing + libavcodec decoding) to
// interleaved PCM in memory, and in-memory encoding of interleaved 16-bit PCM to packets (no muxing), so
// the peer does the same work as our ExtAudioFile / AudioConverter side with the same kind of glue.
#ifndef CAVBENCH_H
#define CAVBENCH_H
#include <stdint.h>

/// Decodes the first audio stream of `path` with libavformat + libavcodec (decoder `decoder`, or the stream's
/// default when NULL) to interleaved PCM in `out` (capacity `capacity` frames): 32-bit integers
/// left-justified when `as_float` is 0, Float32 otherwise. Answers the frames decoded, or a negative error.
int64_t cav_decode_file(const char *path, const char *decoder, int as_float, void *out, int64_t capacity,
                        int *channels);

/// Encodes `frames` frames of interleaved 16-bit PCM with the libavcodec encoder `encoder` (e.g. "flac",
/// "alac", "aac", "libopus", "adpcm_ima_qt", "pcm_mulaw", "pcm_alaw") at `bit_rate` (0: the default) and
/// `compression_level` (-1: the default) and the encoder's private `options` ("key=value:key=value" or NULL).
/// Answers the bytes of packets produced, or a negative error.
int64_t cav_encode(const char *encoder, const int16_t *pcm, int64_t frames, int channels, int sample_rate,
                   int bit_rate, int compression_level, const char *options);

#endif
