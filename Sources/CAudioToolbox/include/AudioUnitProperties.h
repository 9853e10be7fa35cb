// Audio unit properties (AudioUnitProperties.h, AudioOutputUnit.h): IDs, scopes, and the structures
// exchanged through them that carry no CoreFoundation objects (those are Swift types in AudioToolbox).
#ifndef OCA_AUDIOUNITPROPERTIES_H
#define OCA_AUDIOUNITPROPERTIES_H

#include "AUComponent.h"

CF_ASSUME_NONNULL_BEGIN

CF_ENUM(AudioUnitScope) {
    kAudioUnitScope_Global      = 0,
    kAudioUnitScope_Input       = 1,
    kAudioUnitScope_Output      = 2,
    kAudioUnitScope_Group       = 3,
    kAudioUnitScope_Part        = 4,
    kAudioUnitScope_Note        = 5,
    kAudioUnitScope_Layer       = 6,
    kAudioUnitScope_LayerItem   = 7
};

CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ClassInfo                    = 0,
    kAudioUnitProperty_MakeConnection               = 1,
    kAudioUnitProperty_SampleRate                   = 2,
    kAudioUnitProperty_ParameterList                = 3,
    kAudioUnitProperty_ParameterInfo                = 4,
    kAudioUnitProperty_CPULoad                      = 6,
    kAudioUnitProperty_StreamFormat                 = 8,
    kAudioUnitProperty_ElementCount                 = 11,
    kAudioUnitProperty_Latency                      = 12,
    kAudioUnitProperty_SupportedNumChannels         = 13,
    kAudioUnitProperty_MaximumFramesPerSlice        = 14,
    kAudioUnitProperty_ParameterValueStrings        = 16,
    kAudioUnitProperty_AudioChannelLayout           = 19,
    kAudioUnitProperty_TailTime                     = 20,
    kAudioUnitProperty_BypassEffect                 = 21,
    kAudioUnitProperty_LastRenderError              = 22,
    kAudioUnitProperty_SetRenderCallback            = 23,
    kAudioUnitProperty_FactoryPresets               = 24,
    kAudioUnitProperty_RenderQuality                = 26,
    kAudioUnitProperty_HostCallbacks                = 27,
    kAudioUnitProperty_InPlaceProcessing            = 29,
    kAudioUnitProperty_ElementName                  = 30,
    kAudioUnitProperty_SupportedChannelLayoutTags   = 32,
    kAudioUnitProperty_PresentPreset                = 36,
    kAudioUnitProperty_DependentParameters          = 45,
    kAudioUnitProperty_InputSamplesInOutput         = 49,
    kAudioUnitProperty_ShouldAllocateBuffer         = 51,
    kAudioUnitProperty_FrequencyResponse            = 52,
    kAudioUnitProperty_ParameterHistoryInfo         = 53,
    kAudioUnitProperty_NickName                     = 54,
    kAudioUnitProperty_OfflineRender                = 37,
    kAudioUnitProperty_ParameterIDName              = 34,
    kAudioUnitProperty_ParameterStringFromValue     = 33,
    kAudioUnitProperty_ParameterClumpName           = 35,
    kAudioUnitProperty_ParameterValueFromString     = 38,
    kAudioUnitProperty_ContextName                  = 25,
    kAudioUnitProperty_PresentationLatency          = 40,
    kAudioUnitProperty_ClassInfoFromDocument        = 50,
    kAudioUnitProperty_RequestViewController        = 56,
    kAudioUnitProperty_ParametersForOverview        = 57,
    kAudioUnitProperty_SupportsMPE                  = 58,
    kAudioUnitProperty_RenderContextObserver        = 60,
    kAudioUnitProperty_LastRenderSampleTime         = 61,
    kAudioUnitProperty_LoadedOutOfProcess           = 62,
    kAudioUnitProperty_MIDIOutputCallbackInfo       = 47,
    kAudioUnitProperty_MIDIOutputCallback           = 48,
    kAudioUnitProperty_MIDIOutputEventListCallback  = 63,
    kAudioUnitProperty_AudioUnitMIDIProtocol        = 64,
    kAudioUnitProperty_HostMIDIProtocol             = 65,
    kAudioUnitProperty_MIDIOutputBufferSizeHint     = 66,
    kAudioUnitProperty_FastDispatch                 = 5,
    kAudioUnitProperty_SetExternalBuffer            = 15,
    kAudioUnitProperty_GetUIComponentList           = 18,
    kAudioUnitProperty_CocoaUI                      = 31,
    kAudioUnitProperty_IconLocation                 = 39,
    kAudioUnitProperty_AUHostIdentifier             = 46
};


