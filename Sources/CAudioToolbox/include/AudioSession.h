// Audio Session Services (AudioSession.h): iOS's C audio session API, deprecated since iOS 7 but used by older
// code and by "Learning Core Audio" chapter 10. Apple declares these as anonymous enums, which Swift imports as
// Int (clients write UInt32(kAudioSessionProperty_AudioCategory)). The functions are Swift
// (AudioToolbox/Services/AudioSession+API.swift).
#ifndef OCA_AUDIOSESSION_H
#define OCA_AUDIOSESSION_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

enum {
    kAudioSessionNoError                = 0,
    kAudioSessionNotInitialized         = OCA_4CC('!','i','n','i'),
    kAudioSessionAlreadyInitialized     = OCA_4CC('i','n','i','t'),
    kAudioSessionInitializationError    = OCA_4CC('i','n','i','?'),
    kAudioSessionUnsupportedPropertyError = OCA_4CC('p','t','y','?'),
    kAudioSessionBadPropertySizeError   = OCA_4CC('!','s','i','z'),
    kAudioSessionNotActiveError         = OCA_4CC('!','a','c','t'),
    kAudioServicesNoHardwareError       = OCA_4CC('n','o','h','w'),
    kAudioSessionNoCategorySet          = OCA_4CC('?','c','a','t'),
    kAudioSessionIncompatibleCategory   = OCA_4CC('!','c','a','t'),
    kAudioSessionUnspecifiedError       = OCA_4CC('w','h','a','t')
};

// The interruption listener's state argument.
enum {
    kAudioSessionBeginInterruption  = 1,
    kAudioSessionEndInterruption    = 0
};

typedef uint32_t AudioSessionInterruptionType;
enum {
    kAudioSessionInterruptionType_ShouldResume    = OCA_4CC('i','r','s','m'),
    kAudioSessionInterruptionType_ShouldNotResume = OCA_4CC('!','r','s','m')
};

enum {
    kAudioSessionCategory_AmbientSound              = OCA_4CC('a','m','b','i'),
    kAudioSessionCategory_SoloAmbientSound          = OCA_4CC('s','o','l','o'),
    kAudioSessionCategory_MediaPlayback             = OCA_4CC('m','e','d','i'),
    kAudioSessionCategory_RecordAudio               = OCA_4CC('r','e','c','a'),
    kAudioSessionCategory_PlayAndRecord             = OCA_4CC('p','l','a','r'),
    kAudioSessionCategory_AudioProcessing           = OCA_4CC('p','r','o','c'),
    kAudioSessionCategory_UserInterfaceSoundEffects = OCA_4CC('u','i','f','x'),
    kAudioSessionCategory_LiveAudio                 = OCA_4CC('l','i','v','e')
};

enum {
    kAudioSessionMode_Default           = OCA_4CC('d','f','l','t'),
    kAudioSessionMode_VoiceChat         = OCA_4CC('v','c','c','t'),
    kAudioSessionMode_VideoRecording    = OCA_4CC('v','r','c','d'),
    kAudioSessionMode_Measurement       = OCA_4CC('m','s','m','t'),
    kAudioSessionMode_GameChat          = OCA_4CC('g','m','c','t')
};

enum {
    kAudioSessionRouteChangeReason_Unknown                      = 0,
    kAudioSessionRouteChangeReason_NewDeviceAvailable           = 1,
    kAudioSessionRouteChangeReason_OldDeviceUnavailable         = 2,
    kAudioSessionRouteChangeReason_CategoryChange               = 3,
    kAudioSessionRouteChangeReason_Override                     = 4,
    kAudioSessionRouteChangeReason_WakeFromSleep                = 6,
    kAudioSessionRouteChangeReason_NoSuitableRouteForCategory   = 7,
    kAudioSessionRouteChangeReason_RouteConfigurationChange     = 8
};

