// Core Audio Clock (CoreAudioClock.h): the types, constants and errors of CAClock, with Apple's values.
// The CAClock* functions are Swift (Sequence/CAClock+API.swift).
#ifndef OCA_COREAUDIOCLOCK_H
#define OCA_COREAUDIOCLOCK_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef enum OCA_ENUM_ATTR CAClockPropertyID : uint32_t {
    kCAClockProperty_InternalTimebase       = OCA_4CC('i','n','t','b'),
    kCAClockProperty_TimebaseSource         = OCA_4CC('i','t','b','s'),
    kCAClockProperty_SyncMode               = OCA_4CC('s','y','n','m'),
    kCAClockProperty_SyncSource             = OCA_4CC('s','y','n','s'),
    kCAClockProperty_SMPTEFormat            = OCA_4CC('s','m','p','f'),
    kCAClockProperty_SMPTEOffset            = OCA_4CC('s','m','p','o'),
    kCAClockProperty_MIDIClockDestinations  = OCA_4CC('m','b','c','d'),
    kCAClockProperty_MTCDestinations        = OCA_4CC('m','t','c','d'),
    kCAClockProperty_MTCFreewheelTime       = OCA_4CC('m','t','f','w'),
    kCAClockProperty_TempoMap               = OCA_4CC('t','m','p','o'),
    kCAClockProperty_MeterTrack             = OCA_4CC('m','e','t','r'),
    kCAClockProperty_Name                   = OCA_4CC('n','a','m','e'),
    kCAClockProperty_SendMIDISPP            = OCA_4CC('m','s','p','p')
} CAClockPropertyID;

/// The clock's reference time.
typedef enum OCA_ENUM_ATTR CAClockTimebase : uint32_t {
    kCAClockTimebase_HostTime           = OCA_4CC('h','o','s','t'),
    kCAClockTimebase_AudioDevice        = OCA_4CC('a','u','d','i'),
    kCAClockTimebase_AudioOutputUnit    = OCA_4CC('a','u','o','u')
} CAClockTimebase;

/// What drives the clock: itself, or MIDI beat clock / MIDI Time Code from a source.
typedef enum OCA_ENUM_ATTR CAClockSyncMode : uint32_t {
    kCAClockSyncMode_Internal           = OCA_4CC('i','n','t','r'),
    kCAClockSyncMode_MIDIClockTransport = OCA_4CC('m','c','l','k'),
    kCAClockSyncMode_MTCTransport       = OCA_4CC('m','m','t','c')
} CAClockSyncMode;

/// A SMPTE frame rate and whether it drops frames (kSMPTETimeType30, ...).
typedef SMPTETimeType CAClockSMPTEFormat;

/// What a listener is told.
typedef enum OCA_ENUM_ATTR CAClockMessage : uint32_t {
    kCAClockMessage_StartTimeSet        = OCA_4CC('s','t','i','m'),
    kCAClockMessage_Started             = OCA_4CC('s','t','r','t'),
    kCAClockMessage_Stopped             = OCA_4CC('s','t','o','p'),
    kCAClockMessage_Armed               = OCA_4CC('a','r','m','d'),
    kCAClockMessage_Disarmed            = OCA_4CC('d','a','r','m'),
    kCAClockMessage_PropertyChanged     = OCA_4CC('p','c','h','g'),
    kCAClockMessage_WrongSMPTEFormat    = OCA_4CC('?','s','m','p')
} CAClockMessage;

/// The units of a CAClockTime.
typedef enum OCA_ENUM_ATTR CAClockTimeFormat : uint32_t {
    kCAClockTimeFormat_HostTime         = OCA_4CC('h','o','s','t'),
    kCAClockTimeFormat_Samples          = OCA_4CC('s','a','m','p'),
    kCAClockTimeFormat_Beats            = OCA_4CC('b','e','a','t'),
    kCAClockTimeFormat_Seconds          = OCA_4CC('s','e','c','s'),
    kCAClockTimeFormat_SMPTESeconds     = OCA_4CC('s','m','p','s'),
    kCAClockTimeFormat_SMPTETime        = OCA_4CC('s','m','p','t'),
    kCAClockTimeFormat_AbsoluteSeconds  = OCA_4CC('a','s','e','c')
} CAClockTimeFormat;

CF_ENUM(OSStatus) {
    kCAClock_UnknownPropertyError       = -66816,
    kCAClock_InvalidPropertySizeError   = -66815,
    kCAClock_InvalidTimeFormatError     = -66814,
    kCAClock_InvalidSyncModeError       = -66813,
    kCAClock_InvalidSyncSourceError     = -66812,
    kCAClock_InvalidTimebaseError       = -66811,
    kCAClock_InvalidTimebaseSourceError = -66810,
    kCAClock_InvalidSMPTEFormatError    = -66809,
    kCAClock_InvalidSMPTEOffsetError    = -66808,
    kCAClock_InvalidUnitError           = -66807,
    kCAClock_InvalidPlayRateError       = -66806,
    kCAClock_CannotSetTimeError         = -66805
};

typedef struct OpaqueCAClock *CAClockRef;
typedef double CAClockBeats;
/// Beats per minute.
typedef double CAClockTempo;
typedef double CAClockSamples;
typedef double CAClockSeconds;

/// Called with a clock's state changes (`param` is currently always NULL).
typedef void (*CAClockListenerProc)(void *userData, CAClockMessage message, const void * _Nullable param);

/// A time in one of the CAClockTimeFormat units: the union member matching `format` is the value.
struct CAClockTime {
    CAClockTimeFormat format;
    uint32_t          reserved;
    union {
        uint64_t       hostTime;
        CAClockSamples samples;
        CAClockBeats   beats;
        CAClockSeconds seconds;
        SMPTETime      smpte;
    } time;
};
typedef struct CAClockTime CAClockTime;

/// From `beats` on, the tempo is `tempoBPM` (kCAClockProperty_TempoMap is an array of these).
struct CATempoMapEntry {
    CAClockBeats beats;
    CAClockTempo tempoBPM;
};
typedef struct CATempoMapEntry CATempoMapEntry;

/// From `beats` on, the time signature is meterNumer/meterDenom (kCAClockProperty_MeterTrack).
struct CAMeterTrackEntry {
    CAClockBeats beats;
    uint16_t     meterNumer;
    uint16_t     meterDenom;
};
typedef struct CAMeterTrackEntry CAMeterTrackEntry;

CF_ASSUME_NONNULL_END

#endif
