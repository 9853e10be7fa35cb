// See CDSPKernels.h. Each sum keeps several accumulator chains so the adds do not wait on one another, then
// adds them and reduces across lanes in a fixed order.
#include "CDSPKernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

int oca_dsp_has_avx2_fma(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

#if defined(__x86_64__) || defined(__i386__)

#define AVX2 __attribute__((target("avx2,fma")))

AVX2 static inline float hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));  // lanes i + i+4
    __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));                                   // (0+2), (1+3)
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

// Four chains per channel: Zen and Intel cores take 4-5 cycles per fused multiply-add and start two per cycle,
// so fewer chains leave the units waiting. Chain k holds taps
// 8k ... 8k+7 of every 32; the chains are added (0+2) + (1+3), then across the lanes.
#define F32_CHAINS_SUM(a0, a1, a2, a3) _mm256_add_ps(_mm256_add_ps(a0, a2), _mm256_add_ps(a1, a3))

AVX2 static inline float oca_dot_f32_avx2_k(const float *x, const float *h, long count) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    long j = 0;
    for (; j + 32 <= count; j += 32) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), _mm256_loadu_ps(h + j), a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 8), _mm256_loadu_ps(h + j + 8), a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 16), _mm256_loadu_ps(h + j + 16), a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 24), _mm256_loadu_ps(h + j + 24), a3);
    }
    if (j < count) { a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), _mm256_loadu_ps(h + j), a0); j += 8; }
    if (j < count) { a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), _mm256_loadu_ps(h + j), a1); j += 8; }
    if (j < count) { a2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), _mm256_loadu_ps(h + j), a2); }
    return hsum8(F32_CHAINS_SUM(a0, a1, a2, a3));
}

AVX2 static inline void oca_dot2_f32_avx2_k(const float *x, const float *y, const float *h, long count, float *out) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    __m256 b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps(), b2 = _mm256_setzero_ps(), b3 = _mm256_setzero_ps();
    long j = 0;
    for (; j + 32 <= count; j += 32) {
        __m256 c0 = _mm256_loadu_ps(h + j), c1 = _mm256_loadu_ps(h + j + 8);
        __m256 c2 = _mm256_loadu_ps(h + j + 16), c3 = _mm256_loadu_ps(h + j + 24);
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), c0, a0);
        b0 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j), c0, b0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 8), c1, a1);
        b1 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j + 8), c1, b1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 16), c2, a2);
        b2 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j + 16), c2, b2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j + 24), c3, a3);
        b3 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j + 24), c3, b3);
    }
    if (j < count) {
        __m256 c = _mm256_loadu_ps(h + j);
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), c, a0);
        b0 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j), c, b0);
        j += 8;
    }
    if (j < count) {
        __m256 c = _mm256_loadu_ps(h + j);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), c, a1);
        b1 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j), c, b1);
        j += 8;
    }
    if (j < count) {
        __m256 c = _mm256_loadu_ps(h + j);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + j), c, a2);
        b2 = _mm256_fmadd_ps(_mm256_loadu_ps(y + j), c, b2);
    }
    out[0] = hsum8(F32_CHAINS_SUM(a0, a1, a2, a3));
    out[1] = hsum8(F32_CHAINS_SUM(b0, b1, b2, b3));
}

AVX2 static inline double hsum4d(__m256d v) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

// Eight taps into two double accumulators: products of Floats are exact in Float64, so only the adds round.
#define F64_STEP(acc0, acc1, xp, hp)                                                               \
    do {                                                                                           \
        __m256 xv = _mm256_loadu_ps(xp), hv = _mm256_loadu_ps(hp);                                 \
        acc0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xv)),                        \
                               _mm256_cvtps_pd(_mm256_castps256_ps128(hv)), acc0);                 \
        acc1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xv, 1)),                      \
                               _mm256_cvtps_pd(_mm256_extractf128_ps(hv, 1)), acc1);               \
    } while (0)

// Four chains of four lanes per channel, as for Float32: chain k takes taps 4k ... 4k+3 of every 16 (a count
// that is 8 mod 16 ends with one more step into chains 0 and 1). Chains are added (0+2) + (1+3).
#define F64_CHAINS_SUM(a0, a1, a2, a3) _mm256_add_pd(_mm256_add_pd(a0, a2), _mm256_add_pd(a1, a3))