// Properties of specific units and legacy names (values from Apple's headers).
CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_BusCount                         = kAudioUnitProperty_ElementCount,
    kAudioUnitProperty_SRCAlgorithm                     = 9,
    kAudioUnitProperty_MIDIControlMapping               = 17,
    kAudioUnitProperty_CurrentPreset                    = 28,
    kAudioUnitProperty_ParameterValueName               = kAudioUnitProperty_ParameterStringFromValue,
    kAudioUnitProperty_AllParameterMIDIMappings         = 41,
    kAudioUnitProperty_AddParameterMIDIMapping          = 42,
    kAudioUnitProperty_RemoveParameterMIDIMapping       = 43,
    kAudioUnitProperty_HotMapParameterMIDIMapping       = 44,
    kAudioUnitProperty_RemoteControlEventListener       = 100,
    kAudioUnitProperty_IsInterAppConnected              = 101,
    kAudioUnitProperty_PeerURL                          = 102,
    kAudioUnitProperty_ReverbRoomType                   = 10,
    kAudioUnitProperty_UsesInternalReverb               = 1005,
    kAudioUnitProperty_SpatializationAlgorithm          = 3000,
    kAudioUnitProperty_SpeakerConfiguration             = 3001,
    kAudioUnitProperty_DopplerShift                     = 3002,
    kAudioUnitProperty_SpatialMixerRenderingFlags       = 3003,
    kAudioUnitProperty_3DMixerRenderingFlags            = 3003,
    kAudioUnitProperty_3DMixerDistanceAtten             = 3004,
    kAudioUnitProperty_SpatialMixerSourceMode           = 3005,
    kAudioUnitProperty_MatrixLevels                     = 3006,
    kAudioUnitProperty_MeteringMode                     = 3007,
    kAudioUnitProperty_PannerMode                       = 3008,
    kAudioUnitProperty_MatrixDimensions                 = 3009,
    kAudioUnitProperty_SpatialMixerDistanceParams       = 3010,
    kAudioUnitProperty_3DMixerDistanceParams            = 3010,
    kAudioUnitProperty_MeterClipping                    = 3011,
    kAudioUnitProperty_ReverbPreset                     = 3012,
    kAudioUnitProperty_SpatialMixerAttenuationCurve     = 3013,
    kAudioUnitProperty_3DMixerAttenuationCurve          = 3013,
    kAudioUnitProperty_SampleRateConverterComplexity    = 3014,
    kAudioUnitProperty_InputAnchorTimeStamp             = 3016,
    kAudioUnitProperty_SpatialMixerOutputType           = 3100,
    kAudioUnitProperty_SpatialMixerPointSourceInHeadMode = 3103,
    kAudioUnitProperty_SpatialMixerEnableHeadTracking   = 3111,
    kAudioUnitProperty_SpatialMixerPersonalizedHRTFMode = 3113,
    kAudioUnitProperty_SpatialMixerAnyInputIsUsingPersonalizedHRTF = 3116,
    kAudioUnitProperty_ScheduleAudioSlice               = 3300,
    kAudioUnitProperty_ScheduleStartTimeStamp           = 3301,
    kAudioUnitProperty_CurrentPlayTime                  = 3302,
    kAudioUnitProperty_ScheduledFileIDs                 = 3310,
    kAudioUnitProperty_ScheduledFileRegion              = 3311,
    kAudioUnitProperty_ScheduledFilePrime               = 3312,
    kAudioUnitProperty_ScheduledFileBufferSizeFrames    = 3313,
    kAudioUnitProperty_ScheduledFileNumberBuffers       = 3314,
    kAudioUnitProperty_DeferredRendererPullSize         = 3320,
    kAudioUnitProperty_DeferredRendererExtraLatency     = 3321,
    kAudioUnitProperty_DeferredRendererWaitFrames       = 3322,
    kAudioUnitProperty_DistanceAttenuationData          = 3600
};

// Output units (AudioOutputUnit.h / AudioUnitProperties.h).
CF_ENUM(AudioUnitPropertyID) {
    kAudioOutputUnitProperty_CurrentDevice          = 2000,
    kAudioOutputUnitProperty_IsRunning              = 2001,
    kAudioOutputUnitProperty_ChannelMap             = 2002,
    kAudioOutputUnitProperty_EnableIO               = 2003,
    kAudioOutputUnitProperty_StartTime              = 2004,
    kAudioOutputUnitProperty_SetInputCallback       = 2005,
    kAudioOutputUnitProperty_HasIO                  = 2006,
    kAudioOutputUnitProperty_StartTimestampsAtZero  = 2007,
    kAudioOutputUnitProperty_MIDICallbacks          = 2010,
    kAudioOutputUnitProperty_HostReceivesRemoteControlEvents = 2011,
    kAudioOutputUnitProperty_RemoteControlToHost    = 2012,
    kAudioOutputUnitProperty_HostTransportState     = 2013,
    kAudioOutputUnitProperty_NodeComponentDescription = 2014,
    kAudioOutputUnitProperty_OSWorkgroup            = 2015
};

enum {
    kAudioOutputUnitRange       = 0x0200,
    kAudioOutputUnitStartSelect = 0x0201,
    kAudioOutputUnitStopSelect  = 0x0202
};

typedef OSStatus (*AudioOutputUnitStartProc)(void *self);
typedef OSStatus (*AudioOutputUnitStopProc)(void *self);

enum {
    kAudioUnitClumpID_System = 0
};

// AudioUnitParameterIDName.inDesiredLength for the full name.
enum {
    kAudioUnitParameterName_Full = -1
};

// kAudioUnitProperty_ParameterHistoryInfo (parameters with kAudioUnitParameterFlag_PlotHistory).
struct AudioUnitParameterHistoryInfo {
    float updatesPerSecond;
    float historyDurationInSeconds;
};
typedef struct AudioUnitParameterHistoryInfo AudioUnitParameterHistoryInfo;

// kAudioUnitMigrateProperty_*: other plug-in formats' parameters translated to a unit's.
CF_ENUM(uint32_t) {
    kOtherPluginFormat_Undefined    = 0,
    kOtherPluginFormat_kMAS         = 1,
    kOtherPluginFormat_kVST         = 2,
    kOtherPluginFormat_AU           = 3
};

struct AudioUnitOtherPluginDesc {
    uint32_t                format;
    AudioClassDescription   plugin;
};
typedef struct AudioUnitOtherPluginDesc AudioUnitOtherPluginDesc;

