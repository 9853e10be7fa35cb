// Music sequencing (MusicPlayer.h): event structs, event types, track properties, sequence and file
// enums, handles, the user-event callback type and the error codes. The functions are Swift
// (AudioToolbox/Sequence), where CFURL, CFData and MIDIEndpointRef are available; AUPresetEvent holds a
// CF object and is Swift too.
#ifndef OCA_MUSICPLAYER_H
#define OCA_MUSICPLAYER_H

#include "MusicDevice.h"
#include "AUGraph.h"

CF_ASSUME_NONNULL_BEGIN

CF_ENUM(uint32_t) {
    kMusicEventType_NULL                = 0,
    kMusicEventType_ExtendedNote        = 1,
    kMusicEventType_ExtendedControl     = 2,
    kMusicEventType_ExtendedTempo       = 3,
    kMusicEventType_User                = 4,
    kMusicEventType_Meta                = 5,
    kMusicEventType_MIDINoteMessage     = 6,
    kMusicEventType_MIDIChannelMessage  = 7,
    kMusicEventType_MIDIRawData         = 8,
    kMusicEventType_Parameter           = 9,
    kMusicEventType_AUPreset            = 10
};
typedef uint32_t MusicEventType;

typedef enum OCA_OPTIONS_ATTR MusicSequenceLoadFlags : uint32_t {
    kMusicSequenceLoadSMF_PreserveTracks    = 0,
    kMusicSequenceLoadSMF_ChannelsToTracks  = (1U << 0)
} MusicSequenceLoadFlags;

typedef enum OCA_ENUM_ATTR MusicSequenceType : uint32_t {
    kMusicSequenceType_Beats    = OCA_4CC('b','e','a','t'),
    kMusicSequenceType_Seconds  = OCA_4CC('s','e','c','s'),
    kMusicSequenceType_Samples  = OCA_4CC('s','a','m','p')
} MusicSequenceType;

typedef enum OCA_ENUM_ATTR MusicSequenceFileTypeID : uint32_t {
    kMusicSequenceFile_AnyType      = 0,
    kMusicSequenceFile_MIDIType     = OCA_4CC('m','i','d','i'),
    kMusicSequenceFile_iMelodyType  = OCA_4CC('i','m','e','l')
} MusicSequenceFileTypeID;

typedef enum OCA_OPTIONS_ATTR MusicSequenceFileFlags : uint32_t {
    kMusicSequenceFileFlags_Default     = 0,
    kMusicSequenceFileFlags_EraseFile   = 1
} MusicSequenceFileFlags;

// Beats.
typedef double MusicTimeStamp;

// A note-on with its duration in beats (the note-off is implied); releaseVelocity is the note-off's.
typedef struct MIDINoteMessage {
    uint8_t channel;
    uint8_t note;
    uint8_t velocity;
    uint8_t releaseVelocity;
    float   duration;
} MIDINoteMessage;

typedef struct MIDIChannelMessage {
    uint8_t status;
    uint8_t data1;
    uint8_t data2;
    uint8_t reserved;
} MIDIChannelMessage;

// Variable length: `length` bytes start at data (usually a SysEx message).
typedef struct MIDIRawData {
    uint32_t length;
    uint8_t  data[1];
} MIDIRawData;

// A Standard MIDI File meta event (type byte without the FF), `dataLength` bytes at data.
typedef struct MIDIMetaEvent {
    uint8_t  metaEventType;
    uint8_t  unused1;
    uint8_t  unused2;
    uint8_t  unused3;
    uint32_t dataLength;
    uint8_t  data[1];
} MIDIMetaEvent;

typedef struct MusicEventUserData {
    uint32_t length;
    uint8_t  data[1];
} MusicEventUserData;

typedef struct ExtendedNoteOnEvent {
    MusicDeviceInstrumentID instrumentID;
    MusicDeviceGroupID      groupID;
    float                   duration;
    MusicDeviceNoteParams   extendedParams;
} ExtendedNoteOnEvent;

typedef struct ExtendedControlEvent {
    MusicDeviceGroupID      groupID;
    AudioUnitParameterID    controlID;
    AudioUnitParameterValue value;
} ExtendedControlEvent;

typedef struct ParameterEvent {
    AudioUnitParameterID    parameterID;
    AudioUnitScope          scope;
    AudioUnitElement        element;
    AudioUnitParameterValue value;
} ParameterEvent;

typedef struct ExtendedTempoEvent {
    double bpm;
} ExtendedTempoEvent;

// Bar 1 beat 1 is the start of the sequence; subbeat / subbeatDivisor is the fraction of a beat.
struct CABarBeatTime {
    int32_t  bar;
    uint16_t beat;
    uint16_t subbeat;
    uint16_t subbeatDivisor;
    uint16_t reserved;
};
typedef struct CABarBeatTime CABarBeatTime;

typedef struct OpaqueMusicPlayer        *MusicPlayer;
typedef struct OpaqueMusicSequence      *MusicSequence;
typedef struct OpaqueMusicTrack         *MusicTrack;
typedef struct OpaqueMusicEventIterator *MusicEventIterator;

typedef void (*MusicSequenceUserCallback)(void * _Nullable inClientData, MusicSequence inSequence, MusicTrack inTrack,
                                          MusicTimeStamp inEventTime, const MusicEventUserData *inEventData,
                                          MusicTimeStamp inStartSliceBeat, MusicTimeStamp inEndSliceBeat);

CF_ENUM(OSStatus) {
    kAudioToolboxErr_InvalidSequenceType        = -10846,
    kAudioToolboxErr_TrackIndexError            = -10859,
    kAudioToolboxErr_TrackNotFound              = -10858,
    kAudioToolboxErr_EndOfTrack                 = -10857,
    kAudioToolboxErr_StartOfTrack               = -10856,
    kAudioToolboxErr_IllegalTrackDestination    = -10855,
    kAudioToolboxErr_NoSequence                 = -10854,
    kAudioToolboxErr_InvalidEventType           = -10853,
    kAudioToolboxErr_InvalidPlayerState         = -10852,
    kAudioToolboxErr_CannotDoInCurrentContext   = -10863,
    kAudioToolboxError_NoTrackDestination       = -66720
};

CF_ENUM(uint32_t) {
    kSequenceTrackProperty_LoopInfo             = 0,
    kSequenceTrackProperty_OffsetTime           = 1,
    kSequenceTrackProperty_MuteStatus           = 2,
    kSequenceTrackProperty_SoloStatus           = 3,
    kSequenceTrackProperty_AutomatedParameters  = 4,
    kSequenceTrackProperty_TrackLength          = 5,
    kSequenceTrackProperty_TimeResolution       = 6
};

// Loops the last loopDuration beats of the track numberOfLoops times (0: forever); loopDuration 0 is off.
typedef struct MusicTrackLoopInfo {
    MusicTimeStamp loopDuration;
    int32_t        numberOfLoops;
} MusicTrackLoopInfo;

// A MIDI file's SMPTE division from frames per second and ticks per frame (MusicSequenceFileCreate).
static inline int16_t MusicSequenceSetSMPTEResolution(signed char fps, unsigned char ticks) {
    signed char res8 = fps < 0 ? fps : (signed char)-fps;
    int16_t res = (int16_t)(res8 * 256);
    res = (int16_t)(res + ticks);
    return res;
}

static inline void MusicSequenceGetSMPTEResolution(int16_t inRes, signed char *fps, unsigned char *ticks) {
    *fps = (signed char)((0xFF00 & inRes) >> 8);
    *ticks = (unsigned char)(0x7F & inRes);
}

CF_ASSUME_NONNULL_END

#endif
