// Core Audio's base types with Apple's layouts, names and values (CoreAudioBaseTypes.h), written
// from the public documentation. Declared in C so that callback types can point at them.
#ifndef OCA_COREAUDIOBASETYPES_H
#define OCA_COREAUDIOBASETYPES_H

#include "OCAMacros.h"

CF_ASSUME_NONNULL_BEGIN

#define OCA_4CC(a, b, c, d) ((((uint32_t)(a)) << 24) | (((uint32_t)(b)) << 16) | (((uint32_t)(c)) << 8) | ((uint32_t)(d)))

// MacTypes
typedef int32_t OSStatus;
typedef uint32_t FourCharCode;
typedef FourCharCode OSType;
// Mac OS `Boolean` (one byte, 0 or 1) as Swift's Darwin overlay names it. Declared in C, not Swift, so that C
// callback types (HostCallback_GetTransportState, the plug-in GetPropertyInfo entry points) can point at it and a
// Swift closure of that type writes `isPlaying?.pointee = true` as on a Mac. CoreAudioTypes adds Bool conversion.
typedef struct DarwinBoolean {
    unsigned char _value;
} DarwinBoolean;

// Errors shared by all of Core Audio.
CF_ENUM(OSStatus) {
    kAudio_NoError                = 0,
    kAudio_UnimplementedError     = -4,
    kAudio_FileNotFoundError      = -43,
    kAudio_FilePermissionError    = -54,
    kAudio_TooManyFilesOpenError  = -42,
    kAudio_BadFilePathError       = OCA_4CC('!', 'p', 't', 'h'),
    kAudio_ParamError             = -50,
    kAudio_MemFullError           = -108
};

// MARK: AudioValueRange, AudioValueTranslation

struct AudioValueRange {
    double mMinimum;
    double mMaximum;
};
typedef struct AudioValueRange AudioValueRange;

struct AudioValueTranslation {
    void *mInputData;
    uint32_t mInputDataSize;
    void *mOutputData;
    uint32_t mOutputDataSize;
};
typedef struct AudioValueTranslation AudioValueTranslation;

// MARK: AudioBuffer, AudioBufferList

struct AudioBuffer {
    uint32_t mNumberChannels;
    uint32_t mDataByteSize;
    void * _Nullable mData;
};
typedef struct AudioBuffer AudioBuffer;

struct AudioBufferList {
    uint32_t mNumberBuffers;
    AudioBuffer mBuffers[1]; // variable length
};
typedef struct AudioBufferList AudioBufferList;

// MARK: Sample types (macOS values: Float32 everywhere)

typedef float AudioSampleType;
typedef float AudioUnitSampleType;

// MARK: AudioStreamBasicDescription

typedef uint32_t AudioFormatID;
typedef uint32_t AudioFormatFlags;

struct AudioStreamBasicDescription {
    double mSampleRate;
    AudioFormatID mFormatID;
    AudioFormatFlags mFormatFlags;
    uint32_t mBytesPerPacket;
    uint32_t mFramesPerPacket;
    uint32_t mBytesPerFrame;
    uint32_t mChannelsPerFrame;
    uint32_t mBitsPerChannel;
    uint32_t mReserved;
};
typedef struct AudioStreamBasicDescription AudioStreamBasicDescription;

static const double kAudioStreamAnyRate = 0.0;

