// Core MIDI's MIDIThruConnection.h: play-through connections from sources to destinations with filters and
// value transforms. The parameter struct's layout is Apple's (clients build it in a CFData byte for byte);
// the functions are implemented by the Swift overlay.
#ifndef CCOREMIDI_THRUCONNECTION_H
#define CCOREMIDI_THRUCONNECTION_H
#include <stddef.h>
#include "MIDIServices.h"
#define UInt8 OCAMIDI_UInt8
#define UInt16 OCAMIDI_UInt16
#define UInt32 OCAMIDI_UInt32
#define SInt16 int16_t

CF_ASSUME_NONNULL_BEGIN

typedef MIDIObjectRef MIDIThruConnectionRef;

/// A 7-bit value map: output = value[input].
struct MIDIValueMap {
    UInt8 value[128];
};
typedef struct MIDIValueMap MIDIValueMap;

typedef enum OCA_ENUM_ATTR MIDITransformType : UInt16 {
    kMIDITransform_None = 0,
    kMIDITransform_FilterOut = 1,
    kMIDITransform_MapControl = 2,
    kMIDITransform_Add = 8,
    kMIDITransform_Scale = 9,
    kMIDITransform_MinValue = 10,
    kMIDITransform_MaxValue = 11,
    kMIDITransform_MapValue = 12
} MIDITransformType;

enum {
    kMIDIThruConnection_MaxEndpoints = 8
};

typedef enum OCA_ENUM_ATTR MIDITransformControlType : UInt8 {
    kMIDIControlType_7Bit = 0,
    kMIDIControlType_14Bit = 1,
    kMIDIControlType_7BitRPN = 2,
    kMIDIControlType_14BitRPN = 3,
    kMIDIControlType_7BitNRPN = 4,
    kMIDIControlType_14BitNRPN = 5
} MIDITransformControlType;

/// How one kind of event's value is transformed.
struct MIDITransform {
    MIDITransformType transform;
    SInt16 param;
};
typedef struct MIDITransform MIDITransform;

/// How control changes of one control number are transformed (values handled as 14-bit numbers).
struct MIDIControlTransform {
    MIDITransformControlType controlType;
    MIDITransformControlType remappedControlType;
    UInt16 controlNumber;
    MIDITransformType transform;
    SInt16 param;
};
typedef struct MIDIControlTransform MIDIControlTransform;

/// A source or destination of a connection, by reference or unique ID.
struct MIDIThruConnectionEndpoint {
    MIDIEndpointRef endpointRef;
    MIDIUniqueID uniqueID;
};
typedef struct MIDIThruConnectionEndpoint MIDIThruConnectionEndpoint;

/// A connection's routing and transforms; numControlTransforms MIDIControlTransforms, then numMaps
/// MIDIValueMaps, follow it in memory.
struct MIDIThruConnectionParams {
    UInt32 version;
    UInt32 numSources;
    MIDIThruConnectionEndpoint sources[kMIDIThruConnection_MaxEndpoints];
    UInt32 numDestinations;
    MIDIThruConnectionEndpoint destinations[kMIDIThruConnection_MaxEndpoints];
    UInt8 channelMap[16];
    UInt8 lowVelocity, highVelocity;
    UInt8 lowNote, highNote;
    MIDITransform noteNumber;
    MIDITransform velocity;
    MIDITransform keyPressure;
    MIDITransform channelPressure;
    MIDITransform programChange;
    MIDITransform pitchBend;
    UInt8 filterOutSysEx;
    UInt8 filterOutMTC;
    UInt8 filterOutBeatClock;
    UInt8 filterOutTuneRequest;
    UInt8 reserved2[3];
    UInt8 filterOutAllControls;
    UInt16 numControlTransforms;
    UInt16 numMaps;
    UInt16 reserved3[4];
};
typedef struct MIDIThruConnectionParams MIDIThruConnectionParams;

/// The full size of a connection's parameters, with the control transforms and maps after the struct
/// (inline in Apple's header too).
static inline size_t MIDIThruConnectionParamsSize(const MIDIThruConnectionParams *ptr) {
    return sizeof(MIDIThruConnectionParams) + ptr->numControlTransforms * sizeof(MIDIControlTransform)
        + ptr->numMaps * sizeof(MIDIValueMap);
}

CF_ASSUME_NONNULL_END

#undef UInt8
#undef UInt16
#undef UInt32
#undef SInt16
#endif
