// Audio Unit component API types (AUComponent.h): unit types and subtypes, scopes, render flags,
// errors, the render callback and listener prototypes, parameter events, selectors, method procs.
#ifndef OCA_AUCOMPONENT_H
#define OCA_AUCOMPONENT_H

#include "AudioComponent.h"

CF_ASSUME_NONNULL_BEGIN

typedef AudioComponentInstance AudioUnit;

typedef uint32_t AudioUnitPropertyID;
typedef uint32_t AudioUnitScope;
typedef uint32_t AudioUnitElement;
typedef uint32_t AudioUnitParameterID;
typedef float AudioUnitParameterValue;

CF_ENUM(uint32_t) {
    kAudioUnitType_Output                   = OCA_4CC('a','u','o','u'),
    kAudioUnitType_MusicDevice              = OCA_4CC('a','u','m','u'),
    kAudioUnitType_MusicEffect              = OCA_4CC('a','u','m','f'),
    kAudioUnitType_FormatConverter          = OCA_4CC('a','u','f','c'),
    kAudioUnitType_Effect                   = OCA_4CC('a','u','f','x'),
    kAudioUnitType_Mixer                    = OCA_4CC('a','u','m','x'),
    kAudioUnitType_Panner                   = OCA_4CC('a','u','p','n'),
    kAudioUnitType_Generator                = OCA_4CC('a','u','g','n'),
    kAudioUnitType_OfflineEffect            = OCA_4CC('a','u','o','l'),
    kAudioUnitType_MIDIProcessor            = OCA_4CC('a','u','m','i'),
    kAudioUnitType_SpeechSynthesizer        = OCA_4CC('a','u','s','p'),
    kAudioUnitType_RemoteEffect             = OCA_4CC('a','u','r','x'),
    kAudioUnitType_RemoteGenerator          = OCA_4CC('a','u','r','g'),
    kAudioUnitType_RemoteInstrument         = OCA_4CC('a','u','r','i'),
    kAudioUnitType_RemoteMusicEffect        = OCA_4CC('a','u','r','m')
};

