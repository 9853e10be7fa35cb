// Music device (instrument) types and selectors (MusicDevice.h). The functions (MusicDeviceMIDIEvent,
// MusicDeviceSysEx, MusicDeviceMIDIEventList, MusicDeviceStartNote, MusicDeviceStopNote) are Swift
// (AudioToolbox/AudioUnit/MusicDevice+API.swift), where MIDIEventList comes from CoreMIDI.
#ifndef OCA_MUSICDEVICE_H
#define OCA_MUSICDEVICE_H

#include "AUComponent.h"

CF_ASSUME_NONNULL_BEGIN

typedef uint32_t MusicDeviceInstrumentID;
typedef uint32_t MusicDeviceGroupID;
typedef uint32_t NoteInstanceID;
typedef AudioComponentInstance MusicDeviceComponent;

// The common MusicDeviceStartNote argument: argCount 2, a fractional MIDI pitch and velocity.
struct MusicDeviceStdNoteParams {
    uint32_t    argCount;
    float       mPitch;
    float       mVelocity;
};
typedef struct MusicDeviceStdNoteParams MusicDeviceStdNoteParams;

struct NoteParamsControlValue {
    AudioUnitParameterID    mID;
    AudioUnitParameterValue mValue;
};
typedef struct NoteParamsControlValue NoteParamsControlValue;

// argCount = 2 + the number of mControls entries (a variable-length array).
struct MusicDeviceNoteParams {
    uint32_t                argCount;
    float                   mPitch;
    float                   mVelocity;
    NoteParamsControlValue  mControls[1];
};
typedef struct MusicDeviceNoteParams MusicDeviceNoteParams;

enum {
    kMusicNoteEvent_UseGroupInstrument  = 0xFFFFFFFF,
    kMusicNoteEvent_Unused              = 0xFFFFFFFF
};

enum {
    kMusicDeviceRange                       = 0x0100,
    kMusicDeviceMIDIEventSelect             = 0x0101,
    kMusicDeviceSysExSelect                 = 0x0102,
    kMusicDevicePrepareInstrumentSelect     = 0x0103,
    kMusicDeviceReleaseInstrumentSelect     = 0x0104,
    kMusicDeviceStartNoteSelect             = 0x0105,
    kMusicDeviceStopNoteSelect              = 0x0106,
    kMusicDeviceMIDIEventListSelect         = 0x0107
};

// What a v2 plug-in's Lookup returns for the selectors above.
typedef OSStatus (*MusicDeviceMIDIEventProc)(void *self, uint32_t inStatus, uint32_t inData1, uint32_t inData2,
                                             uint32_t inOffsetSampleFrame);
typedef OSStatus (*MusicDeviceSysExProc)(void *self, const uint8_t *inData, uint32_t inLength);
typedef OSStatus (*MusicDeviceStartNoteProc)(void *self, MusicDeviceInstrumentID inInstrument,
                                             MusicDeviceGroupID inGroupID, NoteInstanceID *outNoteInstanceID,
                                             uint32_t inOffsetSampleFrame, const MusicDeviceNoteParams *inParams);
typedef OSStatus (*MusicDeviceStopNoteProc)(void *self, MusicDeviceGroupID inGroupID,
                                            NoteInstanceID inNoteInstanceID, uint32_t inOffsetSampleFrame);

CF_ASSUME_NONNULL_END

#endif
