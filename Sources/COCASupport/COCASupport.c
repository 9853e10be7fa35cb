#include "COCASupport.h"
#include <time.h>

uint64_t oca_monotonic_nanoseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

extern void __rtsan_realtime_enter(void) __attribute__((weak));
extern void __rtsan_realtime_exit(void) __attribute__((weak));
extern void __rtsan_ensure_initialized(void) __attribute__((weak));

void oca_realtime_enter(void) {
    if (__rtsan_ensure_initialized) __rtsan_ensure_initialized();
    if (__rtsan_realtime_enter) __rtsan_realtime_enter();
}

void oca_realtime_exit(void) {
    if (__rtsan_realtime_exit) __rtsan_realtime_exit();
}

// initial-exec: a fixed offset from the thread pointer, not a __tls_get_addr call on every render.
__thread int oca_render_depth __attribute__((tls_model("initial-exec")));

int oca_in_render(void) { return oca_render_depth > 0; }