CF_ENUM(AudioFormatID) {
    kAudioFormatLinearPCM             = OCA_4CC('l', 'p', 'c', 'm'),
    kAudioFormatAC3                   = OCA_4CC('a', 'c', '-', '3'),
    kAudioFormat60958AC3              = OCA_4CC('c', 'a', 'c', '3'),
    kAudioFormatAppleIMA4             = OCA_4CC('i', 'm', 'a', '4'),
    kAudioFormatMPEG4AAC              = OCA_4CC('a', 'a', 'c', ' '),
    kAudioFormatMPEG4CELP             = OCA_4CC('c', 'e', 'l', 'p'),
    kAudioFormatMPEG4HVXC             = OCA_4CC('h', 'v', 'x', 'c'),
    kAudioFormatMPEG4TwinVQ           = OCA_4CC('t', 'w', 'v', 'q'),
    kAudioFormatMACE3                 = OCA_4CC('M', 'A', 'C', '3'),
    kAudioFormatMACE6                 = OCA_4CC('M', 'A', 'C', '6'),
    kAudioFormatULaw                  = OCA_4CC('u', 'l', 'a', 'w'),
    kAudioFormatALaw                  = OCA_4CC('a', 'l', 'a', 'w'),
    kAudioFormatQDesign               = OCA_4CC('Q', 'D', 'M', 'C'),
    kAudioFormatQDesign2              = OCA_4CC('Q', 'D', 'M', '2'),
    kAudioFormatQUALCOMM              = OCA_4CC('Q', 'c', 'l', 'p'),
    kAudioFormatMPEGLayer1            = OCA_4CC('.', 'm', 'p', '1'),
    kAudioFormatMPEGLayer2            = OCA_4CC('.', 'm', 'p', '2'),
    kAudioFormatMPEGLayer3            = OCA_4CC('.', 'm', 'p', '3'),
    kAudioFormatTimeCode              = OCA_4CC('t', 'i', 'm', 'e'),
    kAudioFormatMIDIStream            = OCA_4CC('m', 'i', 'd', 'i'),
    kAudioFormatParameterValueStream  = OCA_4CC('a', 'p', 'v', 's'),
    kAudioFormatAppleLossless         = OCA_4CC('a', 'l', 'a', 'c'),
    kAudioFormatMPEG4AAC_HE           = OCA_4CC('a', 'a', 'c', 'h'),
    kAudioFormatMPEG4AAC_LD           = OCA_4CC('a', 'a', 'c', 'l'),
    kAudioFormatMPEG4AAC_ELD          = OCA_4CC('a', 'a', 'c', 'e'),
    kAudioFormatMPEG4AAC_ELD_SBR      = OCA_4CC('a', 'a', 'c', 'f'),
    kAudioFormatMPEG4AAC_ELD_V2       = OCA_4CC('a', 'a', 'c', 'g'),
    kAudioFormatMPEG4AAC_HE_V2        = OCA_4CC('a', 'a', 'c', 'p'),
    kAudioFormatMPEG4AAC_Spatial      = OCA_4CC('a', 'a', 'c', 's'),
    kAudioFormatMPEGD_USAC            = OCA_4CC('u', 's', 'a', 'c'),
    kAudioFormatAMR                   = OCA_4CC('s', 'a', 'm', 'r'),
    kAudioFormatAMR_WB                = OCA_4CC('s', 'a', 'w', 'b'),
    kAudioFormatAudible               = OCA_4CC('A', 'U', 'D', 'B'),
    kAudioFormatiLBC                  = OCA_4CC('i', 'l', 'b', 'c'),
    kAudioFormatDVIIntelIMA           = 0x6D730011,
    kAudioFormatMicrosoftGSM          = 0x6D730031,
    kAudioFormatAES3                  = OCA_4CC('a', 'e', 's', '3'),
    kAudioFormatEnhancedAC3           = OCA_4CC('e', 'c', '-', '3'),
    kAudioFormatFLAC                  = OCA_4CC('f', 'l', 'a', 'c'),
    kAudioFormatOpus                  = OCA_4CC('o', 'p', 'u', 's'),
    kAudioFormatAPAC                  = OCA_4CC('a', 'p', 'a', 'c')
};

CF_ENUM(AudioFormatFlags) {
    kAudioFormatFlagIsFloat                     = (1U << 0),
    kAudioFormatFlagIsBigEndian                 = (1U << 1),
    kAudioFormatFlagIsSignedInteger             = (1U << 2),
    kAudioFormatFlagIsPacked                    = (1U << 3),
    kAudioFormatFlagIsAlignedHigh               = (1U << 4),
    kAudioFormatFlagIsNonInterleaved            = (1U << 5),
    kAudioFormatFlagIsNonMixable                = (1U << 6),
    kAudioFormatFlagsAreAllClear                = 0x80000000,

    kLinearPCMFormatFlagIsFloat                 = kAudioFormatFlagIsFloat,
    kLinearPCMFormatFlagIsBigEndian             = kAudioFormatFlagIsBigEndian,
    kLinearPCMFormatFlagIsSignedInteger         = kAudioFormatFlagIsSignedInteger,
    kLinearPCMFormatFlagIsPacked                = kAudioFormatFlagIsPacked,
    kLinearPCMFormatFlagIsAlignedHigh           = kAudioFormatFlagIsAlignedHigh,
    kLinearPCMFormatFlagIsNonInterleaved        = kAudioFormatFlagIsNonInterleaved,
    kLinearPCMFormatFlagIsNonMixable            = kAudioFormatFlagIsNonMixable,
    kLinearPCMFormatFlagsSampleFractionShift    = 7,
    kLinearPCMFormatFlagsSampleFractionMask     = (0x3F << kLinearPCMFormatFlagsSampleFractionShift),
    kLinearPCMFormatFlagsAreAllClear            = kAudioFormatFlagsAreAllClear,

    kAppleLosslessFormatFlag_16BitSourceData    = 1,
    kAppleLosslessFormatFlag_20BitSourceData    = 2,
    kAppleLosslessFormatFlag_24BitSourceData    = 3,
    kAppleLosslessFormatFlag_32BitSourceData    = 4
};

