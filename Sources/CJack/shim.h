// libjack (JACK Audio Connection Kit, from jackd2): the JACK MIDI backend of the CoreMIDI module. Installed by
// scripts/setup.sh (libjack-jackd2-dev). Besides the headers, the real-time half of the bridge lives here in C:
// the process callback moves events between JACK's MIDI buffers and lock-free single-reader/single-writer rings
// (jack_ringbuffer), with no allocation, lock or system call. The Swift side (JACKMIDIBackend) owns the slots.
#ifndef OCA_CJACK_SHIM_H
#define OCA_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/ringbuffer.h>
#include <stdint.h>
#include <string.h>

/// Ports the bridge can carry at once (virtual endpoints plus the helper ports for outside endpoints).
#define OCA_JACK_SLOTS 256

/// One of our JACK ports. `port` is published last (release) and cleared first: NULL means unused.
typedef struct {
    jack_port_t *port;
    /// An output port's timed events (in time order), or an input port's received events.
    jack_ringbuffer_t *ring;
    /// An output port's events for as soon as possible (timestamp 0 or past): they never wait behind a timed one.
    jack_ringbuffer_t *now_ring;
    /// 1: an output port (rings: events from Core MIDI to JACK); 0: an input port (JACK to Core MIDI).
    int32_t output;
    int32_t reserved;
} oca_jack_slot;

/// What the process callback shares with the rest of the process.
typedef struct {
    jack_client_t *client;
    /// Completed process cycles: a slot's ring is freed only once this has moved on after the slot was cleared.
    uint64_t cycles;
    /// Host time (ns) = JACK time (us) * 1000 + this offset; resampled by the Swift side.
    int64_t host_offset_ns;
    /// Events dropped because a ring or a JACK buffer was full.
    uint32_t dropped;
    /// Set by JACK's notification thread when ports or clients come and go, or the server shuts down.
    uint32_t graph_changed;
    uint32_t shut_down;
    uint32_t reserved;
    oca_jack_slot slots[OCA_JACK_SLOTS];
} oca_jack_state;

/// A ring record: this header, then `size` bytes of one complete MIDI message.
typedef struct {
    /// Host time in ns (0 in an output ring: as soon as possible).
    uint64_t time;
    uint32_t size;
    uint32_t reserved;
} oca_jack_event_header;

static inline void oca_jack_slot_publish(oca_jack_state *s, int i, jack_port_t *port, jack_ringbuffer_t *ring,
                                         jack_ringbuffer_t *now_ring, int output) {
    s->slots[i].ring = ring;
    s->slots[i].now_ring = now_ring;
    s->slots[i].output = output;
    __atomic_store_n(&s->slots[i].port, port, __ATOMIC_RELEASE);
}
static inline void oca_jack_slot_clear(oca_jack_state *s, int i) { __atomic_store_n(&s->slots[i].port, (jack_port_t *)0, __ATOMIC_RELEASE); }
static inline uint64_t oca_jack_cycles(oca_jack_state *s) { return __atomic_load_n(&s->cycles, __ATOMIC_ACQUIRE); }
static inline void oca_jack_set_offset(oca_jack_state *s, int64_t v) { __atomic_store_n(&s->host_offset_ns, v, __ATOMIC_RELEASE); }
static inline uint32_t oca_jack_take_flag(uint32_t *flag) { return __atomic_exchange_n(flag, 0, __ATOMIC_ACQ_REL); }
static inline uint32_t oca_jack_dropped(oca_jack_state *s) { return __atomic_load_n(&s->dropped, __ATOMIC_RELAXED); }

// RealtimeSanitizer's region markers (weak: no-ops unless scripts/rtsan-test.sh links the runtime), so that a
// lock, sleep or blocking system call inside the callback aborts the RTSan test run.
extern void __rtsan_realtime_enter(void) __attribute__((weak));
extern void __rtsan_realtime_exit(void) __attribute__((weak));
extern void __rtsan_ensure_initialized(void) __attribute__((weak));

/// Moves an output ring's events due in this cycle into the port's buffer, each at the frame its host time falls
/// on (0 and past times: the first frame, or the last used, as JACK wants them in order); stops at the first
/// event of a later cycle.
static inline void oca_jack_drain_output(oca_jack_state *s, jack_ringbuffer_t *ring, void *buffer, jack_nframes_t nframes,
                                         int timed, jack_time_t cur_usecs, double usecs_per_frame, int64_t offset_ns,
                                         jack_nframes_t *last) {
    for (;;) {
        oca_jack_event_header h;
        if (jack_ringbuffer_peek(ring, (char *)&h, sizeof h) < sizeof h) break;
        if (jack_ringbuffer_read_space(ring) < sizeof h + h.size) break;
        jack_nframes_t frame = 0;
        if (h.time != 0 && timed) {
            double delta_us = ((double)((int64_t)h.time - offset_ns)) / 1000.0 - (double)cur_usecs;
            if (delta_us > 0) {
                double f = delta_us / usecs_per_frame;
                if (f >= nframes) break;  // a later cycle's
                frame = (jack_nframes_t)f;
            }
        }
        if (frame < *last) frame = *last;
        jack_ringbuffer_read_advance(ring, sizeof h);
        jack_midi_data_t *dst = jack_midi_event_reserve(buffer, frame, h.size);
        if (dst) {
            jack_ringbuffer_read(ring, (char *)dst, h.size);
            *last = frame;
        } else {
            jack_ringbuffer_read_advance(ring, h.size);
            __atomic_fetch_add(&s->dropped, 1, __ATOMIC_RELAXED);
        }
    }
}

