// The plain C part of Apple's Objective-C audio unit headers (AUAudioUnit.h, AUParameters.h,
// AUAudioUnitImplementation.h): scalar typedefs, enums and the realtime event structures, declared in C
// so that Swift imports them exactly as it imports Apple's (the unions and #pragma pack(4) included).
// The classes (AUAudioUnit, AUParameter, ...) are Swift, in AudioToolbox/AUAudioUnit.
#ifndef OCA_AUAUDIOUNITIMPLEMENTATION_H
#define OCA_AUAUDIOUNITIMPLEMENTATION_H

#include "AudioUnitProperties.h"

CF_ASSUME_NONNULL_BEGIN

// AUParameters.h

typedef float AUValue;
typedef uint64_t AUParameterAddress;

typedef enum OCA_ENUM_ATTR AUParameterAutomationEventType : uint32_t {
    AUParameterAutomationEventTypeValue = 0,
    AUParameterAutomationEventTypeTouch = 1,
    AUParameterAutomationEventTypeRelease = 2
} AUParameterAutomationEventType;

typedef struct AURecordedParameterEvent {
    uint64_t hostTime;
    AUParameterAddress address;
    AUValue value;
} AURecordedParameterEvent;

typedef struct AUParameterAutomationEvent {
    uint64_t hostTime;
    AUParameterAddress address;
    AUValue value;
    AUParameterAutomationEventType eventType;
    uint64_t reserved;
} AUParameterAutomationEvent;

typedef void *AUParameterObserverToken;

// AUAudioUnit.h

typedef OSStatus AUAudioUnitStatus;
typedef uint32_t AUAudioFrameCount;
typedef uint32_t AUAudioChannelCount;
typedef uint32_t AUAudioObjectID;

enum : AUEventSampleTime {
    AUEventSampleTimeImmediate = (AUEventSampleTime)0xffffffff00000000LL
};

typedef enum OCA_ENUM_ATTR AUAudioUnitBusType : long {
    AUAudioUnitBusTypeInput = 1,
    AUAudioUnitBusTypeOutput = 2
} AUAudioUnitBusType;

typedef enum OCA_OPTIONS_ATTR AUHostTransportStateFlags : unsigned long {
    AUHostTransportStateChanged = 1,
    AUHostTransportStateMoving = 2,
    AUHostTransportStateRecording = 4,
    AUHostTransportStateCycling = 8
} AUHostTransportStateFlags;

// AUAudioUnitImplementation.h

union AURenderEvent;

typedef enum OCA_ENUM_ATTR AURenderEventType : uint8_t {
    AURenderEventParameter = 1,
    AURenderEventParameterRamp = 2,
    AURenderEventMIDI = 8,
    AURenderEventMIDISysEx = 9,
    AURenderEventMIDIEventList = 10
} AURenderEventType;

#pragma pack(push, 4)
typedef struct AURenderEventHeader {
    union AURenderEvent *_Nullable next;
    AUEventSampleTime eventSampleTime;
    AURenderEventType eventType;
    uint8_t reserved;
} AURenderEventHeader;

typedef struct AUParameterEvent {
    union AURenderEvent *_Nullable next;
    AUEventSampleTime eventSampleTime;
    AURenderEventType eventType;
    uint8_t reserved[3];
    AUAudioFrameCount rampDurationSampleFrames;
    AUParameterAddress parameterAddress;
    AUValue value;
} AUParameterEvent;

typedef struct AUMIDIEvent {
    union AURenderEvent *_Nullable next;
    AUEventSampleTime eventSampleTime;
    AURenderEventType eventType;
    uint8_t reserved;
    uint16_t length;
    uint8_t cable;
    uint8_t data[3];
} AUMIDIEvent;

// Apple's union also has an AUMIDIEventList member (MIDIEventList is CoreMIDI's, which this package lacks).
typedef union AURenderEvent {
    AURenderEventHeader head;
    AUParameterEvent parameter;
    AUMIDIEvent MIDI;
} AURenderEvent;
#pragma pack(pop)

CF_ASSUME_NONNULL_END

#endif