// Linux targets are little-endian; the canonical formats are macOS's (Float32).
CF_ENUM(AudioFormatFlags) {
    kAudioFormatFlagsNativeEndian       = 0,
    kAudioFormatFlagsCanonical          = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked,
    kAudioFormatFlagsAudioUnitCanonical = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    kAudioFormatFlagsNativeFloatPacked  = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
};

// iOS's 8.24 fixed-point fraction (a macro there: Swift sees Int32).
#define kAudioUnitSampleFractionBits 24

// MARK: AudioStreamPacketDescription

struct AudioStreamPacketDescription {
    int64_t mStartOffset;
    uint32_t mVariableFramesInPacket;
    uint32_t mDataByteSize;
};
typedef struct AudioStreamPacketDescription AudioStreamPacketDescription;

// MARK: SMPTETime

typedef enum OCA_ENUM_ATTR SMPTETimeType : uint32_t {
    kSMPTETimeType24        = 0,
    kSMPTETimeType25        = 1,
    kSMPTETimeType30Drop    = 2,
    kSMPTETimeType30        = 3,
    kSMPTETimeType2997      = 4,
    kSMPTETimeType2997Drop  = 5,
    kSMPTETimeType60        = 6,
    kSMPTETimeType5994      = 7,
    kSMPTETimeType60Drop    = 8,
    kSMPTETimeType5994Drop  = 9,
    kSMPTETimeType50        = 10,
    kSMPTETimeType2398      = 11
} SMPTETimeType;

typedef enum OCA_OPTIONS_ATTR SMPTETimeFlags : uint32_t {
    kSMPTETimeUnknown   = 0,
    kSMPTETimeValid     = (1U << 0),
    kSMPTETimeRunning   = (1U << 1)
} SMPTETimeFlags;

struct SMPTETime {
    int16_t mSubframes;
    int16_t mSubframeDivisor;
    uint32_t mCounter;
    SMPTETimeType mType;
    SMPTETimeFlags mFlags;
    int16_t mHours;
    int16_t mMinutes;
    int16_t mSeconds;
    int16_t mFrames;
};
typedef struct SMPTETime SMPTETime;

// MARK: AudioTimeStamp

typedef enum OCA_OPTIONS_ATTR AudioTimeStampFlags : uint32_t {
    kAudioTimeStampNothingValid         = 0,
    kAudioTimeStampSampleTimeValid      = (1U << 0),
    kAudioTimeStampHostTimeValid        = (1U << 1),
    kAudioTimeStampRateScalarValid      = (1U << 2),
    kAudioTimeStampWordClockTimeValid   = (1U << 3),
    kAudioTimeStampSMPTETimeValid       = (1U << 4),
    kAudioTimeStampSampleHostTimeValid  = (kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid)
} AudioTimeStampFlags;

struct AudioTimeStamp {
    double mSampleTime;
    uint64_t mHostTime;
    double mRateScalar;
    uint64_t mWordClockTime;
    SMPTETime mSMPTETime;
    AudioTimeStampFlags mFlags;
    uint32_t mReserved;
};
typedef struct AudioTimeStamp AudioTimeStamp;

// MARK: AudioClassDescription

struct AudioClassDescription {
    OSType mType;
    OSType mSubType;
    OSType mManufacturer;
};
typedef struct AudioClassDescription AudioClassDescription;

// MARK: MPEG-4 audio object types (the mFormatFlags of a kAudioFormatMPEG4* format)

typedef enum OCA_ENUM_ATTR MPEG4ObjectID : long {
    kMPEG4Object_AAC_Main       = 1,
    kMPEG4Object_AAC_LC         = 2,
    kMPEG4Object_AAC_SSR        = 3,
    kMPEG4Object_AAC_LTP        = 4,
    kMPEG4Object_AAC_SBR        = 5,
    kMPEG4Object_AAC_Scalable   = 6,
    kMPEG4Object_TwinVQ         = 7,
    kMPEG4Object_CELP           = 8,
    kMPEG4Object_HVXC           = 9
} MPEG4ObjectID;

CF_ASSUME_NONNULL_END

#endif
