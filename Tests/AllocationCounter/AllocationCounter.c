#include "AllocationCounter.h"
#include <stddef.h>
#include <errno.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static __thread int counting;
static __thread uint64_t count;
static int override_seen;

static int trap_mode = -1;  // OCA_ALLOC_TRAP=1: crash on a counted allocation, to get its backtrace

static inline void note(void) {
    override_seen = 1;
    if (!counting) return;
    count++;
    if (trap_mode < 0) {
        const char *v = getenv("OCA_ALLOC_TRAP");
        trap_mode = v && v[0] == '1';
    }
    if (trap_mode) __builtin_trap();
}

// Sanitizers bring their own malloc; overriding it under them breaks their bookkeeping. There the
// counter is inactive (oca_alloc_counter_is_active() stays 0) and the tests skip the count.
#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#    define OCA_NO_MALLOC_OVERRIDE 1
#  endif
#endif

#ifndef OCA_NO_MALLOC_OVERRIDE
void *malloc(size_t size) { note(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { note(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { note(); return __libc_realloc(p, size); }
void *memalign(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    note();
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

#endif

void oca_alloc_counting_start(void) { count = 0; counting = 1; }
uint64_t oca_alloc_counting_stop(void) { counting = 0; return count; }
int oca_alloc_counter_is_active(void) { return override_seen; }