AVX2 static inline float oca_dot_f64acc_avx2_k(const float *x, const float *h, long count) {
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    long j = 0;
    for (; j + 16 <= count; j += 16) {
        F64_STEP(a0, a1, x + j, h + j);
        F64_STEP(a2, a3, x + j + 8, h + j + 8);
    }
    if (j < count) F64_STEP(a0, a1, x + j, h + j);
    return (float)hsum4d(F64_CHAINS_SUM(a0, a1, a2, a3));
}

AVX2 static inline void oca_dot2_f64acc_avx2_k(const float *x, const float *y, const float *h, long count, float *out) {
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    __m256d b0 = _mm256_setzero_pd(), b1 = _mm256_setzero_pd(), b2 = _mm256_setzero_pd(), b3 = _mm256_setzero_pd();
    long j = 0;
    for (; j + 16 <= count; j += 16) {
        F64_STEP(a0, a1, x + j, h + j);
        F64_STEP(b0, b1, y + j, h + j);
        F64_STEP(a2, a3, x + j + 8, h + j + 8);
        F64_STEP(b2, b3, y + j + 8, h + j + 8);
    }
    if (j < count) {
        F64_STEP(a0, a1, x + j, h + j);
        F64_STEP(b0, b1, y + j, h + j);
    }
    out[0] = (float)hsum4d(F64_CHAINS_SUM(a0, a1, a2, a3));
    out[1] = (float)hsum4d(F64_CHAINS_SUM(b0, b1, b2, b3));
}

AVX2 float oca_dot_f32_avx2(const float *x, const float *h, long count) { return oca_dot_f32_avx2_k(x, h, count); }
AVX2 void oca_dot2_f32_avx2(const float *x, const float *y, const float *h, long count, float *out) {
    oca_dot2_f32_avx2_k(x, y, h, count, out);
}
AVX2 float oca_dot_f64acc_avx2(const float *x, const float *h, long count) { return oca_dot_f64acc_avx2_k(x, h, count); }
AVX2 void oca_dot2_f64acc_avx2(const float *x, const float *y, const float *h, long count, float *out) {
    oca_dot2_f64acc_avx2_k(x, y, h, count, out);
}

// The exact-phase loop around the kernels above (Max; Float32 has its own below): the same sums, frame after frame, without a call per frame, the
// rows read in sequence (a table in phase order is read 147 rows apart at 44.1 -> 48 kHz and misses the cache's
// prefetcher: the loop took up to twice as long).
#define POLYPHASE_LOOP(DOT2, DOT1)                                                                          \
    long s = *start, p = *phase, r = *row, n = 0;                                                           \
    if (y) {                                                                                                \
        for (; n < count && s <= lastStart; n++) {                                                          \
            float pair[2];                                                                                  \
            DOT2(x + s, y + s, table + r * taps, taps, pair);                                               \
            out0[n] = pair[0];                                                                              \
            out1[n] = pair[1];                                                                              \
            if (++r == phases) r = 0;                                                                       \
            p += numerator;                                                                                 \
            s += whole;                                                                                     \
            if (p >= phases) { p -= phases; s += 1; }                                                       \
        }                                                                                                   \
    } else {                                                                                                \
        for (; n < count && s <= lastStart; n++) {                                                          \
            out0[n] = DOT1(x + s, table + r * taps, taps);                                                  \
            if (++r == phases) r = 0;                                                                       \
            p += numerator;                                                                                 \
            s += whole;                                                                                     \
            if (p >= phases) { p -= phases; s += 1; }                                                       \
        }                                                                                                   \
    }                                                                                                       \
    *start = s;                                                                                             \
    *phase = p;                                                                                             \
    *row = r;                                                                                               \
    return n;

// The Float32 exact-phase loop has sums of its own: two chains per channel and frame (chain k holds taps 8k ... 8k+7
// of every 16; a count that is 8 mod 16 ends with one more step into chain 0), added, then across the lanes. Output
// frames n and n + phases read the same row of coefficients, so the loop takes them together (and n + 2·phases,
// n + 3·phases for one channel): each row is loaded once for four sums, which keeps the multiply-add units as busy as
// four chains of one frame while loading a third fewer bytes (the loop is bound by loads; 44.1 -> 48 kHz stereo ran
// 16% faster). Frames the blocks do not cover (the end of a call) take the same sums one at a time, so a stream
// converts to the same bits however its calls are cut.
#define F32_LOOP_STEP(acc, xp, hv) acc = _mm256_fmadd_ps(_mm256_loadu_ps(xp), hv, acc)