// Keys of the kAudioSessionProperty_AudioRouteChange listener's dictionary.
#define kAudioSession_AudioRouteChangeKey_Reason    "OutputDeviceDidChange_Reason"
#define kAudioSession_AudioRouteChangeKey_OldRoute  "OutputDeviceDidChange_OldRoute"

typedef uint32_t AudioSessionPropertyID;

enum {
    kAudioSessionProperty_PreferredHardwareSampleRate           = OCA_4CC('h','w','s','r'),
    kAudioSessionProperty_PreferredHardwareIOBufferDuration     = OCA_4CC('i','o','b','d'),
    kAudioSessionProperty_AudioCategory                         = OCA_4CC('a','c','a','t'),
    kAudioSessionProperty_AudioRouteChange                      = OCA_4CC('r','o','c','h'),
    kAudioSessionProperty_CurrentHardwareSampleRate             = OCA_4CC('c','h','s','r'),
    kAudioSessionProperty_CurrentHardwareInputNumberChannels    = OCA_4CC('c','h','i','c'),
    kAudioSessionProperty_CurrentHardwareOutputNumberChannels   = OCA_4CC('c','h','o','c'),
    kAudioSessionProperty_CurrentHardwareOutputVolume           = OCA_4CC('c','h','o','v'),
    kAudioSessionProperty_CurrentHardwareInputLatency           = OCA_4CC('c','i','l','t'),
    kAudioSessionProperty_CurrentHardwareOutputLatency          = OCA_4CC('c','o','l','t'),
    kAudioSessionProperty_CurrentHardwareIOBufferDuration       = OCA_4CC('c','h','b','d'),
    kAudioSessionProperty_OtherAudioIsPlaying                   = OCA_4CC('o','t','h','r'),
    kAudioSessionProperty_OverrideAudioRoute                    = OCA_4CC('o','v','r','d'),
    kAudioSessionProperty_AudioInputAvailable                   = OCA_4CC('a','i','a','v'),
    kAudioSessionProperty_ServerDied                            = OCA_4CC('d','i','e','d'),
    kAudioSessionProperty_OtherMixableAudioShouldDuck           = OCA_4CC('d','u','c','k'),
    kAudioSessionProperty_OverrideCategoryMixWithOthers         = OCA_4CC('c','m','i','x'),
    kAudioSessionProperty_OverrideCategoryDefaultToSpeaker      = OCA_4CC('c','s','p','k'),
    kAudioSessionProperty_OverrideCategoryEnableBluetoothInput  = OCA_4CC('c','b','l','u'),
    kAudioSessionProperty_InterruptionType                      = OCA_4CC('t','y','p','e'),
    kAudioSessionProperty_Mode                                  = OCA_4CC('m','o','d','e'),
    kAudioSessionProperty_InputSources                          = OCA_4CC('s','r','c','s'),
    kAudioSessionProperty_OutputDestinations                    = OCA_4CC('d','s','t','s'),
    kAudioSessionProperty_InputSource                           = OCA_4CC('i','s','r','c'),
    kAudioSessionProperty_OutputDestination                     = OCA_4CC('o','d','s','t'),
    kAudioSessionProperty_InputGainAvailable                    = OCA_4CC('i','g','a','v'),
    kAudioSessionProperty_InputGainScalar                       = OCA_4CC('i','g','s','c'),
    kAudioSessionProperty_AudioRouteDescription                 = OCA_4CC('c','r','a','r'),
    kAudioSessionProperty_AudioRoute                            = OCA_4CC('r','o','u','t')
};

enum {
    kAudioSessionOverrideAudioRoute_None    = 0,
    kAudioSessionOverrideAudioRoute_Speaker = OCA_4CC('s','p','k','r')
};

enum {
    kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation = (1 << 0)
};

typedef void (*AudioSessionInterruptionListener)(void * _Nullable inClientData, uint32_t inInterruptionState);
typedef void (*AudioSessionPropertyListener)(void * _Nullable inClientData, AudioSessionPropertyID inID, uint32_t inDataSize,
                                             const void * _Nullable inData);

CF_ASSUME_NONNULL_END

#endif
