// Core MIDI's MIDIServices.h: the object handles, packet and event list structs (Apple's packed layout,
// which clients walk with pointer arithmetic), error codes, notifications and MIDIPacketNext.
#ifndef CCOREMIDI_SERVICES_H
#define CCOREMIDI_SERVICES_H
#include "MIDITypes.h"
#define UInt8 OCAMIDI_UInt8
#define UInt16 OCAMIDI_UInt16
#define UInt32 OCAMIDI_UInt32
#define UInt64 OCAMIDI_UInt64
#define SInt32 OCAMIDI_SInt32
#define Byte OCAMIDI_Byte

CF_ASSUME_NONNULL_BEGIN

CF_ENUM(OSStatus) {
    kMIDIInvalidClient      = -10830,
    kMIDIInvalidPort        = -10831,
    kMIDIWrongEndpointType  = -10832,
    kMIDINoConnection       = -10833,
    kMIDIUnknownEndpoint    = -10834,
    kMIDIUnknownProperty    = -10835,
    kMIDIWrongPropertyType  = -10836,
    kMIDINoCurrentSetup     = -10837,
    kMIDIMessageSendErr     = -10838,
    kMIDIServerStartErr     = -10839,
    kMIDISetupFormatErr     = -10840,
    kMIDIWrongThread        = -10841,
    kMIDIObjectNotFound     = -10842,
    kMIDIIDNotUnique        = -10843,
    kMIDINotPermitted       = -10844,
    kMIDIUnknownError       = -10845
};

typedef UInt32 MIDIObjectRef;
typedef MIDIObjectRef MIDIClientRef;
typedef MIDIObjectRef MIDIPortRef;
typedef MIDIObjectRef MIDIDeviceRef;
typedef MIDIObjectRef MIDIEntityRef;
typedef MIDIObjectRef MIDIEndpointRef;
typedef UInt64 MIDITimeStamp;

typedef enum OCA_ENUM_ATTR MIDIObjectType : SInt32 {
    kMIDIObjectType_Other               = -1,
    kMIDIObjectType_Device              = 0,
    kMIDIObjectType_Entity              = 1,
    kMIDIObjectType_Source              = 2,
    kMIDIObjectType_Destination         = 3,
    kMIDIObjectType_ExternalDevice      = 0x10 | kMIDIObjectType_Device,
    kMIDIObjectType_ExternalEntity      = 0x10 | kMIDIObjectType_Entity,
    kMIDIObjectType_ExternalSource      = 0x10 | kMIDIObjectType_Source,
    kMIDIObjectType_ExternalDestination = 0x10 | kMIDIObjectType_Destination
} MIDIObjectType;
static const MIDIObjectType kMIDIObjectType_ExternalMask = (MIDIObjectType)0x10;

typedef SInt32 MIDIUniqueID;
CF_ENUM(MIDIUniqueID) {
    kMIDIInvalidUniqueID = 0
};

typedef enum OCA_ENUM_ATTR MIDIProtocolID : SInt32 {
    kMIDIProtocol_1_0 = 1,
    kMIDIProtocol_2_0 = 2,
} MIDIProtocolID;

typedef struct MIDIEventList MIDIEventList;
typedef struct MIDIPacketList MIDIPacketList;
typedef struct MIDINotification MIDINotification;
typedef struct MIDISysexSendRequest MIDISysexSendRequest;
typedef struct MIDISysexSendRequestUMP MIDISysexSendRequestUMP;

typedef void (*MIDINotifyProc)(const MIDINotification *message, void * _Nullable refCon);
typedef void (*MIDICompletionProc)(MIDISysexSendRequest *request);
typedef void (*MIDICompletionProcUMP)(MIDISysexSendRequestUMP *request);
typedef void (*MIDIReadProc)(const MIDIPacketList *pktlist, void * _Nullable readProcRefCon, void * _Nullable srcConnRefCon);

#pragma pack(push, 4)
struct MIDIEventPacket {
    MIDITimeStamp timeStamp;
    UInt32 wordCount;
    UInt32 words[64];
};
typedef struct MIDIEventPacket MIDIEventPacket;

struct MIDIEventList {
    MIDIProtocolID protocol;
    UInt32 numPackets;
    MIDIEventPacket packet[1];
};

struct MIDIPacket {
    MIDITimeStamp timeStamp;
    UInt16 length;
    Byte data[256];
};
typedef struct MIDIPacket MIDIPacket;

struct MIDIPacketList {
    UInt32 numPackets;
    MIDIPacket packet[1];
};
#pragma pack(pop)

struct MIDISysexSendRequest {
    MIDIEndpointRef destination;
    const Byte *data;
    UInt32 bytesToSend;
    DarwinBoolean complete;
    Byte reserved[3];
    MIDICompletionProc completionProc;
    void * _Nullable completionRefCon;
};

struct MIDISysexSendRequestUMP {
    MIDIEndpointRef destination;
    UInt32 *words;
    UInt32 wordsToSend;
    DarwinBoolean complete;
    MIDICompletionProcUMP completionProc;
    void * _Nullable completionRefCon;
};

typedef enum OCA_ENUM_ATTR MIDINotificationMessageID : SInt32 {
    kMIDIMsgSetupChanged            = 1,
    kMIDIMsgObjectAdded             = 2,
    kMIDIMsgObjectRemoved           = 3,
    kMIDIMsgPropertyChanged         = 4,
    kMIDIMsgThruConnectionsChanged  = 5,
    kMIDIMsgSerialPortOwnerChanged  = 6,
    kMIDIMsgIOError                 = 7
} MIDINotificationMessageID;

struct MIDINotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
};

struct MIDIObjectAddRemoveNotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
    MIDIObjectRef parent;
    MIDIObjectType parentType;
    MIDIObjectRef child;
    MIDIObjectType childType;
};
typedef struct MIDIObjectAddRemoveNotification MIDIObjectAddRemoveNotification;

struct MIDIIOErrorNotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
    MIDIDeviceRef driverDevice;
    OSStatus errorCode;
};
typedef struct MIDIIOErrorNotification MIDIIOErrorNotification;

// Apple's header defines this inline: packets are packed on Intel, 4-byte aligned on ARM.
static inline MIDIPacket *MIDIPacketNext(const MIDIPacket *pkt) {
#if defined(__arm__) || defined(__aarch64__)
    return (MIDIPacket *)(((uintptr_t)(&pkt->data[pkt->length]) + 3) & ~(uintptr_t)3);
#else
    return (MIDIPacket *)&pkt->data[pkt->length];
#endif
}

// Inline in Apple's header too.
static inline MIDIEventPacket *MIDIEventPacketNext(const MIDIEventPacket *pkt) {
    return (MIDIEventPacket *)(&pkt->words[pkt->wordCount]);
}

CF_ASSUME_NONNULL_END

#undef UInt8
#undef UInt16
#undef UInt32
#undef UInt64
#undef SInt32
#undef Byte
#endif