struct AudioUnitParameterValueTranslation {
    AudioUnitOtherPluginDesc    otherDesc;
    uint32_t                    otherParamID;
    float                       otherValue;
    AudioUnitParameterID        auParamID;
    AudioUnitParameterValue     auValue;
};
typedef struct AudioUnitParameterValueTranslation AudioUnitParameterValueTranslation;

// Parameter-to-MIDI mappings (kAudioUnitProperty_AllParameterMIDIMappings and friends); declared, no built-in
// unit answers those properties yet.
typedef enum OCA_OPTIONS_ATTR AUParameterMIDIMappingFlags : uint32_t {
    kAUParameterMIDIMapping_AnyChannelFlag  = (1UL << 0),
    kAUParameterMIDIMapping_AnyNoteFlag     = (1UL << 1),
    kAUParameterMIDIMapping_SubRange        = (1UL << 2),
    kAUParameterMIDIMapping_Toggle          = (1UL << 3),
    kAUParameterMIDIMapping_Bipolar         = (1UL << 4),
    kAUParameterMIDIMapping_Bipolar_On      = (1UL << 5)
} AUParameterMIDIMappingFlags;

struct AUParameterMIDIMapping {
    AudioUnitScope              mScope;
    AudioUnitElement            mElement;
    AudioUnitParameterID        mParameterID;
    AUParameterMIDIMappingFlags mFlags;
    AudioUnitParameterValue     mSubRangeMin;
    AudioUnitParameterValue     mSubRangeMax;
    uint8_t                       mStatus;
    uint8_t                       mData1;
    uint8_t                       reserved1;
    uint8_t                       reserved2;
    uint32_t                    reserved3;
};
typedef struct AUParameterMIDIMapping AUParameterMIDIMapping;

struct AURenderCallbackStruct {
    AURenderCallback _Nullable inputProc;
    void * _Nullable inputProcRefCon;
};
typedef struct AURenderCallbackStruct AURenderCallbackStruct;

struct AudioUnitConnection {
    AudioUnit _Nullable sourceAudioUnit;
    uint32_t sourceOutputNumber;
    uint32_t destInputNumber;
};
typedef struct AudioUnitConnection AudioUnitConnection;

struct AUChannelInfo {
    int16_t inChannels;
    int16_t outChannels;
};
typedef struct AUChannelInfo AUChannelInfo;

struct AUInputSamplesInOutputCallbackStruct {
    AUInputSamplesInOutputCallback inputToOutputCallback;
    void * _Nullable userData;
};
typedef struct AUInputSamplesInOutputCallbackStruct AUInputSamplesInOutputCallbackStruct;

typedef enum OCA_ENUM_ATTR AudioUnitParameterUnit : uint32_t {
    kAudioUnitParameterUnit_Generic             = 0,
    kAudioUnitParameterUnit_Indexed             = 1,
    kAudioUnitParameterUnit_Boolean             = 2,
    kAudioUnitParameterUnit_Percent             = 3,
    kAudioUnitParameterUnit_Seconds             = 4,
    kAudioUnitParameterUnit_SampleFrames        = 5,
    kAudioUnitParameterUnit_Phase               = 6,
    kAudioUnitParameterUnit_Rate                = 7,
    kAudioUnitParameterUnit_Hertz               = 8,
    kAudioUnitParameterUnit_Cents               = 9,
    kAudioUnitParameterUnit_RelativeSemiTones   = 10,
    kAudioUnitParameterUnit_MIDINoteNumber      = 11,
    kAudioUnitParameterUnit_MIDIController      = 12,
    kAudioUnitParameterUnit_Decibels            = 13,
    kAudioUnitParameterUnit_LinearGain          = 14,
    kAudioUnitParameterUnit_Degrees             = 15,
    kAudioUnitParameterUnit_EqualPowerCrossfade = 16,
    kAudioUnitParameterUnit_MixerFaderCurve1    = 17,
    kAudioUnitParameterUnit_Pan                 = 18,
    kAudioUnitParameterUnit_Meters              = 19,
    kAudioUnitParameterUnit_AbsoluteCents       = 20,
    kAudioUnitParameterUnit_Octaves             = 21,
    kAudioUnitParameterUnit_BPM                 = 22,
    kAudioUnitParameterUnit_Beats               = 23,
    kAudioUnitParameterUnit_Milliseconds        = 24,
    kAudioUnitParameterUnit_Ratio               = 25,
    kAudioUnitParameterUnit_CustomUnit          = 26,
    kAudioUnitParameterUnit_MIDI2Controller     = 27
} AudioUnitParameterUnit;

typedef enum OCA_OPTIONS_ATTR AudioUnitParameterOptions : uint32_t {
    kAudioUnitParameterFlag_CFNameRelease       = (1UL << 4),
    kAudioUnitParameterFlag_OmitFromPresets     = (1UL << 13),
    kAudioUnitParameterFlag_PlotHistory         = (1UL << 14),
    kAudioUnitParameterFlag_MeterReadOnly       = (1UL << 15),
    kAudioUnitParameterFlag_DisplayMask         = (7UL << 16) | (1UL << 22),
    kAudioUnitParameterFlag_DisplaySquareRoot   = (1UL << 16),
    kAudioUnitParameterFlag_DisplaySquared      = (2UL << 16),
    kAudioUnitParameterFlag_DisplayCubed        = (3UL << 16),
    kAudioUnitParameterFlag_DisplayCubeRoot     = (4UL << 16),
    kAudioUnitParameterFlag_DisplayExponential  = (5UL << 16),
    kAudioUnitParameterFlag_HasClump            = (1UL << 20),
    kAudioUnitParameterFlag_ValuesHaveStrings   = (1UL << 21),
    kAudioUnitParameterFlag_DisplayLogarithmic  = (1UL << 22),
    kAudioUnitParameterFlag_IsHighResolution    = (1UL << 23),
    kAudioUnitParameterFlag_NonRealTime         = (1UL << 24),
    kAudioUnitParameterFlag_CanRamp             = (1UL << 25),
    kAudioUnitParameterFlag_ExpertMode          = (1UL << 26),
    kAudioUnitParameterFlag_HasCFNameString     = (1UL << 27),
    kAudioUnitParameterFlag_IsGlobalMeta        = (1UL << 28),
    kAudioUnitParameterFlag_IsElementMeta       = (1UL << 29),
    kAudioUnitParameterFlag_IsReadable          = (1UL << 30),
    kAudioUnitParameterFlag_IsWritable          = (1UL << 31)
} AudioUnitParameterOptions;

