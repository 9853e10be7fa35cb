// Audio Queue Services (AudioQueue.h): errors, property and parameter IDs, the buffer and meter
// structs and the callback types. The functions are Swift (AudioToolbox/Queue/AudioQueue+API.swift);
// AudioQueueChannelAssignment is declared in Swift so that its device UID is `Unmanaged<CFString>`.
#ifndef OCA_AUDIOQUEUE_H
#define OCA_AUDIOQUEUE_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef uint32_t AudioQueuePropertyID;
typedef uint32_t AudioQueueParameterID;
typedef float AudioQueueParameterValue;
typedef struct OpaqueAudioQueue *AudioQueueRef;
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;
typedef struct OpaqueAudioQueueProcessingTap *AudioQueueProcessingTapRef;

CF_ENUM(OSStatus) {
    kAudioQueueErr_InvalidBuffer        = -66687,
    kAudioQueueErr_BufferEmpty          = -66686,
    kAudioQueueErr_DisposalPending      = -66685,
    kAudioQueueErr_InvalidProperty      = -66684,
    kAudioQueueErr_InvalidPropertySize  = -66683,
    kAudioQueueErr_InvalidParameter     = -66682,
    kAudioQueueErr_CannotStart          = -66681,
    kAudioQueueErr_InvalidDevice        = -66680,
    kAudioQueueErr_BufferInQueue        = -66679,
    kAudioQueueErr_InvalidRunState      = -66678,
    kAudioQueueErr_InvalidQueueType     = -66677,
    kAudioQueueErr_Permissions          = -66676,
    kAudioQueueErr_InvalidPropertyValue = -66675,
    kAudioQueueErr_PrimeTimedOut        = -66674,
    kAudioQueueErr_CodecNotFound        = -66673,
    kAudioQueueErr_InvalidCodecAccess   = -66672,
    kAudioQueueErr_QueueInvalidated     = -66671,
    kAudioQueueErr_TooManyTaps          = -66670,
    kAudioQueueErr_InvalidTapContext    = -66669,
    kAudioQueueErr_RecordUnderrun       = -66668,
    kAudioQueueErr_InvalidTapType       = -66667,
    kAudioQueueErr_BufferEnqueuedTwice  = -66666,
    kAudioQueueErr_CannotStartYet       = -66665,
    kAudioQueueErr_EnqueueDuringReset   = -66632,
    kAudioQueueErr_InvalidOfflineMode   = -66626,
};

CF_ENUM(AudioQueuePropertyID) {
    kAudioQueueProperty_IsRunning               = OCA_4CC('a','q','r','n'),
    kAudioQueueDeviceProperty_SampleRate        = OCA_4CC('a','q','s','r'),
    kAudioQueueDeviceProperty_NumberChannels    = OCA_4CC('a','q','d','c'),
    kAudioQueueProperty_CurrentDevice           = OCA_4CC('a','q','c','d'),
    kAudioQueueProperty_MagicCookie             = OCA_4CC('a','q','m','c'),
    kAudioQueueProperty_MaximumOutputPacketSize = OCA_4CC('x','o','p','s'),
    kAudioQueueProperty_StreamDescription       = OCA_4CC('a','q','f','t'),
    kAudioQueueProperty_ChannelLayout           = OCA_4CC('a','q','c','l'),
    kAudioQueueProperty_EnableLevelMetering     = OCA_4CC('a','q','m','e'),
    kAudioQueueProperty_CurrentLevelMeter       = OCA_4CC('a','q','m','v'),
    kAudioQueueProperty_CurrentLevelMeterDB     = OCA_4CC('a','q','m','d'),
    kAudioQueueProperty_DecodeBufferSizeFrames  = OCA_4CC('d','c','b','f'),
    kAudioQueueProperty_ConverterError          = OCA_4CC('q','c','v','e'),
    kAudioQueueProperty_EnableTimePitch         = OCA_4CC('q','_','t','p'),
    kAudioQueueProperty_TimePitchAlgorithm      = OCA_4CC('q','t','p','a'),
    kAudioQueueProperty_TimePitchBypass         = OCA_4CC('q','t','p','b'),
    kAudioQueueProperty_ChannelAssignments      = OCA_4CC('a','q','c','a'),
    // iOS
    kAudioQueueProperty_HardwareCodecPolicy     = OCA_4CC('a','q','c','p'),
};