// Four sums through one row: channels x and y at window offsets 0 and d (stereo), or channel x at 0, d, 2d, 3d (y NULL).
AVX2 static inline void oca_rowsum4_f32_avx2(const float *x, const float *y, long d, const float *h, long count, float *o) {
    const float *p0 = x, *p1 = y ? y : x + d, *p2 = y ? x + d : x + 2 * d, *p3 = y ? y + d : x + 3 * d;
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();
    __m256 c0 = _mm256_setzero_ps(), c1 = _mm256_setzero_ps(), e0 = _mm256_setzero_ps(), e1 = _mm256_setzero_ps();
    long j = 0;
    for (; j + 16 <= count; j += 16) {
        __m256 h0 = _mm256_loadu_ps(h + j), h1 = _mm256_loadu_ps(h + j + 8);
        F32_LOOP_STEP(a0, p0 + j, h0);
        F32_LOOP_STEP(b0, p1 + j, h0);
        F32_LOOP_STEP(c0, p2 + j, h0);
        F32_LOOP_STEP(e0, p3 + j, h0);
        F32_LOOP_STEP(a1, p0 + j + 8, h1);
        F32_LOOP_STEP(b1, p1 + j + 8, h1);
        F32_LOOP_STEP(c1, p2 + j + 8, h1);
        F32_LOOP_STEP(e1, p3 + j + 8, h1);
    }
    if (j < count) {
        __m256 h0 = _mm256_loadu_ps(h + j);
        F32_LOOP_STEP(a0, p0 + j, h0);
        F32_LOOP_STEP(b0, p1 + j, h0);
        F32_LOOP_STEP(c0, p2 + j, h0);
        F32_LOOP_STEP(e0, p3 + j, h0);
    }
    o[0] = hsum8(_mm256_add_ps(a0, a1));
    o[1] = hsum8(_mm256_add_ps(b0, b1));
    o[2] = hsum8(_mm256_add_ps(c0, c1));
    o[3] = hsum8(_mm256_add_ps(e0, e1));
}

// One frame's sums (one channel, or two): the same operations as a block's.
AVX2 static inline void oca_rowsum_f32_avx2(const float *x, const float *y, const float *h, long count, float *o) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();
    long j = 0;
    if (y) {
        for (; j + 16 <= count; j += 16) {
            __m256 h0 = _mm256_loadu_ps(h + j), h1 = _mm256_loadu_ps(h + j + 8);
            F32_LOOP_STEP(a0, x + j, h0);
            F32_LOOP_STEP(b0, y + j, h0);
            F32_LOOP_STEP(a1, x + j + 8, h1);
            F32_LOOP_STEP(b1, y + j + 8, h1);
        }
        if (j < count) {
            __m256 h0 = _mm256_loadu_ps(h + j);
            F32_LOOP_STEP(a0, x + j, h0);
            F32_LOOP_STEP(b0, y + j, h0);
        }
        o[1] = hsum8(_mm256_add_ps(b0, b1));
    } else {
        for (; j + 16 <= count; j += 16) {
            F32_LOOP_STEP(a0, x + j, _mm256_loadu_ps(h + j));
            F32_LOOP_STEP(a1, x + j + 8, _mm256_loadu_ps(h + j + 8));
        }
        if (j < count) F32_LOOP_STEP(a0, x + j, _mm256_loadu_ps(h + j));
    }
    o[0] = hsum8(_mm256_add_ps(a0, a1));
}

