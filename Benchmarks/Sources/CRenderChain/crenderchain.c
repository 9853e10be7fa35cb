#include "crenderchain.h"
#include <stdlib.h>

// AudioBufferList's layout (CoreAudioTypes).
typedef struct { uint32_t mNumberChannels, mDataByteSize; void *mData; } buffer;
typedef struct { uint32_t mNumberBuffers; buffer mBuffers[1]; } buffer_list;
typedef struct { int count; void (*proc)(void *); } notify_list;

struct c_unit {
    int32_t (*render)(c_unit *, uint32_t *, const void *, uint32_t, uint32_t, void *);
    c_unit *upstream;
    c_render_callback callback;
    void *refCon;
    int initialized;
    uint32_t maxFrames, channels;
    notify_list notifies;
};

static int32_t pass_through(c_unit *u, uint32_t *flags, const void *ts, uint32_t bus, uint32_t frames, void *data) {
    buffer_list *list = data;
    if (!u->initialized) return -10867;
    if (frames > u->maxFrames) return -10874;
    if (bus != 0) return -10877;
    if (list->mNumberBuffers != u->channels) return -50;
    for (uint32_t i = 0; i < list->mNumberBuffers; i++) {
        if (list->mBuffers[i].mDataByteSize < frames * 4) return -50;
        list->mBuffers[i].mDataByteSize = frames * 4;
    }
    for (int i = 0; i < u->notifies.count; i++) u->notifies.proc(u);
    int32_t status = u->upstream ? u->upstream->render(u->upstream, flags, ts, 0, frames, data)
                                 : u->callback(u->refCon, flags, ts, 0, frames, data);
    for (int i = 0; i < u->notifies.count; i++) u->notifies.proc(u);
    return status;
}

c_unit *c_chain_new(int length, uint32_t maxFrames, uint32_t channels, c_render_callback callback, void *refCon) {
    c_unit *previous = NULL;
    for (int i = 0; i < length; i++) {
        c_unit *u = calloc(1, sizeof *u);
        u->render = pass_through;
        u->upstream = previous;
        u->callback = callback;
        u->refCon = refCon;
        u->initialized = 1;
        u->maxFrames = maxFrames;
        u->channels = channels;
        previous = u;
    }
    return previous;
}

int32_t c_unit_render(c_unit *unit, uint32_t *flags, const void *timeStamp, uint32_t bus, uint32_t frames, void *bufferList) {
    return unit->render(unit, flags, timeStamp, bus, frames, bufferList);
}

void c_chain_free(c_unit *head) {
    while (head) { c_unit *next = head->upstream; free(head); head = next; }
}