// The display curve bits of a parameter's flags (Apple's CF_INLINE helpers).
static inline AudioUnitParameterOptions GetAudioUnitParameterDisplayType(AudioUnitParameterOptions flags) {
    return (AudioUnitParameterOptions)(flags & kAudioUnitParameterFlag_DisplayMask);
}

static inline AudioUnitParameterOptions SetAudioUnitParameterDisplayType(AudioUnitParameterOptions flags,
                                                                         AudioUnitParameterOptions displayType) {
    return (AudioUnitParameterOptions)((flags & ~kAudioUnitParameterFlag_DisplayMask) | displayType);
}

typedef enum OCA_ENUM_ATTR AUSpatializationAlgorithm : uint32_t {
    kSpatializationAlgorithm_EqualPowerPanning  = 0,
    kSpatializationAlgorithm_SphericalHead      = 1,
    kSpatializationAlgorithm_HRTF               = 2,
    kSpatializationAlgorithm_SoundField         = 3,
    kSpatializationAlgorithm_VectorBasedPanning = 4,
    kSpatializationAlgorithm_StereoPassThrough  = 5,
    kSpatializationAlgorithm_HRTFHQ             = 6,
    kSpatializationAlgorithm_UseOutputType      = 7
} AUSpatializationAlgorithm;

typedef enum OCA_ENUM_ATTR AUSpatialMixerSourceMode : uint32_t {
    kSpatialMixerSourceMode_SpatializeIfMono    = 0,
    kSpatialMixerSourceMode_Bypass              = 1,
    kSpatialMixerSourceMode_PointSource         = 2,
    kSpatialMixerSourceMode_AmbienceBed         = 3
} AUSpatialMixerSourceMode;

typedef enum OCA_ENUM_ATTR AUSpatialMixerAttenuationCurve : uint32_t {
    kSpatialMixerAttenuationCurve_Power         = 0,
    kSpatialMixerAttenuationCurve_Exponential   = 1,
    kSpatialMixerAttenuationCurve_Inverse       = 2,
    kSpatialMixerAttenuationCurve_Linear        = 3
} AUSpatialMixerAttenuationCurve;

struct MixerDistanceParams {
    float mReferenceDistance;
    float mMaxDistance;
    float mMaxAttenuation;    // decibels
};
typedef struct MixerDistanceParams MixerDistanceParams;

typedef enum OCA_OPTIONS_ATTR AUSpatialMixerRenderingFlags : uint32_t {
    kSpatialMixerRenderingFlags_InterAuralDelay     = (1UL << 0),
    kSpatialMixerRenderingFlags_DistanceAttenuation = (1UL << 2)
} AUSpatialMixerRenderingFlags;

typedef enum OCA_ENUM_ATTR AUSpatialMixerOutputType : uint32_t {
    kSpatialMixerOutputType_Headphones          = 1,
    kSpatialMixerOutputType_BuiltInSpeakers     = 2,
    kSpatialMixerOutputType_ExternalSpeakers    = 3
} AUSpatialMixerOutputType;

typedef enum OCA_ENUM_ATTR AUSpatialMixerPointSourceInHeadMode : uint32_t {
    kSpatialMixerPointSourceInHeadMode_Mono     = 0,
    kSpatialMixerPointSourceInHeadMode_Bypass   = 1
} AUSpatialMixerPointSourceInHeadMode;

typedef enum OCA_OPTIONS_ATTR AU3DMixerRenderingFlags : uint32_t {
    k3DMixerRenderingFlags_InterAuralDelay          = (1UL << 0),
    k3DMixerRenderingFlags_DopplerShift             = (1UL << 1),
    k3DMixerRenderingFlags_DistanceAttenuation      = (1UL << 2),
    k3DMixerRenderingFlags_DistanceFilter           = (1UL << 3),
    k3DMixerRenderingFlags_DistanceDiffusion        = (1UL << 4),
    k3DMixerRenderingFlags_LinearDistanceAttenuation = (1UL << 5),
    k3DMixerRenderingFlags_ConstantReverbBlend      = (1UL << 6)
} AU3DMixerRenderingFlags;

typedef enum OCA_ENUM_ATTR AU3DMixerAttenuationCurve : uint32_t {
    k3DMixerAttenuationCurve_Power              = 0,
    k3DMixerAttenuationCurve_Exponential        = 1,
    k3DMixerAttenuationCurve_Inverse            = 2,
    k3DMixerAttenuationCurve_Linear             = 3
} AU3DMixerAttenuationCurve;

// AUVoiceProcessingIO ('vpio') properties.
CF_ENUM(AudioUnitPropertyID) {
    kAUVoiceIOProperty_BypassVoiceProcessing        = 2100,
    kAUVoiceIOProperty_VoiceProcessingEnableAGC     = 2101,
    kAUVoiceIOProperty_DuckNonVoiceAudio            = 2102,
    kAUVoiceIOProperty_VoiceProcessingQuality       = 2103,
    kAUVoiceIOProperty_MuteOutput                   = 2104
};