CF_ENUM(uint32_t) {
    kAudioUnitManufacturer_Apple = OCA_4CC('a','p','p','l')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_GenericOutput         = OCA_4CC('g','e','n','r'),
    kAudioUnitSubType_VoiceProcessingIO     = OCA_4CC('v','p','i','o'),
    kAudioUnitSubType_HALOutput             = OCA_4CC('a','h','a','l'),
    kAudioUnitSubType_DefaultOutput         = OCA_4CC('d','e','f',' '),
    kAudioUnitSubType_SystemOutput          = OCA_4CC('s','y','s',' '),
    kAudioUnitSubType_RemoteIO              = OCA_4CC('r','i','o','c')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_DLSSynth              = OCA_4CC('d','l','s',' '),
    kAudioUnitSubType_Sampler               = OCA_4CC('s','a','m','p'),
    kAudioUnitSubType_MIDISynth             = OCA_4CC('m','s','y','n')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_AUConverter           = OCA_4CC('c','o','n','v'),
    kAudioUnitSubType_Varispeed             = OCA_4CC('v','a','r','i'),
    kAudioUnitSubType_DeferredRenderer      = OCA_4CC('d','e','f','r'),
    kAudioUnitSubType_Splitter              = OCA_4CC('s','p','l','t'),
    kAudioUnitSubType_MultiSplitter         = OCA_4CC('m','s','p','l'),
    kAudioUnitSubType_Merger                = OCA_4CC('m','e','r','g'),
    kAudioUnitSubType_NewTimePitch          = OCA_4CC('n','u','t','p'),
    kAudioUnitSubType_AUiPodTimeOther       = OCA_4CC('i','p','t','o'),
    kAudioUnitSubType_RoundTripAAC          = OCA_4CC('r','a','a','c'),
    kAudioUnitSubType_AUiPodTime            = OCA_4CC('i','p','t','m'),
    kAudioUnitSubType_TimePitch             = OCA_4CC('t','m','p','t')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_PeakLimiter           = OCA_4CC('l','m','t','r'),
    kAudioUnitSubType_DynamicsProcessor     = OCA_4CC('d','c','m','p'),
    kAudioUnitSubType_LowPassFilter         = OCA_4CC('l','p','a','s'),
    kAudioUnitSubType_HighPassFilter        = OCA_4CC('h','p','a','s'),
    kAudioUnitSubType_BandPassFilter        = OCA_4CC('b','p','a','s'),
    kAudioUnitSubType_HighShelfFilter       = OCA_4CC('h','s','h','f'),
    kAudioUnitSubType_LowShelfFilter        = OCA_4CC('l','s','h','f'),
    kAudioUnitSubType_ParametricEQ          = OCA_4CC('p','m','e','q'),
    kAudioUnitSubType_Distortion            = OCA_4CC('d','i','s','t'),
    kAudioUnitSubType_Delay                 = OCA_4CC('d','e','l','y'),
    kAudioUnitSubType_SampleDelay           = OCA_4CC('s','d','l','y'),
    kAudioUnitSubType_NBandEQ               = OCA_4CC('n','b','e','q'),
    kAudioUnitSubType_Reverb2               = OCA_4CC('r','v','b','2'),
    kAudioUnitSubType_AUiPodEQ              = OCA_4CC('i','p','e','q'),
    kAudioUnitSubType_GraphicEQ             = OCA_4CC('g','r','e','q'),
    kAudioUnitSubType_MultiBandCompressor   = OCA_4CC('m','c','m','p'),
    kAudioUnitSubType_MatrixReverb          = OCA_4CC('m','r','e','v'),
    kAudioUnitSubType_Pitch                 = OCA_4CC('t','m','p','t'),
    kAudioUnitSubType_AUFilter              = OCA_4CC('f','i','l','t'),
    kAudioUnitSubType_NetSend               = OCA_4CC('n','s','n','d'),
    kAudioUnitSubType_RogerBeep             = OCA_4CC('r','o','g','r'),
    kAudioUnitSubType_AUSoundIsolation      = OCA_4CC('v','o','i','s'),
    kAudioUnitSubType_AUAudioMix            = OCA_4CC('a','m','i','x')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_MultiChannelMixer     = OCA_4CC('m','c','m','x'),
    kAudioUnitSubType_MatrixMixer           = OCA_4CC('m','x','m','x'),
    kAudioUnitSubType_SpatialMixer          = OCA_4CC('3','d','e','m'),
    kAudioUnitSubType_StereoMixer           = OCA_4CC('s','m','x','r'),
    kAudioUnitSubType_3DMixer               = OCA_4CC('3','d','m','x'),
    kAudioUnitSubType_AU3DMixerEmbedded     = OCA_4CC('3','d','e','m')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_SphericalHeadPanner   = OCA_4CC('s','p','h','r'),
    kAudioUnitSubType_VectorPanner          = OCA_4CC('v','b','a','s'),
    kAudioUnitSubType_SoundFieldPanner      = OCA_4CC('a','m','b','i'),
    kAudioUnitSubType_HRTFPanner            = OCA_4CC('h','r','t','f')
};

CF_ENUM(uint32_t) {
    kAudioUnitSubType_NetReceive            = OCA_4CC('n','r','c','v'),
    kAudioUnitSubType_ScheduledSoundPlayer  = OCA_4CC('s','s','p','l'),
    kAudioUnitSubType_AudioFilePlayer       = OCA_4CC('a','f','p','l')
};

typedef enum OCA_OPTIONS_ATTR AudioUnitRenderActionFlags : uint32_t {
    kAudioUnitRenderAction_PreRender            = (1U << 2),
    kAudioUnitRenderAction_PostRender           = (1U << 3),
    kAudioUnitRenderAction_OutputIsSilence      = (1U << 4),
    kAudioOfflineUnitRenderAction_Preflight     = (1U << 5),
    kAudioOfflineUnitRenderAction_Render        = (1U << 6),
    kAudioOfflineUnitRenderAction_Complete      = (1U << 7),
    kAudioUnitRenderAction_PostRenderError      = (1U << 8),
    kAudioUnitRenderAction_DoNotCheckRenderArgs = (1U << 9)
} AudioUnitRenderActionFlags;

