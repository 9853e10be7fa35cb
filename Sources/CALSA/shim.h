// libasound (ALSA), the device backend of the CoreAudio module. Installed by scripts/setup.sh (libasound2-dev).
#include <alsa/asoundlib.h>

// CoreMIDI's sequencer backend: snd_seq_open without alsa-lib's error print (a machine without /dev/snd/seq is
// normal for it; it stays off quietly). The handler is process-wide, so it is swapped only around the call.
static inline void oca_alsa_quiet_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline int oca_alsa_seq_open_quietly(snd_seq_t **handle) {
    snd_lib_error_set_handler(oca_alsa_quiet_error);
    int err = snd_seq_open(handle, "default", SND_SEQ_OPEN_DUPLEX, 0);
    snd_lib_error_set_handler(NULL);
    return err;
}
