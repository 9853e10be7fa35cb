// System Sound Services (AudioServices.h): errors, sound IDs, properties and the completion proc type.
// The functions are Swift (AudioToolbox/Services/AudioServices+API.swift).
#ifndef OCA_AUDIOSERVICES_H
#define OCA_AUDIOSERVICES_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

CF_ENUM(OSStatus) {
    kAudioServicesNoError                                   = 0,
    kAudioServicesUnsupportedPropertyError                  = OCA_4CC('p','t','y','?'),
    kAudioServicesBadPropertySizeError                      = OCA_4CC('!','s','i','z'),
    kAudioServicesBadSpecifierSizeError                     = OCA_4CC('!','s','p','c'),
    kAudioServicesSystemSoundUnspecifiedError               = -1500,
    kAudioServicesSystemSoundClientTimedOutError            = -1501,
    kAudioServicesSystemSoundExceededMaximumDurationError   = -1502
};

typedef uint32_t SystemSoundID;
typedef uint32_t AudioServicesPropertyID;

typedef void (*AudioServicesSystemSoundCompletionProc)(SystemSoundID ssID, void * _Nullable clientData);

// macOS's alert IDs and iOS's vibrate ID (there is no vibrator or screen flash here: they only complete).
CF_ENUM(SystemSoundID) {
    kSystemSoundID_UserPreferredAlert   = 0x00001000,
    kSystemSoundID_FlashScreen          = 0x00000FFE,
    kUserPreferredAlert                 = kSystemSoundID_UserPreferredAlert
};

CF_ENUM(SystemSoundID) {
    kSystemSoundID_Vibrate              = 0x00000FFF
};

CF_ENUM(AudioServicesPropertyID) {
    kAudioServicesPropertyIsUISound                 = OCA_4CC('i','s','u','i'),
    kAudioServicesPropertyCompletePlaybackIfAppDies = OCA_4CC('i','f','d','i')
};

CF_ASSUME_NONNULL_END

#endif
