#ifndef CDSPKERNELS_H
#define CDSPKERNELS_H

// Dot products for AudioDSP's resampler, compiled for AVX2 with FMA and chosen at run time: the package
// builds for baseline x86-64 (SSE2), and these are the only loops where the wider vectors pay enough to
// justify a second code path. Callers check oca_dsp_has_avx2_fma() once (outside any render path) and
// call the _avx2 functions only when it answers 1. `count` is a multiple of 8 in every function.
//
// Within one function family (f32 or f64 accumulation) a pair function gives each channel exactly the
// result of the single-channel function: the same operations in the same order, so a stereo conversion
// equals two mono ones bit for bit.

#ifdef __cplusplus
extern "C" {
#endif

// Swift's performance annotations accept calls to C only when marked: these touch their arguments only.
#define OCA_DSP_KERNEL __attribute__((swift_attr("@_noLocks")))

/// 1 when the CPU has AVX2 and FMA (and the OS saves the YMM registers), else 0.
int oca_dsp_has_avx2_fma(void);

/// Σ x[j]·h[j] in Float32 with fused multiply-adds (AVX2 + FMA only).
OCA_DSP_KERNEL float oca_dot_f32_avx2(const float *x, const float *h, long count);

/// The same sum for two channels through one set of coefficients (AVX2 + FMA only).
OCA_DSP_KERNEL void oca_dot2_f32_avx2(const float *x, const float *y, const float *h, long count, float *out);

/// Σ x[j]·h[j] accumulated in Float64 (each product is exact there), rounded to Float32 once: for the Max
/// quality, whose filter rejects below what Float32 accumulation can resolve. Baseline (SSE2) version.
OCA_DSP_KERNEL float oca_dot_f64acc(const float *x, const float *h, long count);

/// Two channels of oca_dot_f64acc through one set of coefficients. Baseline version.
OCA_DSP_KERNEL void oca_dot2_f64acc(const float *x, const float *y, const float *h, long count, float *out);

/// oca_dot_f64acc with AVX2 + FMA (only when oca_dsp_has_avx2_fma() answers 1).
OCA_DSP_KERNEL float oca_dot_f64acc_avx2(const float *x, const float *h, long count);

/// oca_dot2_f64acc with AVX2 + FMA.
OCA_DSP_KERNEL void oca_dot2_f64acc_avx2(const float *x, const float *y, const float *h, long count, float *out);

/// The resampler's exact-phase loop (SampleRateConverter.produce) for one pair of channels `x`, `y` (or one
/// channel `x` when `y` is NULL, `out1` then unused), with sums of its own (two accumulator chains, several frames
/// that share a row taken together; the bits depend only on the frame, never on how a stream's calls are cut, and
/// differ from oca_dot2_f32_avx2's by rounding): output frame n of up to
/// `count` reads the window at `*start` through row `*row` of `table`, then the phase advances by `numerator`
/// and the window by `whole`, one frame more when the phase wraps past `phases`. The `phases` rows of `taps`
/// are stored in the order a stream visits them (row r holds phase r·numerator mod phases; `*row` is the
/// row of `*phase`), so the coefficients stream from memory in sequence. Stops before a window would begin
/// past `lastStart`; returns the frames written and leaves `*start`, `*phase`, `*row` at the next frame's.
/// One call per block of frames instead of one per frame (AVX2 + FMA only).
OCA_DSP_KERNEL long oca_polyphase_f32_avx2(const float *x, const float *y, const float *table, long taps, long phases,
                                           long whole, long numerator, long lastStart, long count, long *start,
                                           long *phase, long *row, float *out0, float *out1);

/// oca_polyphase_f32_avx2 with oca_dot2_f64acc_avx2's sums (the Max quality; AVX2 + FMA only).
OCA_DSP_KERNEL long oca_polyphase_f64acc_avx2(const float *x, const float *y, const float *table, long taps,
                                              long phases, long whole, long numerator, long lastStart, long count,
                                              long *start, long *phase, long *row, float *out0, float *out1);

#ifdef __cplusplus
}
#endif

#endif
