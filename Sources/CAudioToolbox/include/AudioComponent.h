// Audio Component Services (AudioComponent.h): descriptions, handles, the v2 plug-in interface.
#ifndef OCA_AUDIOCOMPONENT_H
#define OCA_AUDIOCOMPONENT_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef enum OCA_OPTIONS_ATTR AudioComponentFlags : uint32_t {
    kAudioComponentFlag_Unsearchable        = 1,
    kAudioComponentFlag_SandboxSafe         = 2,
    kAudioComponentFlag_IsV3AudioUnit       = 4,
    kAudioComponentFlag_RequiresAsyncInstantiation = 8,
    kAudioComponentFlag_CanLoadInProcess    = 0x10
} AudioComponentFlags;

typedef enum OCA_OPTIONS_ATTR AudioComponentInstantiationOptions : uint32_t {
    kAudioComponentInstantiation_LoadOutOfProcess   = 1,
    kAudioComponentInstantiation_LoadInProcess      = 2,
    kAudioComponentInstantiation_LoadedRemotely     = 1U << 31
} AudioComponentInstantiationOptions;

struct AudioComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    uint32_t componentFlags;
    uint32_t componentFlagsMask;
};
typedef struct AudioComponentDescription AudioComponentDescription;

typedef struct OpaqueAudioComponent *AudioComponent;
typedef struct ComponentInstanceRecord *AudioComponentInstance;

// A plug-in method: its real signature depends on the selector (see AUComponent.h).
typedef OSStatus (*AudioComponentMethod)(void *self, ...);

struct AudioComponentPlugInInterface {
    OSStatus (*Open)(void *self, AudioComponentInstance mInstance);
    OSStatus (*Close)(void *self);
    AudioComponentMethod _Nullable (* _Nonnull Lookup)(int16_t selector);
    void * _Nullable reserved;
};
typedef struct AudioComponentPlugInInterface AudioComponentPlugInInterface;

typedef AudioComponentPlugInInterface * _Nullable (*AudioComponentFactoryFunction)(const AudioComponentDescription *inDesc);

CF_ENUM(OSStatus) {
    kAudioComponentErr_InstanceTimedOut         = -66754,
    kAudioComponentErr_InstanceInvalidated      = -66749,
    kAudioComponentErr_DuplicateDescription     = -66752,
    kAudioComponentErr_UnsupportedType          = -66751,
    kAudioComponentErr_TooManyInstances         = -66750,
    kAudioComponentErr_NotPermitted             = -66748,
    kAudioComponentErr_InitializationTimedOut   = -66747,
    kAudioComponentErr_InvalidFormat            = -66746
};

// Component Manager statuses Core Audio still returns for bad handles and selectors.
CF_ENUM(OSStatus) {
    badComponentInstance = (int32_t)0x80008001,
    badComponentSelector = (int32_t)0x80008002
};

// AudioComponentValidate's answer, and the keys of its parameters and of AudioComponentCopyConfigurationInfo.
typedef enum OCA_ENUM_ATTR AudioComponentValidationResult : uint32_t {
    kAudioComponentValidationResult_Unknown                = 0,
    kAudioComponentValidationResult_Passed                 = 1,
    kAudioComponentValidationResult_Failed                 = 2,
    kAudioComponentValidationResult_TimedOut               = 3,
    kAudioComponentValidationResult_UnauthorizedError_Open = 4,
    kAudioComponentValidationResult_UnauthorizedError_Init = 5
} AudioComponentValidationResult;

#define kAudioComponentConfigurationInfo_ValidationResult   "ValidationResult"
#define kAudioComponentValidationParameter_TimeOut          "TimeOut"
#define kAudioComponentValidationParameter_ForceValidation  "ForceValidation"
#define kAudioComponentValidationParameter_LoadOutOfProcess "LoadOutOfProcess"

CF_ASSUME_NONNULL_END

#endif