enum {
    kRenderQuality_Max      = 0x7F,
    kRenderQuality_High     = 0x60,
    kRenderQuality_Medium   = 0x40,
    kRenderQuality_Low      = 0x20,
    kRenderQuality_Min      = 0
};

// AUMatrixReverb / AUReverb2 room types (kAudioUnitProperty_ReverbRoomType).
typedef enum OCA_ENUM_ATTR AUReverbRoomType : uint32_t {
    kReverbRoomType_SmallRoom       = 0,
    kReverbRoomType_MediumRoom      = 1,
    kReverbRoomType_LargeRoom       = 2,
    kReverbRoomType_MediumHall      = 3,
    kReverbRoomType_LargeHall       = 4,
    kReverbRoomType_Plate           = 5,
    kReverbRoomType_MediumChamber   = 6,
    kReverbRoomType_LargeChamber    = 7,
    kReverbRoomType_Cathedral       = 8,
    kReverbRoomType_LargeRoom2      = 9,
    kReverbRoomType_MediumHall2     = 10,
    kReverbRoomType_MediumHall3     = 11,
    kReverbRoomType_LargeHall2      = 12
} AUReverbRoomType;

// AUNBandEQ: band count (uint32_t, settable while uninitialized, at most MaxNumberOfBands), and the
// read-only coefficients, five Float64 per band (b0 b1 b2 a1 a2).
CF_ENUM(AudioUnitPropertyID) {
    kAUNBandEQProperty_NumberOfBands            = 2200,
    kAUNBandEQProperty_MaxNumberOfBands         = 2201,
    kAUNBandEQProperty_BiquadCoefficients       = 2203
};

// AUScheduledSoundPlayer: flags a slice carries; the unit sets Complete / BeganToRender / BeganToRenderLate,
// the client may set Loop / Interrupt / InterruptAtLoop.
typedef enum OCA_OPTIONS_ATTR AUScheduledAudioSliceFlags : uint32_t {
    kScheduledAudioSliceFlag_Complete           = 0x01,
    kScheduledAudioSliceFlag_BeganToRender      = 0x02,
    kScheduledAudioSliceFlag_BeganToRenderLate  = 0x04,
    kScheduledAudioSliceFlag_Loop               = 0x08,
    kScheduledAudioSliceFlag_Interrupt          = 0x10,
    kScheduledAudioSliceFlag_InterruptAtLoop    = 0x20
} AUScheduledAudioSliceFlags;

typedef struct ScheduledAudioSlice ScheduledAudioSlice;
typedef void (*ScheduledAudioSliceCompletionProc)(void * _Nullable userData, ScheduledAudioSlice *bufferList);

// A buffer to play at mTimeStamp.mSampleTime (relative to the start time; no valid flags = right after the
// slice before). The client keeps the struct and its buffers alive until the slice is complete.
struct ScheduledAudioSlice {
    AudioTimeStamp                                  mTimeStamp;
    ScheduledAudioSliceCompletionProc _Nullable    mCompletionProc;
    void *                                          mCompletionProcUserData;
    AUScheduledAudioSliceFlags                      mFlags;
    uint32_t                                          mReserved;
    void * _Nullable                               mReserved2;
    uint32_t                                          mNumberFrames;
    AudioBufferList *                               mBufferList;
};

typedef struct ScheduledAudioFileRegion ScheduledAudioFileRegion;
typedef void (*ScheduledAudioFileRegionCompletionProc)(void * _Nullable userData,
                                                       ScheduledAudioFileRegion *fileRegion, OSStatus result);

// AUAudioFilePlayer: a region of an open AudioFile to play at mTimeStamp.mSampleTime; the unit copies it.
struct ScheduledAudioFileRegion {
    AudioTimeStamp                                      mTimeStamp;
    ScheduledAudioFileRegionCompletionProc _Nullable   mCompletionProc;
    void * _Nullable                                   mCompletionProcUserData;
    struct OpaqueAudioFileID *                          mAudioFile;
    uint32_t                                              mLoopCount;
    int64_t                                              mStartFrame;
    uint32_t                                              mFramesToPlay;
};

// A sample time for scheduled events (the AUAudioUnit render event list, AUScheduleParameterBlock).
typedef int64_t AUEventSampleTime;

// Music devices (instruments): the properties MusicDevice units answer (AUComponent.h's MusicDevice section
// and the DLSMusicDevice / AUMIDISynth / AUSampler sections of Apple's header).
CF_ENUM(AudioUnitPropertyID) {
    kMusicDeviceProperty_InstrumentCount            = 1000,
    kMusicDeviceProperty_InstrumentName             = 1001,
    kMusicDeviceProperty_InstrumentNumber           = 1004,
    kMusicDeviceProperty_MIDIXMLNames               = 1006,
    kMusicDeviceProperty_BankName                   = 1007,
    kMusicDeviceProperty_SoundBankData              = 1008,
    kMusicDeviceProperty_PartGroup                  = 1010,
    kMusicDeviceProperty_StreamFromDisk             = 1011,
    kMusicDeviceProperty_SoundBankFSRef             = 1012,
    kMusicDeviceProperty_DualSchedulingMode         = 1013,
    kMusicDeviceProperty_SupportsStartStopNote      = 1014,
    kMusicDeviceProperty_SoundBankURL               = 1100,
    kMusicDeviceProperty_UsesInternalReverb         = kAudioUnitProperty_UsesInternalReverb
};

