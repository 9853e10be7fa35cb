// The types AVAudioSession shares with C (CoreAudioTypes' AudioSessionTypes.h), with Apple's names and values.
#ifndef OCA_AUDIOSESSIONTYPES_H
#define OCA_AUDIOSESSIONTYPES_H

#include "CoreAudioBaseTypes.h"

// Binary-compatible with NSInteger/NSUInteger (64-bit).
typedef long AVAudioInteger;
typedef unsigned long AVAudioUInteger;

// A unique identifier for an audio session.
typedef uint32_t AudioSessionID;

// AVAudioSession's error codes. Apple's API notes give this enum the Swift name AVAudioSession.ErrorCode (AVFAudio
// declares that type here, with the same cases and values); under its C name Swift cannot use it, at Apple as here.
typedef enum OCA_ENUM_ATTR AVAudioSessionErrorCode : AVAudioInteger {
    AVAudioSessionErrorCodeNone                     = 0,
    AVAudioSessionErrorCodeMediaServicesFailed      = OCA_4CC('m','s','r','v'),
    AVAudioSessionErrorCodeIsBusy                   = OCA_4CC('!','a','c','t'),
    AVAudioSessionErrorCodeIncompatibleCategory     = OCA_4CC('!','c','a','t'),
    AVAudioSessionErrorCodeCannotInterruptOthers    = OCA_4CC('!','i','n','t'),
    AVAudioSessionErrorCodeMissingEntitlement       = OCA_4CC('e','n','t','?'),
    AVAudioSessionErrorCodeSiriIsRecording          = OCA_4CC('s','i','r','i'),
    AVAudioSessionErrorCodeCannotStartPlaying       = OCA_4CC('!','p','l','a'),
    AVAudioSessionErrorCodeCannotStartRecording     = OCA_4CC('!','r','e','c'),
    AVAudioSessionErrorCodeBadParam                 = -50,
    AVAudioSessionErrorCodeInsufficientPriority     = OCA_4CC('!','p','r','i'),
    AVAudioSessionErrorCodeResourceNotAvailable     = OCA_4CC('!','r','e','s'),
    AVAudioSessionErrorCodeUnspecified              = OCA_4CC('w','h','a','t'),
    AVAudioSessionErrorCodeExpiredSession           = OCA_4CC('!','s','e','s'),
    AVAudioSessionErrorCodeSessionNotActive         = OCA_4CC('i','n','a','c')
} AVAudioSessionErrorCode __attribute__((availability(swift, unavailable, message="use AVAudioSession.ErrorCode")));

// The old name of InsufficientPriority (deprecated on iOS since 12, absent on macOS).
enum {
    AVAudioSessionErrorInsufficientPriority = AVAudioSessionErrorCodeInsufficientPriority
};

#endif
