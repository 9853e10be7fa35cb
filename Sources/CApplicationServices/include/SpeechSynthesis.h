// The Speech Synthesis Manager's types and constants (ApplicationServices/SpeechSynthesis.h) that the speech unit
// and the calls implemented in the Swift module ApplicationServices use. Values are Apple's.
#ifndef OCA_SPEECHSYNTHESIS_H
#define OCA_SPEECHSYNTHESIS_H

#include <stdint.h>
#include "OCAMacros.h"

CF_ASSUME_NONNULL_BEGIN

typedef int16_t OSErr;
typedef int32_t Fixed;

// AUSpeechSynthesis: the generator's subtype, and its voice and channel properties.
CF_ENUM(uint32_t) {
    kAudioUnitSubType_SpeechSynthesis   = 0x74747370,  // 'ttsp', a kAudioUnitType_Generator
    kAudioUnitProperty_Voice            = 3330,        // Get/Set (VoiceSpec)
    kAudioUnitProperty_SpeechChannel    = 3331         // Get (SpeechChannel)
};

struct SpeechChannelRecord {
    long data[1];
};
typedef struct SpeechChannelRecord SpeechChannelRecord;
typedef SpeechChannelRecord * SpeechChannel;

struct VoiceSpec {
    uint32_t creator;
    uint32_t id;
};
typedef struct VoiceSpec VoiceSpec;
typedef VoiceSpec * VoiceSpecPtr;

CF_ENUM(int16_t) {
    kNeuter = 0,
    kMale   = 1,
    kFemale = 2
};

// Errors the calls answer.
CF_ENUM(OSErr) {
    noSynthFound        = -240,
    synthOpenFailed     = -241,
    synthNotReady       = -242,
    bufTooSmall         = -243,
    voiceNotFound       = -244,
    incompatibleVoice   = -245,
    badDictFormat       = -246,
    badInputText        = -247
};

CF_ASSUME_NONNULL_END

#endif