// The offset argument of MusicDeviceMIDIEvent/StartNote/StopNote in dual scheduling mode.
CF_ENUM(uint32_t) {
    kMusicDeviceSampleFrameMask_SampleOffset    = 0xFFFFFF,
    kMusicDeviceSampleFrameMask_IsScheduled     = 0x01000000
};

CF_ENUM(AudioUnitPropertyID) {
    kAUMIDISynthProperty_EnablePreload              = 4119
};

// AUSampler: kAUSamplerProperty_LoadInstrument takes an AUSamplerInstrumentData (declared in Swift, since
// its fileURL is a CFURL); kAUSamplerProperty_LoadAudioFiles a CFArray of CFURLs.
CF_ENUM(AudioUnitPropertyID) {
    kAUSamplerProperty_LoadInstrument               = 4102,
    kAUSamplerProperty_LoadAudioFiles               = 4101
};

enum {
    kInstrumentType_DLSPreset   = 1,
    kInstrumentType_SF2Preset   = kInstrumentType_DLSPreset,
    kInstrumentType_AUPreset    = 2,
    kInstrumentType_Audiofile   = 3,
    kInstrumentType_EXS24       = 4
};

enum {
    kAUSampler_DefaultPercussionBankMSB = 0x78,
    kAUSampler_DefaultMelodicBankMSB    = 0x79,
    kAUSampler_DefaultBankLSB           = 0x00
};

// Offline units (AUOffline): sizes, start offset and preflight.
CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitOfflineProperty_InputSize                 = 3020,
    kAudioUnitOfflineProperty_OutputSize                = 3021,
    kAudioUnitOfflineProperty_StartOffset               = 3022,
    kAudioUnitOfflineProperty_PreflightRequirements     = 3023,
    kAudioUnitOfflineProperty_PreflightName             = 3024,
    kAudioOfflineUnitProperty_InputSize                 = 3020,
    kAudioOfflineUnitProperty_OutputSize                = 3021
};

enum {
    kOfflinePreflight_NotRequired = 0,
    kOfflinePreflight_Optional    = 1,
    kOfflinePreflight_Required    = 2
};

// Migration from other plug-in formats.
CF_ENUM(AudioUnitPropertyID) {
    kAudioUnitMigrateProperty_FromPlugin                = 4000,
    kAudioUnitMigrateProperty_OldAutomation             = 4001
};

CF_ENUM(uint32_t) {
    kAudioUnitSampleRateConverterComplexity_Normal    = OCA_4CC('n','o','r','m'),
    kAudioUnitSampleRateConverterComplexity_Mastering = OCA_4CC('b','a','t','s'),
    kAudioUnitSampleRateConverterComplexity_Linear    = OCA_4CC('l','i','n','e'),
    kAudioUnitSRCAlgorithm_Polyphase                  = OCA_4CC('p','o','l','y'),
    kAudioUnitSRCAlgorithm_MediumQuality              = OCA_4CC('c','s','r','c')
};

// AUNetSend / AUNetReceive (macOS).
CF_ENUM(AudioUnitPropertyID) {
    kAUNetReceiveProperty_Hostname                      = 3511,
    kAUNetReceiveProperty_Password                      = 3512,
    kAUNetSendProperty_PortNum                          = 3513,
    kAUNetSendProperty_TransmissionFormat               = 3514,
    kAUNetSendProperty_TransmissionFormatIndex          = 3515,
    kAUNetSendProperty_ServiceName                      = 3516,
    kAUNetSendProperty_Disconnect                       = 3517,
    kAUNetSendProperty_Password                         = 3518
};

// AUNetSend's transmission formats.
CF_ENUM(AudioUnitPropertyID) {
    kAUNetSendPresetFormat_PCMFloat32                   = 0,
    kAUNetSendPresetFormat_PCMInt24                     = 1,
    kAUNetSendPresetFormat_PCMInt16                     = 2,
    kAUNetSendPresetFormat_Lossless24                   = 3,
    kAUNetSendPresetFormat_Lossless16                   = 4,
    kAUNetSendPresetFormat_ULaw                         = 5,
    kAUNetSendPresetFormat_IMA4                         = 6,
    kAUNetSendPresetFormat_AAC_128kbpspc                = 7,
    kAUNetSendPresetFormat_AAC_96kbpspc                 = 8,
    kAUNetSendPresetFormat_AAC_80kbpspc                 = 9,
    kAUNetSendPresetFormat_AAC_64kbpspc                 = 10,
    kAUNetSendPresetFormat_AAC_48kbpspc                 = 11,
    kAUNetSendPresetFormat_AAC_40kbpspc                 = 12,
    kAUNetSendPresetFormat_AAC_32kbpspc                 = 13,
    kAUNetSendNumPresetFormats                          = 18,
    kAUNetSendPresetFormat_AAC_LD_64kbpspc              = 14,
    kAUNetSendPresetFormat_AAC_LD_48kbpspc              = 15,
    kAUNetSendPresetFormat_AAC_LD_40kbpspc              = 16,
    kAUNetSendPresetFormat_AAC_LD_32kbpspc              = 17
};

// Music devices (deprecated).
CF_ENUM(AudioUnitPropertyID) {
    kMusicDeviceProperty_GroupOutputBus                 = 1002,
    kMusicDeviceProperty_SoundBankFSSpec                = 1003
};

// AUSampler: a bank and preset by number (AUSamplerBankPresetData).
CF_ENUM(AudioUnitPropertyID) {
    kAUSamplerProperty_LoadPresetFromBank               = 4100,
    kAUSamplerProperty_BankAndPreset                    = 4100
};