CF_ENUM(OSStatus) {
    kAudioUnitErr_InvalidProperty           = -10879,
    kAudioUnitErr_InvalidParameter          = -10878,
    kAudioUnitErr_InvalidElement            = -10877,
    kAudioUnitErr_NoConnection              = -10876,
    kAudioUnitErr_FailedInitialization      = -10875,
    kAudioUnitErr_TooManyFramesToProcess    = -10874,
    kAudioUnitErr_InvalidFile               = -10871,
    kAudioUnitErr_UnknownFileType           = -10870,
    kAudioUnitErr_FileNotSpecified          = -10869,
    kAudioUnitErr_FormatNotSupported        = -10868,
    kAudioUnitErr_Uninitialized             = -10867,
    kAudioUnitErr_InvalidScope              = -10866,
    kAudioUnitErr_PropertyNotWritable       = -10865,
    kAudioUnitErr_CannotDoInCurrentContext  = -10863,
    kAudioUnitErr_InvalidPropertyValue      = -10851,
    kAudioUnitErr_PropertyNotInUse          = -10850,
    kAudioUnitErr_Initialized               = -10849,
    kAudioUnitErr_InvalidOfflineRender      = -10848,
    kAudioUnitErr_Unauthorized              = -10847,
    kAudioUnitErr_MIDIOutputBufferFull      = -66753,
    kAudioUnitErr_ExtensionNotFound         = -66744,
    kAudioUnitErr_InvalidParameterValue     = -66743,
    kAudioUnitErr_InvalidFilePath           = -66742,
    kAudioUnitErr_MissingKey                = -66741,
    kAudioUnitErr_ComponentManagerNotSupported = -66740,
    kAudioUnitErr_MultipleVoiceProcessors   = -66635,
    kAudioUnitErr_RenderTimeout             = -66745,
    kAudioUnitErr_IllegalInstrument         = -10873,
    kAudioUnitErr_InstrumentTypeNotFound    = -10872
};

typedef enum OCA_ENUM_ATTR AUParameterEventType : uint32_t {
    kParameterEvent_Immediate   = 1,
    kParameterEvent_Ramped      = 2
} AUParameterEventType;

struct AudioUnitParameterEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
    AUParameterEventType eventType;
    union {
        struct {
            int32_t startBufferOffset;
            uint32_t durationInFrames;
            AudioUnitParameterValue startValue;
            AudioUnitParameterValue endValue;
        } ramp;
        struct {
            uint32_t bufferOffset;
            AudioUnitParameterValue value;
        } immediate;
    } eventValues;
};
typedef struct AudioUnitParameterEvent AudioUnitParameterEvent;

struct AudioUnitParameter {
    AudioUnit mAudioUnit;
    AudioUnitParameterID mParameterID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
};
typedef struct AudioUnitParameter AudioUnitParameter;

struct AudioUnitProperty {
    AudioUnit mAudioUnit;
    AudioUnitPropertyID mPropertyID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
};
typedef struct AudioUnitProperty AudioUnitProperty;

typedef OSStatus (*AURenderCallback)(void *inRefCon,
                                     AudioUnitRenderActionFlags *ioActionFlags,
                                     const AudioTimeStamp *inTimeStamp,
                                     uint32_t inBusNumber,
                                     uint32_t inNumberFrames,
                                     AudioBufferList * _Nullable ioData);

typedef void (*AudioUnitPropertyListenerProc)(void *inRefCon,
                                              AudioUnit inUnit,
                                              AudioUnitPropertyID inID,
                                              AudioUnitScope inScope,
                                              AudioUnitElement inElement);

typedef void (*AUInputSamplesInOutputCallback)(void *inRefCon,
                                               const AudioTimeStamp *inOutputTimeStamp,
                                               double inInputSample,
                                               double inNumberInputSamples);

// Selectors of the v2 plug-in interface (an untyped enum: Swift sees them as Int, as Apple's are).
enum {
    kAudioUnitRange                                 = 0x0000,
    kAudioUnitInitializeSelect                      = 0x0001,
    kAudioUnitUninitializeSelect                    = 0x0002,
    kAudioUnitGetPropertyInfoSelect                 = 0x0003,
    kAudioUnitGetPropertySelect                     = 0x0004,
    kAudioUnitSetPropertySelect                     = 0x0005,
    kAudioUnitAddPropertyListenerSelect             = 0x000A,
    kAudioUnitRemovePropertyListenerSelect          = 0x000B,
    kAudioUnitRemovePropertyListenerWithUserDataSelect = 0x0012,
    kAudioUnitAddRenderNotifySelect                 = 0x000F,
    kAudioUnitRemoveRenderNotifySelect              = 0x0010,
    kAudioUnitGetParameterSelect                    = 0x0006,
    kAudioUnitSetParameterSelect                    = 0x0007,
    kAudioUnitScheduleParametersSelect              = 0x0011,
    kAudioUnitRenderSelect                          = 0x000E,
    kAudioUnitResetSelect                           = 0x0009,
    kAudioUnitComplexRenderSelect                   = 0x0013,
    kAudioUnitProcessSelect                         = 0x0014,
    kAudioUnitProcessMultipleSelect                 = 0x0015
};

