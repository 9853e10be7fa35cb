// Audio Processing Graph Services (AUGraph.h): handles, node interactions and errors.
#ifndef OCA_AUGRAPH_H
#define OCA_AUGRAPH_H

#include "AudioUnitProperties.h"

CF_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAUGraph *AUGraph;
typedef int32_t AUNode;

CF_ENUM(OSStatus) {
    kAUGraphErr_NodeNotFound                = -10860,
    kAUGraphErr_InvalidConnection           = -10861,
    kAUGraphErr_OutputNodeErr               = -10862,
    kAUGraphErr_CannotDoInCurrentContext    = -10863,
    kAUGraphErr_InvalidAudioUnit            = -10864
};

CF_ENUM(uint32_t) {
    kAUNodeInteraction_Connection       = 1,
    kAUNodeInteraction_InputCallback    = 2
};

struct AudioUnitNodeConnection {
    AUNode sourceNode;
    uint32_t sourceOutputNumber;
    AUNode destNode;
    uint32_t destInputNumber;
};
typedef struct AudioUnitNodeConnection AudioUnitNodeConnection;
typedef struct AudioUnitNodeConnection AUNodeConnection;

struct AUNodeRenderCallback {
    AUNode destNode;
    AudioUnitElement destInputNumber;
    AURenderCallbackStruct cback;
};
typedef struct AUNodeRenderCallback AUNodeRenderCallback;

struct AUNodeInteraction {
    uint32_t nodeInteractionType;
    union {
        AUNodeConnection connection;
        AUNodeRenderCallback inputCallback;
    } nodeInteraction;
};
typedef struct AUNodeInteraction AUNodeInteraction;

// The Component Manager's description (CarbonCore's Components.h, which Apple's AUGraph.h forward-declares for the
// deprecated AUGraphNewNode and AUGraphGetNodeInfo): the same five fields as AudioComponentDescription.
struct ComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    uint32_t componentFlags;
    uint32_t componentFlagsMask;
};
typedef struct ComponentDescription ComponentDescription;

CF_ASSUME_NONNULL_END

#endif