// Voice processing: speech activity while muted, and ducking of other audio.
CF_ENUM(AudioUnitPropertyID) {
    kAUVoiceIOProperty_MutedSpeechActivityEventListener = 2106,
    kAUVoiceIOProperty_OtherAudioDuckingConfiguration   = 2108
};

typedef enum OCA_ENUM_ATTR AUVoiceIOOtherAudioDuckingLevel : uint32_t {
    kAUVoiceIOOtherAudioDuckingLevelDefault = 0,
    kAUVoiceIOOtherAudioDuckingLevelMin     = 10,
    kAUVoiceIOOtherAudioDuckingLevelMid     = 20,
    kAUVoiceIOOtherAudioDuckingLevelMax     = 30
} AUVoiceIOOtherAudioDuckingLevel;

typedef enum OCA_ENUM_ATTR AUVoiceIOSpeechActivityEvent : uint32_t {
    kAUVoiceIOSpeechActivityHasStarted = 0,
    kAUVoiceIOSpeechActivityHasEnded   = 1
} AUVoiceIOSpeechActivityEvent;

CF_ENUM(OSStatus) {
    kAUVoiceIOErr_UnexpectedNumberOfInputChannels = -66784
};

enum {
    kAudioUnitParameterFlag_Global  = (1L << 0),
    kAudioUnitParameterFlag_Input   = (1L << 1),
    kAudioUnitParameterFlag_Output  = (1L << 2),
    kAudioUnitParameterFlag_Group   = (1L << 3)
};

enum {
    kAudioUnitParameterFlag_HasName = kAudioUnitParameterFlag_ValuesHaveStrings
};

enum {
    kNumberOfResponseFrequencies = 1024
};

// AUMatrixReverb's speaker configurations (kAudioUnitProperty_SpeakerConfiguration).
enum {
    kSpeakerConfiguration_HeadPhones = 0,
    kSpeakerConfiguration_Stereo     = 1,
    kSpeakerConfiguration_Quad       = 2,
    kSpeakerConfiguration_5_0        = 3,
    kSpeakerConfiguration_5_1        = kSpeakerConfiguration_5_0
};

typedef enum OCA_ENUM_ATTR AUSpatialMixerPersonalizedHRTFMode : uint32_t {
    kSpatialMixerPersonalizedHRTFMode_Off CF_SWIFT_NAME(off)   = 0,
    kSpatialMixerPersonalizedHRTFMode_On CF_SWIFT_NAME(on)     = 1,
    kSpatialMixerPersonalizedHRTFMode_Auto CF_SWIFT_NAME(auto) = 2
} AUSpatialMixerPersonalizedHRTFMode;

// The "ui" preset keys other plug-in formats use.
#define kAUPresetVSTDataKey     "vstdata"
#define kAUPresetVSTPresetKey   "vstpreset"
#define kAUPresetMASDataKey     "masdata"

// The keys of AudioComponentCopyConfigurationInfo's dictionary.
#define kAudioUnitConfigurationInfo_HasCustomView               "HasCustomView"
#define kAudioUnitConfigurationInfo_ChannelConfigurations       "ChannelConfigurations"
#define kAudioUnitConfigurationInfo_InitialInputs               "InitialInputs"
#define kAudioUnitConfigurationInfo_InitialOutputs              "InitialOutputs"
#define kAudioUnitConfigurationInfo_IconURL                     "IconURL"
#define kAudioUnitConfigurationInfo_BusCountWritable            "BusCountWritable"
#define kAudioUnitConfigurationInfo_SupportedChannelLayoutTags  "SupportedChannelLayoutTags"
#define kAudioUnitConfigurationInfo_MIDIProtocol                "MIDIProtocol"
#define kAudioUnitConfigurationInfo_MigrateFromPlugin           "MigrateFromPlugin"
#define kAudioUnitConfigurationInfo_AvailableArchitectures      "AvailableArchitectures"

typedef enum OCA_ENUM_ATTR AudioUnitRemoteControlEvent : uint32_t {
    kAudioUnitRemoteControlEvent_TogglePlayPause = 1,
    kAudioUnitRemoteControlEvent_ToggleRecord    = 2,
    kAudioUnitRemoteControlEvent_Rewind          = 3
} AudioUnitRemoteControlEvent;

// MARK: Structures exchanged through properties (AudioUnitProperties.h). Those holding CoreFoundation objects
// (AudioUnitCocoaViewInfo, AUHostVersionIdentifier, AUHostIdentifier, AUSamplerBankPresetData), those with Boolean
// fields (DarwinBoolean, a Swift type) and those naming CoreMIDI's types or blocks are Swift declarations in AudioToolbox.

// kAudioUnitProperty_UsesInternalReverb's neighbour: memory a host lends a unit for its input callback.
struct AudioUnitExternalBuffer {
    uint8_t *buffer;
    uint32_t size;
};
typedef struct AudioUnitExternalBuffer AudioUnitExternalBuffer;

// kAudioUnitProperty_FrequencyResponse: the host fills mFrequency (a negative one ends the list), the unit mMagnitude.
struct AudioUnitFrequencyResponseBin {
    double mFrequency;
    double mMagnitude;
};
typedef struct AudioUnitFrequencyResponseBin AudioUnitFrequencyResponseBin;

// kAudioUnitProperty_HostCallbacks: the host's musical time and transport, asked by a unit during render.
typedef OSStatus (*HostCallback_GetBeatAndTempo)(void * _Nullable inHostUserData, double * _Nullable outCurrentBeat,
                                                 double * _Nullable outCurrentTempo);