/// The JACK process callback (real time): each output slot's events (as-soon-as-possible ones first, then the
/// timed ones due in this cycle) go into its port's buffer; each input slot's buffer events go into its ring
/// with the host time of their frame.
static inline int oca_jack_process(jack_nframes_t nframes, void *arg) {
    if (__rtsan_ensure_initialized) __rtsan_ensure_initialized();
    if (__rtsan_realtime_enter) __rtsan_realtime_enter();
    oca_jack_state *s = (oca_jack_state *)arg;
    jack_nframes_t cur_frames = 0;
    jack_time_t cur_usecs = 0, next_usecs = 0;
    float period_usecs = 0;
    int timed = jack_get_cycle_times(s->client, &cur_frames, &cur_usecs, &next_usecs, &period_usecs) == 0 && nframes > 0
        && next_usecs > cur_usecs;
    double usecs_per_frame = timed ? (double)(next_usecs - cur_usecs) / nframes : 0;
    if (!timed && nframes > 0) {
        // No cycle times this cycle (seen once with the dummy driver under RealtimeSanitizer): the cycle starts now,
        // at the nominal rate. Without this, a timed event went out at once and input was stamped 0.
        jack_nframes_t rate = jack_get_sample_rate(s->client);
        if (rate > 0) {
            cur_usecs = jack_get_time();
            usecs_per_frame = 1e6 / rate;
            timed = 1;
        }
    }
    int64_t offset_ns = __atomic_load_n(&s->host_offset_ns, __ATOMIC_ACQUIRE);
    for (int i = 0; i < OCA_JACK_SLOTS; i++) {
        jack_port_t *port = __atomic_load_n(&s->slots[i].port, __ATOMIC_ACQUIRE);
        if (!port) continue;
        void *buffer = jack_port_get_buffer(port, nframes);
        jack_ringbuffer_t *ring = s->slots[i].ring;
        if (!buffer || !ring) continue;
        if (s->slots[i].output) {
            jack_midi_clear_buffer(buffer);
            jack_nframes_t last = 0;
            if (s->slots[i].now_ring)
                oca_jack_drain_output(s, s->slots[i].now_ring, buffer, nframes, 0, cur_usecs, usecs_per_frame, offset_ns, &last);
            oca_jack_drain_output(s, ring, buffer, nframes, timed, cur_usecs, usecs_per_frame, offset_ns, &last);
        } else {
            uint32_t count = jack_midi_get_event_count(buffer);
            for (uint32_t e = 0; e < count; e++) {
                jack_midi_event_t ev;
                if (jack_midi_event_get(&ev, buffer, e) != 0 || ev.size == 0) continue;
                oca_jack_event_header h;
                h.time = timed ? (uint64_t)((int64_t)(((double)cur_usecs + ev.time * usecs_per_frame) * 1000.0) + offset_ns) : 0;
                h.size = (uint32_t)ev.size;
                h.reserved = 0;
                if (jack_ringbuffer_write_space(ring) < sizeof h + ev.size) {
                    __atomic_fetch_add(&s->dropped, 1, __ATOMIC_RELAXED);
                    continue;
                }
                jack_ringbuffer_write(ring, (const char *)&h, sizeof h);
                jack_ringbuffer_write(ring, (const char *)ev.buffer, ev.size);
            }
        }
    }
    __atomic_fetch_add(&s->cycles, 1, __ATOMIC_RELEASE);
    if (__rtsan_realtime_exit) __rtsan_realtime_exit();
    return 0;
}

static inline void oca_jack_graph_changed(void *arg) { __atomic_store_n(&((oca_jack_state *)arg)->graph_changed, 1, __ATOMIC_RELEASE); }
static inline void oca_jack_port_registered(jack_port_id_t port, int registered, void *arg) { oca_jack_graph_changed(arg); }
static inline void oca_jack_client_registered(const char *name, int registered, void *arg) { oca_jack_graph_changed(arg); }
static inline void oca_jack_port_renamed(jack_port_id_t port, const char *old_name, const char *new_name, void *arg) { oca_jack_graph_changed(arg); }
static inline void oca_jack_shutdown(void *arg) {
    __atomic_store_n(&((oca_jack_state *)arg)->shut_down, 1, __ATOMIC_RELEASE);
    oca_jack_graph_changed(arg);
}

/// Installs the callbacks above on a client that is not yet active.
static inline int oca_jack_install(oca_jack_state *s) {
    int err = jack_set_process_callback(s->client, oca_jack_process, s);
    err |= jack_set_port_registration_callback(s->client, oca_jack_port_registered, s);
    err |= jack_set_client_registration_callback(s->client, oca_jack_client_registered, s);
    err |= jack_set_port_rename_callback(s->client, oca_jack_port_renamed, s);
    jack_on_shutdown(s->client, oca_jack_shutdown, s);
    return err;
}

static inline void oca_jack_quiet_message(const char *message) { (void)message; }
/// Keeps libjack from printing to stderr (a missing server is normal for a library that only looks for one).
static inline void oca_jack_silence(void) {
    jack_set_error_function(oca_jack_quiet_message);
    jack_set_info_function(oca_jack_quiet_message);
}

/// jack_client_open without a server start, at server `server` (the variadic call Swift cannot make).
static inline jack_client_t *oca_jack_open(const char *name, const char *server, jack_status_t *status) {
    return jack_client_open(name, (jack_options_t)(JackNoStartServer | JackServerName), status, server);
}
#endif
