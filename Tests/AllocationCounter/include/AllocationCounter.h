// Counts heap allocations made by the calling thread between start and stop. Linked only into the
// test binary, where its malloc family overrides glibc's (the executable's symbols come first) and
// forwards to glibc's __libc_* entry points.
#ifndef OCA_ALLOCATION_COUNTER_H
#define OCA_ALLOCATION_COUNTER_H

#include <stdint.h>

void oca_alloc_counting_start(void);
/// Stops counting and returns the number of allocations the calling thread made meanwhile.
uint64_t oca_alloc_counting_stop(void);
/// 1 if the override is active in this process (a sanity check for the test itself).
int oca_alloc_counter_is_active(void);

#endif