typedef OSStatus (*HostCallback_GetMusicalTimeLocation)(void * _Nullable inHostUserData,
                                                        uint32_t * _Nullable outDeltaSampleOffsetToNextBeat,
                                                        float * _Nullable outTimeSig_Numerator,
                                                        uint32_t * _Nullable outTimeSig_Denominator,
                                                        double * _Nullable outCurrentMeasureDownBeat);
typedef OSStatus (*HostCallback_GetTransportState)(void * _Nullable inHostUserData, DarwinBoolean * _Nullable outIsPlaying,
                                                   DarwinBoolean * _Nullable outTransportStateChanged,
                                                   double * _Nullable outCurrentSampleInTimeLine,
                                                   DarwinBoolean * _Nullable outIsCycling,
                                                   double * _Nullable outCycleStartBeat, double * _Nullable outCycleEndBeat);
typedef OSStatus (*HostCallback_GetTransportState2)(void * _Nullable inHostUserData, DarwinBoolean * _Nullable outIsPlaying,
                                                    DarwinBoolean * _Nullable outIsRecording,
                                                    DarwinBoolean * _Nullable outTransportStateChanged,
                                                    double * _Nullable outCurrentSampleInTimeLine,
                                                    DarwinBoolean * _Nullable outIsCycling,
                                                    double * _Nullable outCycleStartBeat, double * _Nullable outCycleEndBeat);

struct HostCallbackInfo {
    void * _Nullable hostUserData;
    HostCallback_GetBeatAndTempo _Nullable beatAndTempoProc;
    HostCallback_GetMusicalTimeLocation _Nullable musicalTimeLocationProc;
    HostCallback_GetTransportState _Nullable transportStateProc;
    HostCallback_GetTransportState2 _Nullable transportStateProc2;
};
typedef struct HostCallbackInfo HostCallbackInfo;

// kAudioUnitProperty_DependentParameters: parameters a meta-parameter changes.
struct AUDependentParameter {
    AudioUnitScope mScope;
    AudioUnitParameterID mParameterID;
};
typedef struct AUDependentParameter AUDependentParameter;

// kAudioUnitProperty_RenderContextObserver: the render thread's workgroup (os_workgroup_t at Apple; no workgroups
// here). Swift cannot use either, at Apple as here ("Swift is not supported for use with audio realtime threads").
struct AudioUnitRenderContext {
    void * _Nullable workgroup;
    uint32_t reserved[6];
} __attribute__((availability(swift, unavailable, message="Swift is not supported for use with audio realtime threads")));
typedef struct AudioUnitRenderContext AudioUnitRenderContext
    __attribute__((availability(swift, unavailable, message="Swift is not supported for use with audio realtime threads")));
#if __has_extension(blocks)
typedef void (^AURenderContextObserver)(const AudioUnitRenderContext *context)
    __attribute__((availability(swift, unavailable, message="Swift is not supported for use with audio realtime threads")));
#endif

// kAudioUnitProperty_DistanceAttenuationData (deprecated since macOS 10.11): distance/gain pairs, variable length.
typedef struct AUDistanceAttenuationData {
    uint32_t inNumberOfPairs;
    struct {
        float inDistance;
        float outGain;
    } pairs[1];
} AUDistanceAttenuationData;

// The "masdata" preset key's contents (kAudioUnitMigrateProperty_FromPlugin for MAS plug-ins).
struct AudioUnitPresetMAS_SettingData {
    uint32_t isStockSetting;
    uint32_t settingID;
    uint32_t dataLen;
    uint8_t data[1];
};
typedef struct AudioUnitPresetMAS_SettingData AudioUnitPresetMAS_SettingData;

struct AudioUnitPresetMAS_Settings {
    uint32_t manufacturerID;
    uint32_t effectID;
    uint32_t variantID;
    uint32_t settingsVersion;
    uint32_t numberOfSettings;
    AudioUnitPresetMAS_SettingData settings[1];
};
typedef struct AudioUnitPresetMAS_Settings AudioUnitPresetMAS_Settings;

// kAudioOutputUnitProperty_MIDICallbacks (inter-app audio): MIDI handed to a host before each render cycle.
struct AudioOutputUnitMIDICallbacks {
    void * _Nullable userData;
    void (*MIDIEventProc)(void * _Nullable userData, uint32_t inStatus, uint32_t inData1, uint32_t inData2,
                          uint32_t inOffsetSampleFrame);
    void (*MIDISysExProc)(void * _Nullable userData, const uint8_t *inData, uint32_t inLength);
};
typedef struct AudioOutputUnitMIDICallbacks AudioOutputUnitMIDICallbacks;

// kAudioOutputUnitProperty_StartTime: when AudioOutputUnitStart begins (see AudioDeviceStartAtTime).
struct AudioOutputUnitStartAtTimeParams {
    AudioTimeStamp mTimestamp;
    uint32_t mFlags;
};
typedef struct AudioOutputUnitStartAtTimeParams AudioOutputUnitStartAtTimeParams;

// NumVersion in little-endian order (deprecated; AUHostIdentifier's version).
typedef struct AUNumVersion {
    uint8_t nonRelRev;
    uint8_t stage;
    uint8_t minorAndBugRev;
    uint8_t majorRev;
} AUNumVersion;

// kAudioUnitProperty_MIDIControlMapping (deprecated since macOS 10.2 for AUParameterMIDIMapping).
typedef struct AudioUnitMIDIControlMapping {
    uint16_t midiNRPN;
    uint8_t midiControl;
    uint8_t scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
} AudioUnitMIDIControlMapping;

CF_ASSUME_NONNULL_END

#endif
