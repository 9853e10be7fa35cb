// Small C helpers for the real-time path: relaxed/acquire-release 32-bit atomics on raw storage
// (parameters live in preallocated arrays, where Swift's Atomic cannot be placed), and the
// RealtimeSanitizer region markers (weak: no-ops unless the RTSan runtime is linked).
#ifndef OCA_SUPPORT_H
#define OCA_SUPPORT_H

#include <stdint.h>

#define OCA_NOLOCKS __attribute__((swift_attr("@_noLocks")))

static inline OCA_NOLOCKS uint32_t oca_atomic_load_u32(const uint32_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline OCA_NOLOCKS void oca_atomic_store_u32(uint32_t *p, uint32_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static inline OCA_NOLOCKS uint64_t oca_atomic_load_u64(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline OCA_NOLOCKS void oca_atomic_store_u64(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/// memmove for the render path (glibc's is not annotated for the real-time checker).
static inline OCA_NOLOCKS void oca_memmove(void *dst, const void *src, unsigned long n) {
    __builtin_memmove(dst, src, n);
}

/// memset to zero for the render path (as oca_memmove).
static inline OCA_NOLOCKS void oca_memzero(void *dst, unsigned long n) {
    __builtin_memset(dst, 0, n);
}

/// How deep the calling thread is inside AudioUnitRender calls (0: not rendering). Lets non-real-time
/// APIs notice they are called from a render callback or notification.
/// Inline, on an initial-exec thread-local: every unit of a pull chain enters and leaves, and two out-of-line calls
/// per unit were a measurable part of the render dispatch.
extern __thread int oca_render_depth __attribute__((tls_model("initial-exec")));
static inline OCA_NOLOCKS void oca_render_enter(void) { oca_render_depth++; }
static inline OCA_NOLOCKS void oca_render_leave(void) { oca_render_depth--; }
OCA_NOLOCKS int oca_in_render(void);

/// Monotonic clock in nanoseconds (vDSO, no system call on Linux x86_64/arm64).
OCA_NOLOCKS uint64_t oca_monotonic_nanoseconds(void);

/// Marks the calling thread as real-time for RealtimeSanitizer (no-op without the runtime).
OCA_NOLOCKS void oca_realtime_enter(void);
OCA_NOLOCKS void oca_realtime_exit(void);

#endif