typedef OSStatus (*AudioUnitInitializeProc)(void *self);
typedef OSStatus (*AudioUnitUninitializeProc)(void *self);
typedef OSStatus (*AudioUnitGetPropertyInfoProc)(void *self, AudioUnitPropertyID prop, AudioUnitScope scope, AudioUnitElement elem, uint32_t * _Nullable outDataSize, DarwinBoolean * _Nullable outWritable);
typedef OSStatus (*AudioUnitGetPropertyProc)(void *self, AudioUnitPropertyID inID, AudioUnitScope inScope, AudioUnitElement inElement, void *outData, uint32_t *ioDataSize);
typedef OSStatus (*AudioUnitSetPropertyProc)(void *self, AudioUnitPropertyID inID, AudioUnitScope inScope, AudioUnitElement inElement, const void * _Nullable inData, uint32_t inDataSize);
typedef OSStatus (*AudioUnitAddPropertyListenerProc)(void *self, AudioUnitPropertyID prop, AudioUnitPropertyListenerProc proc, void * _Nullable userData);
typedef OSStatus (*AudioUnitRemovePropertyListenerProc)(void *self, AudioUnitPropertyID prop, AudioUnitPropertyListenerProc proc);
typedef OSStatus (*AudioUnitRemovePropertyListenerWithUserDataProc)(void *self, AudioUnitPropertyID prop, AudioUnitPropertyListenerProc proc, void * _Nullable userData);
typedef OSStatus (*AudioUnitAddRenderNotifyProc)(void *self, AURenderCallback proc, void * _Nullable userData);
typedef OSStatus (*AudioUnitRemoveRenderNotifyProc)(void *self, AURenderCallback proc, void * _Nullable userData);
typedef OSStatus (*AudioUnitScheduleParametersProc)(void *self, const AudioUnitParameterEvent *events, uint32_t numEvents);
typedef OSStatus (*AudioUnitResetProc)(void *self, AudioUnitScope inScope, AudioUnitElement inElement);
typedef OSStatus (*AudioUnitComplexRenderProc)(void *self, AudioUnitRenderActionFlags * _Nullable ioActionFlags, const AudioTimeStamp *inTimeStamp, uint32_t inOutputBusNumber, uint32_t inNumberOfPackets, uint32_t *outNumberOfPackets, AudioStreamPacketDescription *outPacketDescriptions, AudioBufferList *ioData, void *outMetadata, uint32_t *outMetadataByteSize);
typedef OSStatus (*AudioUnitProcessProc)(void *self, AudioUnitRenderActionFlags * _Nullable ioActionFlags, const AudioTimeStamp *inTimeStamp, uint32_t inNumberFrames, AudioBufferList *ioData);
typedef OSStatus (*AudioUnitProcessMultipleProc)(void *self, AudioUnitRenderActionFlags * _Nullable ioActionFlags, const AudioTimeStamp *inTimeStamp, uint32_t inNumberFrames, uint32_t inNumberInputBufferLists, const AudioBufferList * _Nonnull * _Nonnull inInputBufferLists, uint32_t inNumberOutputBufferLists, AudioBufferList * _Nonnull * _Nonnull ioOutputBufferLists);
typedef OSStatus (*AudioUnitGetParameterProc)(void *inComponentStorage, AudioUnitParameterID inID, AudioUnitScope inScope, AudioUnitElement inElement, AudioUnitParameterValue *outValue);
typedef OSStatus (*AudioUnitSetParameterProc)(void *inComponentStorage, AudioUnitParameterID inID, AudioUnitScope inScope, AudioUnitElement inElement, AudioUnitParameterValue inValue, uint32_t inBufferOffsetInFrames);
typedef OSStatus (*AudioUnitRenderProc)(void *inComponentStorage, AudioUnitRenderActionFlags * _Nullable ioActionFlags, const AudioTimeStamp *inTimeStamp, uint32_t inOutputBusNumber, uint32_t inNumberFrames, AudioBufferList *ioData);

CF_ASSUME_NONNULL_END

#endif