CF_ENUM(uint32_t) {
    kAudioQueueTimePitchAlgorithm_Spectral              = OCA_4CC('s','p','e','c'),
    kAudioQueueTimePitchAlgorithm_TimeDomain            = OCA_4CC('t','i','d','o'),
    kAudioQueueTimePitchAlgorithm_Varispeed             = OCA_4CC('v','s','p','d'),
    // iOS (deprecated there)
    kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency = OCA_4CC('l','q','z','l'),
};

// iOS's hardware codec policies (there is no hardware codec here: every policy is the software one).
CF_ENUM(uint32_t) {
    kAudioQueueHardwareCodecPolicy_Default          = 0,
    kAudioQueueHardwareCodecPolicy_UseSoftwareOnly  = 1,
    kAudioQueueHardwareCodecPolicy_UseHardwareOnly  = 2,
    kAudioQueueHardwareCodecPolicy_PreferSoftware   = 3,
    kAudioQueueHardwareCodecPolicy_PreferHardware   = 4
};

CF_ENUM(AudioQueueParameterID) {
    kAudioQueueParam_Volume         = 1,
    kAudioQueueParam_PlayRate       = 2,
    kAudioQueueParam_Pitch          = 3,
    kAudioQueueParam_VolumeRampTime = 4,
    kAudioQueueParam_Pan            = 13
};

typedef enum OCA_OPTIONS_ATTR AudioQueueProcessingTapFlags : uint32_t {
    kAudioQueueProcessingTap_PreEffects     = (1 << 0),
    kAudioQueueProcessingTap_PostEffects    = (1 << 1),
    kAudioQueueProcessingTap_Siphon         = (1 << 2),
    kAudioQueueProcessingTap_StartOfStream  = (1 << 8),
    kAudioQueueProcessingTap_EndOfStream    = (1 << 9),
} AudioQueueProcessingTapFlags;

// The const members import as `let`, as in Apple's Swift interface: the queue owns the memory.
typedef struct AudioQueueBuffer {
    const uint32_t                    mAudioDataBytesCapacity;
    void * const                    mAudioData;
    uint32_t                          mAudioDataByteSize;
    void * _Nullable               mUserData;
    const uint32_t                    mPacketDescriptionCapacity;
    AudioStreamPacketDescription * const _Nullable mPacketDescriptions;
    uint32_t                          mPacketDescriptionCount;
} AudioQueueBuffer;

typedef AudioQueueBuffer *AudioQueueBufferRef;

typedef struct AudioQueueParameterEvent {
    AudioQueueParameterID       mID;
    AudioQueueParameterValue    mValue;
} AudioQueueParameterEvent;

typedef struct AudioQueueLevelMeterState {
    float     mAveragePower;
    float     mPeakPower;
} AudioQueueLevelMeterState;

typedef void (*AudioQueueOutputCallback)(void * _Nullable inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);

typedef void (*AudioQueueInputCallback)(void * _Nullable inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer,
                                        const AudioTimeStamp *inStartTime, uint32_t inNumberPacketDescriptions,
                                        const AudioStreamPacketDescription * _Nullable inPacketDescs);

typedef void (*AudioQueuePropertyListenerProc)(void * _Nullable inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID);

typedef void (*AudioQueueProcessingTapCallback)(void *inClientData, AudioQueueProcessingTapRef inAQTap, uint32_t inNumberFrames,
                                                AudioTimeStamp *ioTimeStamp, AudioQueueProcessingTapFlags *ioFlags,
                                                uint32_t *outNumberFrames, AudioBufferList *ioData);

CF_ASSUME_NONNULL_END

#endif