AVX2 long oca_polyphase_f32_avx2(const float *x, const float *y, const float *table, long taps, long phases, long whole,
                                 long numerator, long lastStart, long count, long *start, long *phase, long *row,
                                 float *out0, float *out1) {
    long s = *start, p = *phase, r = *row, n = 0;
    // `phases` frames advance the window by exactly m input frames and return to the same phase and row.
    long m = whole * phases + numerator, span = y ? 2 : 4;
    while (n + span * phases <= count && s + span * m <= lastStart) {
        for (long i = 0; i < phases; i++) {
            float o[4];
            oca_rowsum4_f32_avx2(x + s, y ? y + s : NULL, m, table + r * taps, taps, o);
            if (y) {
                out0[n + i] = o[0];
                out1[n + i] = o[1];
                out0[n + i + phases] = o[2];
                out1[n + i + phases] = o[3];
            } else {
                for (long k = 0; k < 4; k++) out0[n + i + k * phases] = o[k];
            }
            if (++r == phases) r = 0;
            p += numerator;
            s += whole;
            if (p >= phases) { p -= phases; s += 1; }
        }
        // The loop stepped one block of `phases` frames; the other blocks of the span were taken alongside.
        n += span * phases;
        s += (span - 1) * m;
    }
    for (; n < count && s <= lastStart; n++) {
        float o[2];
        oca_rowsum_f32_avx2(x + s, y ? y + s : NULL, table + r * taps, taps, o);
        out0[n] = o[0];
        if (y) out1[n] = o[1];
        if (++r == phases) r = 0;
        p += numerator;
        s += whole;
        if (p >= phases) { p -= phases; s += 1; }
    }
    *start = s;
    *phase = p;
    *row = r;
    return n;
}

AVX2 long oca_polyphase_f64acc_avx2(const float *x, const float *y, const float *table, long taps, long phases,
                                    long whole, long numerator, long lastStart, long count, long *start, long *phase,
                                    long *row, float *out0, float *out1) {
    POLYPHASE_LOOP(oca_dot2_f64acc_avx2_k, oca_dot_f64acc_avx2_k)
}

#else  // Not x86: oca_dsp_has_avx2_fma() answers 0 and these are never called.

float oca_dot_f32_avx2(const float *x, const float *h, long count) { (void)x; (void)h; (void)count; return 0; }
void oca_dot2_f32_avx2(const float *x, const float *y, const float *h, long count, float *out) {
    (void)x; (void)y; (void)h; (void)count; out[0] = out[1] = 0;
}
float oca_dot_f64acc_avx2(const float *x, const float *h, long count) { return oca_dot_f64acc(x, h, count); }
void oca_dot2_f64acc_avx2(const float *x, const float *y, const float *h, long count, float *out) {
    oca_dot2_f64acc(x, y, h, count, out);
}

long oca_polyphase_f32_avx2(const float *x, const float *y, const float *table, long taps, long phases, long whole,
                            long numerator, long lastStart, long count, long *start, long *phase, long *row,
                            float *out0, float *out1) {
    (void)x; (void)y; (void)table; (void)taps; (void)phases; (void)whole; (void)numerator; (void)lastStart;
    (void)count; (void)start; (void)phase; (void)row; (void)out0; (void)out1;
    return 0;
}
long oca_polyphase_f64acc_avx2(const float *x, const float *y, const float *table, long taps, long phases, long whole,
                               long numerator, long lastStart, long count, long *start, long *phase, long *row,
                               float *out0, float *out1) {
    (void)x; (void)y; (void)table; (void)taps; (void)phases; (void)whole; (void)numerator; (void)lastStart;
    (void)count; (void)start; (void)phase; (void)row; (void)out0; (void)out1;
    return 0;
}

#endif

// Baseline Float64 accumulation, in plain C so any target compiles it. Lane k sums taps j % 16 == k (the
// AVX2 version's chain k / 4, lane k % 4), the chains are added (0+2) + (1+3) lane by lane, then lanes
// (0+2) + (1+3): the AVX2 version's order. A product of Floats is exact in Float64, so its fused multiply-add
// rounds exactly where this add does, and the two versions agree bit for bit.
float oca_dot_f64acc(const float *x, const float *h, long count) {
    double a[16] = {0};
    for (long j = 0; j < count; j += 8) {
        int base = (int)(j & 8);
        for (int k = 0; k < 8; k++) a[base + k] += (double)x[j + k] * (double)h[j + k];
    }
    double l[4];
    for (int m = 0; m < 4; m++) l[m] = (a[m] + a[8 + m]) + (a[4 + m] + a[12 + m]);
    return (float)((l[0] + l[2]) + (l[1] + l[3]));
}

void oca_dot2_f64acc(const float *x, const float *y, const float *h, long count, float *out) {
    out[0] = oca_dot_f64acc(x, h, count);
    out[1] = oca_dot_f64acc(y, h, count);
}
