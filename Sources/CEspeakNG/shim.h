#ifndef CESPEAKNG_SHIM_H
#define CESPEAKNG_SHIM_H

// The classic eSpeak API (espeak_Initialize, espeak_Synth, espeak_ListVoices, ...).
// libespeak-ng implements it on top of its own espeak_ng_* API.
#include <espeak-ng/speak_lib.h>
// The espeak_ng_* API: initialisation that reports errors instead of exit(1).
#include <espeak-ng/espeak_ng.h>

#endif
