// The peer for render dispatch: a chain of pass-through units in C, each a struct with a render function
// pointer that checks what AudioUnitRender checks (initialized, frame limit, buffer count and sizes, empty
// notify lists) and pulls its upstream unit into the caller's buffers; the far end calls a render callback.
#ifndef CRENDERCHAIN_H
#define CRENDERCHAIN_H
#include <stdint.h>

typedef int32_t (*c_render_callback)(void *refCon, uint32_t *flags, const void *timeStamp, uint32_t bus,
                                     uint32_t frames, void *bufferList);
typedef struct c_unit c_unit;

/// A chain of `length` units; the first pulls `callback`. Returns the last (the head the host renders).
c_unit *c_chain_new(int length, uint32_t maxFrames, uint32_t channels, c_render_callback callback, void *refCon);
/// Renders the head of a chain, as AudioUnitRender does.
int32_t c_unit_render(c_unit *unit, uint32_t *flags, const void *timeStamp, uint32_t bus, uint32_t frames, void *bufferList);
void c_chain_free(c_unit *head);
#endif
