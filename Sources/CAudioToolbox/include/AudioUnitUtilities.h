// AudioUnitUtilities.h: parameter and event listeners (AUListener*, AUEventListener*, AUParameterSet, ...)
// and the linear/format helpers. The types are C so that Swift imports them with Apple's shapes (the event's
// anonymous union, the C function types); the functions and the block types are Swift
// (AudioToolbox/Services/AudioUnitUtilities+API.swift). Values from Apple's header.
#ifndef OCA_AUDIOUNITUTILITIES_H
#define OCA_AUDIOUNITUTILITIES_H

#include "AUComponent.h"

CF_ASSUME_NONNULL_BEGIN

// A wildcard parameter ID, valid only when notifying (AUParameterListenerNotify), not when registering.
CF_ENUM(AudioUnitParameterID) {
    kAUParameterListener_AnyParameter = 0xFFFFFFFF
};

typedef enum OCA_ENUM_ATTR AudioUnitEventType : uint32_t {
    kAudioUnitEvent_ParameterValueChange        = 0,
    kAudioUnitEvent_BeginParameterChangeGesture = 1,
    kAudioUnitEvent_EndParameterChangeGesture   = 2,
    kAudioUnitEvent_PropertyChange              = 3
} AudioUnitEventType;

// Opaque: a listener created by AUListenerCreate or AUEventListenerCreate (Swift: OpaquePointer).
typedef struct AUListenerBase *AUParameterListenerRef;
typedef AUParameterListenerRef AUEventListenerRef;

// A change to a unit's state: a parameter (value change and gestures) or a property.
struct AudioUnitEvent {
    AudioUnitEventType mEventType;
    union {
        AudioUnitParameter mParameter;
        AudioUnitProperty  mProperty;
    } mArgument;
};
typedef struct AudioUnitEvent AudioUnitEvent;

typedef void (*AUParameterListenerProc)(void * _Nullable inUserData, void * _Nullable inObject,
                                        const AudioUnitParameter *inParameter, AudioUnitParameterValue inValue);

typedef void (*AUEventListenerProc)(void * _Nullable inUserData, void * _Nullable inObject,
                                    const AudioUnitEvent *inEvent, uint64_t inEventHostTime,
                                    AudioUnitParameterValue inParameterValue);

CF_ASSUME_NONNULL_END

#endif
