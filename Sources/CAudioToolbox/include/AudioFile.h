// Audio File Services (AudioFile.h) and the CAF file format (CAFFile.h): file types, errors, flags,
// permissions, property IDs, markers, regions, packet translations and the I/O callback types.
#ifndef OCA_AUDIOFILE_H
#define OCA_AUDIOFILE_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef uint32_t AudioFileTypeID;

// Built-in audio file types.
CF_ENUM(AudioFileTypeID) {
    kAudioFileAIFFType              = OCA_4CC('A','I','F','F'),
    kAudioFileAIFCType              = OCA_4CC('A','I','F','C'),
    kAudioFileWAVEType              = OCA_4CC('W','A','V','E'),
    kAudioFileRF64Type              = OCA_4CC('R','F','6','4'),
    kAudioFileBW64Type              = OCA_4CC('B','W','6','4'),
    kAudioFileWave64Type            = OCA_4CC('W','6','4','f'),
    kAudioFileSoundDesigner2Type    = OCA_4CC('S','d','2','f'),
    kAudioFileNextType              = OCA_4CC('N','e','X','T'),
    kAudioFileMP3Type               = OCA_4CC('M','P','G','3'),
    kAudioFileMP2Type               = OCA_4CC('M','P','G','2'),
    kAudioFileMP1Type               = OCA_4CC('M','P','G','1'),
    kAudioFileAC3Type               = OCA_4CC('a','c','-','3'),
    kAudioFileAAC_ADTSType          = OCA_4CC('a','d','t','s'),
    kAudioFileMPEG4Type             = OCA_4CC('m','p','4','f'),
    kAudioFileM4AType               = OCA_4CC('m','4','a','f'),
    kAudioFileM4BType               = OCA_4CC('m','4','b','f'),
    kAudioFileCAFType               = OCA_4CC('c','a','f','f'),
    kAudioFile3GPType               = OCA_4CC('3','g','p','p'),
    kAudioFile3GP2Type              = OCA_4CC('3','g','p','2'),
    kAudioFileAMRType               = OCA_4CC('a','m','r','f'),
    kAudioFileFLACType              = OCA_4CC('f','l','a','c'),
    kAudioFileLATMInLOASType        = OCA_4CC('l','o','a','s')
};

// Errors returned by the AudioFile API.
CF_ENUM(OSStatus) {
    kAudioFileUnspecifiedError                  = OCA_4CC('w','h','t','?'),
    kAudioFileUnsupportedFileTypeError          = OCA_4CC('t','y','p','?'),
    kAudioFileUnsupportedDataFormatError        = OCA_4CC('f','m','t','?'),
    kAudioFileUnsupportedPropertyError          = OCA_4CC('p','t','y','?'),
    kAudioFileBadPropertySizeError              = OCA_4CC('!','s','i','z'),
    kAudioFilePermissionsError                  = OCA_4CC('p','r','m','?'),
    kAudioFileNotOptimizedError                 = OCA_4CC('o','p','t','m'),
    kAudioFileInvalidChunkError                 = OCA_4CC('c','h','k','?'),
    kAudioFileDoesNotAllow64BitDataSizeError    = OCA_4CC('o','f','f','?'),
    kAudioFileInvalidPacketOffsetError          = OCA_4CC('p','c','k','?'),
    kAudioFileInvalidPacketDependencyError      = OCA_4CC('d','e','p','?'),
    kAudioFileInvalidFileError                  = OCA_4CC('d','t','a','?'),
    kAudioFileOperationNotSupportedError        = 0x6F703F3F,
    kAudioFileNotOpenError                      = -38,
    kAudioFileEndOfFileError                    = -39,
    kAudioFilePositionError                     = -40,
    kAudioFileFileNotFoundError                 = -43
};

// Flags for AudioFileCreateWithURL / AudioFileInitializeWithCallbacks.
typedef enum OCA_OPTIONS_ATTR AudioFileFlags : uint32_t {
    kAudioFileFlags_EraseFile               = 1,
    kAudioFileFlags_DontPageAlignAudioData  = 2
} AudioFileFlags;

// Permissions for opening a file.
typedef enum OCA_ENUM_ATTR AudioFilePermissions : int8_t {
    kAudioFileReadPermission        = 0x01,
    kAudioFileWritePermission       = 0x02,
    kAudioFileReadWritePermission   = 0x03
} AudioFilePermissions;

typedef struct OpaqueAudioFileID *AudioFileID;
typedef uint32_t AudioFilePropertyID;

// Playback direction of a looped segment.
CF_ENUM(uint32_t) {
    kAudioFileLoopDirection_NoLooping           = 0,
    kAudioFileLoopDirection_Forward             = 1,
    kAudioFileLoopDirection_ForwardAndBackward  = 2,
    kAudioFileLoopDirection_Backward            = 3
};

struct AudioFile_SMPTE_Time {
    int8_t mHours;
    uint8_t mMinutes;
    uint8_t mSeconds;
    uint8_t mFrames;
    uint32_t mSubFrameSampleOffset;
};
typedef struct AudioFile_SMPTE_Time AudioFile_SMPTE_Time;

// Marker types (mType of AudioFileMarker; CAF-specific types are the kCAFMarkerType_* below).
CF_ENUM(uint32_t) {
    kAudioFileMarkerType_Generic = 0,
};

// AudioFileMarker, AudioFileMarkerList, AudioFileRegion and AudioFileRegionList are declared in Swift
// (AudioToolbox/File/AudioFileMarker.swift) so that mName is `Unmanaged<CFString>` as in Apple's import.

typedef enum OCA_OPTIONS_ATTR AudioFileRegionFlags : uint32_t {
    kAudioFileRegionFlag_LoopEnable     = 1,
    kAudioFileRegionFlag_PlayForward    = 2,
    kAudioFileRegionFlag_PlayBackward   = 4
} AudioFileRegionFlags;

// Packet, frame and byte translations (kAudioFilePropertyPacketToFrame etc.).
struct AudioFramePacketTranslation {
    int64_t mFrame;
    int64_t mPacket;
    uint32_t mFrameOffsetInPacket;
};
typedef struct AudioFramePacketTranslation AudioFramePacketTranslation;

typedef enum OCA_OPTIONS_ATTR AudioBytePacketTranslationFlags : uint32_t {
    kBytePacketTranslationFlag_IsEstimate = 1
} AudioBytePacketTranslationFlags;

struct AudioBytePacketTranslation {
    int64_t mByte;
    int64_t mPacket;
    uint32_t mByteOffsetInPacket;
    AudioBytePacketTranslationFlags mFlags;
};
typedef struct AudioBytePacketTranslation AudioBytePacketTranslation;

struct AudioFilePacketTableInfo {
    int64_t mNumberValidFrames;
    int32_t mPrimingFrames;
    int32_t mRemainderFrames;
};
typedef struct AudioFilePacketTableInfo AudioFilePacketTableInfo;

struct AudioPacketRangeByteCountTranslation {
    int64_t mPacket;
    int64_t mPacketCount;
    int64_t mByteCountUpperBound;
};
typedef struct AudioPacketRangeByteCountTranslation AudioPacketRangeByteCountTranslation;

struct AudioPacketRollDistanceTranslation {
    int64_t mPacket;
    int64_t mRollDistance;
};
typedef struct AudioPacketRollDistanceTranslation AudioPacketRollDistanceTranslation;

struct AudioIndependentPacketTranslation {
    int64_t mPacket;
    int64_t mIndependentlyDecodablePacket;
};
typedef struct AudioIndependentPacketTranslation AudioIndependentPacketTranslation;

struct AudioPacketDependencyInfoTranslation {
    int64_t mPacket;
    uint32_t mIsIndependentlyDecodable;
    uint32_t mNumberPrerollPackets;
};
typedef struct AudioPacketDependencyInfoTranslation AudioPacketDependencyInfoTranslation;

// Keys of kAudioFilePropertyInfoDictionary.
#define kAFInfoDictionary_Album                         "album"
#define kAFInfoDictionary_ApproximateDurationInSeconds  "approximate duration in seconds"
#define kAFInfoDictionary_Artist                        "artist"
#define kAFInfoDictionary_ChannelLayout                 "channel layout"
#define kAFInfoDictionary_Comments                      "comments"
#define kAFInfoDictionary_Composer                      "composer"
#define kAFInfoDictionary_Copyright                     "copyright"
#define kAFInfoDictionary_EncodingApplication           "encoding application"
#define kAFInfoDictionary_Genre                         "genre"
#define kAFInfoDictionary_ISRC                          "ISRC"
#define kAFInfoDictionary_KeySignature                  "key signature"
#define kAFInfoDictionary_Lyricist                      "lyricist"
#define kAFInfoDictionary_NominalBitRate                "nominal bit rate"
#define kAFInfoDictionary_RecordedDate                  "recorded date"
#define kAFInfoDictionary_SourceBitDepth                "source bit depth"
#define kAFInfoDictionary_SourceEncoder                 "source encoder"
#define kAFInfoDictionary_SubTitle                      "subtitle"
#define kAFInfoDictionary_Tempo                         "tempo"
#define kAFInfoDictionary_TimeSignature                 "time signature"
#define kAFInfoDictionary_Title                         "title"
#define kAFInfoDictionary_TrackNumber                   "track number"
#define kAFInfoDictionary_Year                          "year"

// Callbacks of AudioFileInitializeWithCallbacks / AudioFileOpenWithCallbacks.
typedef OSStatus (*AudioFile_ReadProc)(void *inClientData,
                                       int64_t inPosition,
                                       uint32_t requestCount,
                                       void *buffer,
                                       uint32_t *actualCount);
typedef OSStatus (*AudioFile_WriteProc)(void *inClientData,
                                        int64_t inPosition,
                                        uint32_t requestCount,
                                        const void *buffer,
                                        uint32_t *actualCount);
typedef int64_t (*AudioFile_GetSizeProc)(void *inClientData);
typedef OSStatus (*AudioFile_SetSizeProc)(void *inClientData,
                                          int64_t inSize);

// Audio file properties.
CF_ENUM(AudioFilePropertyID) {
    kAudioFilePropertyFileFormat                        = OCA_4CC('f','f','m','t'),
    kAudioFilePropertyDataFormat                        = OCA_4CC('d','f','m','t'),
    kAudioFilePropertyIsOptimized                       = OCA_4CC('o','p','t','m'),
    kAudioFilePropertyMagicCookieData                   = OCA_4CC('m','g','i','c'),
    kAudioFilePropertyAudioDataByteCount                = OCA_4CC('b','c','n','t'),
    kAudioFilePropertyAudioDataPacketCount              = OCA_4CC('p','c','n','t'),
    kAudioFilePropertyMaximumPacketSize                 = OCA_4CC('p','s','z','e'),
    kAudioFilePropertyDataOffset                        = OCA_4CC('d','o','f','f'),
    kAudioFilePropertyChannelLayout                     = OCA_4CC('c','m','a','p'),
    kAudioFilePropertyDeferSizeUpdates                  = OCA_4CC('d','s','z','u'),
    kAudioFilePropertyDataFormatName                    = OCA_4CC('f','n','m','e'),
    kAudioFilePropertyMarkerList                        = OCA_4CC('m','k','l','s'),
    kAudioFilePropertyRegionList                        = OCA_4CC('r','g','l','s'),
    kAudioFilePropertyPacketToFrame                     = OCA_4CC('p','k','f','r'),
    kAudioFilePropertyFrameToPacket                     = OCA_4CC('f','r','p','k'),
    kAudioFilePropertyRestrictsRandomAccess             = OCA_4CC('r','r','a','p'),
    kAudioFilePropertyPacketToRollDistance              = OCA_4CC('p','k','r','l'),
    kAudioFilePropertyPreviousIndependentPacket         = OCA_4CC('p','i','n','d'),
    kAudioFilePropertyNextIndependentPacket             = OCA_4CC('n','i','n','d'),
    kAudioFilePropertyPacketToDependencyInfo            = OCA_4CC('p','k','d','p'),
    kAudioFilePropertyPacketToByte                      = OCA_4CC('p','k','b','y'),
    kAudioFilePropertyByteToPacket                      = OCA_4CC('b','y','p','k'),
    kAudioFilePropertyChunkIDs                          = OCA_4CC('c','h','i','d'),
    kAudioFilePropertyInfoDictionary                    = OCA_4CC('i','n','f','o'),
    kAudioFilePropertyPacketTableInfo                   = OCA_4CC('p','n','f','o'),
    kAudioFilePropertyFormatList                        = OCA_4CC('f','l','s','t'),
    kAudioFilePropertyPacketSizeUpperBound              = OCA_4CC('p','k','u','b'),
    kAudioFilePropertyPacketRangeByteCountUpperBound    = OCA_4CC('p','r','u','b'),
    kAudioFilePropertyReserveDuration                   = OCA_4CC('r','s','r','v'),
    kAudioFilePropertyEstimatedDuration                 = OCA_4CC('e','d','u','r'),
    kAudioFilePropertyBitRate                           = OCA_4CC('b','r','a','t'),
    kAudioFilePropertyID3Tag                            = OCA_4CC('i','d','3','t'),
    kAudioFilePropertyID3TagOffset                      = OCA_4CC('i','d','3','o'),
    kAudioFilePropertySourceBitDepth                    = OCA_4CC('s','b','t','d'),
    kAudioFilePropertyAlbumArtwork                      = OCA_4CC('a','a','r','t'),
    kAudioFilePropertyAudioTrackCount                   = OCA_4CC('a','t','c','t'),
    kAudioFilePropertyUseAudioTrack                     = OCA_4CC('u','a','t','k')
};

// AudioFileGetGlobalInfo properties.
CF_ENUM(AudioFilePropertyID) {
    kAudioFileGlobalInfo_ReadableTypes                          = OCA_4CC('a','f','r','f'),
    kAudioFileGlobalInfo_WritableTypes                          = OCA_4CC('a','f','w','f'),
    kAudioFileGlobalInfo_FileTypeName                           = OCA_4CC('f','t','n','m'),
    kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat   = OCA_4CC('s','d','i','d'),
    kAudioFileGlobalInfo_AvailableFormatIDs                     = OCA_4CC('f','m','i','d'),
    kAudioFileGlobalInfo_AllExtensions                          = OCA_4CC('a','l','x','t'),
    kAudioFileGlobalInfo_AllHFSTypeCodes                        = OCA_4CC('a','h','f','s'),
    kAudioFileGlobalInfo_AllUTIs                                = OCA_4CC('a','u','t','i'),
    kAudioFileGlobalInfo_AllMIMETypes                           = OCA_4CC('a','m','i','m'),
    kAudioFileGlobalInfo_ExtensionsForType                      = OCA_4CC('f','e','x','t'),
    kAudioFileGlobalInfo_HFSTypeCodesForType                    = OCA_4CC('f','h','f','s'),
    kAudioFileGlobalInfo_UTIsForType                            = OCA_4CC('f','u','t','i'),
    kAudioFileGlobalInfo_MIMETypesForType                       = OCA_4CC('f','m','i','m'),
    kAudioFileGlobalInfo_TypesForMIMEType                       = OCA_4CC('t','m','i','m'),
    kAudioFileGlobalInfo_TypesForUTI                            = OCA_4CC('t','u','t','i'),
    kAudioFileGlobalInfo_TypesForHFSTypeCode                    = OCA_4CC('t','h','f','s'),
    kAudioFileGlobalInfo_TypesForExtension                      = OCA_4CC('t','e','x','t')
};

struct AudioFileTypeAndFormatID {
    AudioFileTypeID mFileType;
    uint32_t mFormatID;
};
typedef struct AudioFileTypeAndFormatID AudioFileTypeAndFormatID;

// MARK: CAF file format (CAFFile.h). On disk every field is big-endian and the structs are packed.

#define OCA_CAF_PACKED __attribute__((__packed__))

// CAF file header.
CF_ENUM(uint32_t) {
    kCAF_FileType               = OCA_4CC('c','a','f','f'),
    kCAF_FileVersion_Initial    = 1
};

// CAF chunk types.
CF_ENUM(uint32_t) {
    kCAF_StreamDescriptionChunkID   = OCA_4CC('d','e','s','c'),
    kCAF_AudioDataChunkID           = OCA_4CC('d','a','t','a'),
    kCAF_ChannelLayoutChunkID       = OCA_4CC('c','h','a','n'),
    kCAF_FillerChunkID              = OCA_4CC('f','r','e','e'),
    kCAF_MarkerChunkID              = OCA_4CC('m','a','r','k'),
    kCAF_RegionChunkID              = OCA_4CC('r','e','g','n'),
    kCAF_InstrumentChunkID          = OCA_4CC('i','n','s','t'),
    kCAF_MagicCookieID              = OCA_4CC('k','u','k','i'),
    kCAF_InfoStringsChunkID         = OCA_4CC('i','n','f','o'),
    kCAF_EditCommentsChunkID        = OCA_4CC('e','d','c','t'),
    kCAF_PacketTableChunkID         = OCA_4CC('p','a','k','t'),
    kCAF_StringsChunkID             = OCA_4CC('s','t','r','g'),
    kCAF_UUIDChunkID                = OCA_4CC('u','u','i','d'),
    kCAF_PeakChunkID                = OCA_4CC('p','e','a','k'),
    kCAF_OverviewChunkID            = OCA_4CC('o','v','v','w'),
    kCAF_MIDIChunkID                = OCA_4CC('m','i','d','i'),
    kCAF_UMIDChunkID                = OCA_4CC('u','m','i','d'),
    kCAF_FormatListID               = OCA_4CC('l','d','s','c'),
    kCAF_iXMLChunkID                = OCA_4CC('i','X','M','L')
};

struct CAFFileHeader {
    uint32_t mFileType;
    uint16_t mFileVersion;
    uint16_t mFileFlags;
} OCA_CAF_PACKED;
typedef struct CAFFileHeader CAFFileHeader;

struct CAFChunkHeader {
    uint32_t mChunkType;
    int64_t mChunkSize;
} OCA_CAF_PACKED;
typedef struct CAFChunkHeader CAFChunkHeader;

struct CAF_UUID_ChunkHeader {
    CAFChunkHeader mHeader;
    uint8_t mUUID[16];
} OCA_CAF_PACKED;
typedef struct CAF_UUID_ChunkHeader CAF_UUID_ChunkHeader;

// mFormatFlags of CAFAudioDescription when mFormatID is 'lpcm'.
typedef enum OCA_OPTIONS_ATTR CAFFormatFlags : uint32_t {
    kCAFLinearPCMFormatFlagIsFloat          = (1U << 0),
    kCAFLinearPCMFormatFlagIsLittleEndian   = (1U << 1)
} CAFFormatFlags;

struct CAFAudioDescription {
    double mSampleRate;
    uint32_t mFormatID;
    CAFFormatFlags mFormatFlags;
    uint32_t mBytesPerPacket;
    uint32_t mFramesPerPacket;
    uint32_t mChannelsPerFrame;
    uint32_t mBitsPerChannel;
} OCA_CAF_PACKED;
typedef struct CAFAudioDescription CAFAudioDescription;

// 'ldsc' entry (Apple declares no typedef for this one).
struct CAFAudioFormatListItem {
    CAFAudioDescription mFormat;
    uint32_t mChannelLayoutTag;
} OCA_CAF_PACKED;

struct CAFPacketTableHeader {
    int64_t mNumberPackets;
    int64_t mNumberValidFrames;
    int32_t mPrimingFrames;
    int32_t mRemainderFrames;
    uint8_t mPacketDescriptions[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFPacketTableHeader CAFPacketTableHeader;

struct CAFDataChunk {
    uint32_t mEditCount;
    uint8_t mData[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFDataChunk CAFDataChunk;

// CAF marker types.
CF_ENUM(uint32_t) {
    kCAFMarkerType_Generic                  = 0,
    kCAFMarkerType_ProgramStart             = OCA_4CC('p','b','e','g'),
    kCAFMarkerType_ProgramEnd               = OCA_4CC('p','e','n','d'),
    kCAFMarkerType_TrackStart               = OCA_4CC('t','b','e','g'),
    kCAFMarkerType_TrackEnd                 = OCA_4CC('t','e','n','d'),
    kCAFMarkerType_Index                    = OCA_4CC('i','n','d','x'),
    kCAFMarkerType_RegionStart              = OCA_4CC('r','b','e','g'),
    kCAFMarkerType_RegionEnd                = OCA_4CC('r','e','n','d'),
    kCAFMarkerType_RegionSyncPoint          = OCA_4CC('r','s','y','c'),
    kCAFMarkerType_SelectionStart           = OCA_4CC('s','b','e','g'),
    kCAFMarkerType_SelectionEnd             = OCA_4CC('s','e','n','d'),
    kCAFMarkerType_EditSourceBegin          = OCA_4CC('c','b','e','g'),
    kCAFMarkerType_EditSourceEnd            = OCA_4CC('c','e','n','d'),
    kCAFMarkerType_EditDestinationBegin     = OCA_4CC('d','b','e','g'),
    kCAFMarkerType_EditDestinationEnd       = OCA_4CC('d','e','n','d'),
    kCAFMarkerType_SustainLoopStart         = OCA_4CC('s','l','b','g'),
    kCAFMarkerType_SustainLoopEnd           = OCA_4CC('s','l','e','n'),
    kCAFMarkerType_ReleaseLoopStart         = OCA_4CC('r','l','b','g'),
    kCAFMarkerType_ReleaseLoopEnd           = OCA_4CC('r','l','e','n'),
    kCAFMarkerType_SavedPlayPosition        = OCA_4CC('s','p','l','y'),
    kCAFMarkerType_Tempo                    = OCA_4CC('t','m','p','o'),
    kCAFMarkerType_TimeSignature            = OCA_4CC('t','s','i','g'),
    kCAFMarkerType_KeySignature             = OCA_4CC('k','s','i','g')
};

// SMPTE time types (mSMPTE_TimeType of marker and region lists).
CF_ENUM(uint32_t) {
    kCAF_SMPTE_TimeTypeNone     = 0,
    kCAF_SMPTE_TimeType24       = 1,
    kCAF_SMPTE_TimeType25       = 2,
    kCAF_SMPTE_TimeType30Drop   = 3,
    kCAF_SMPTE_TimeType30       = 4,
    kCAF_SMPTE_TimeType2997     = 5,
    kCAF_SMPTE_TimeType2997Drop = 6,
    kCAF_SMPTE_TimeType60       = 7,
    kCAF_SMPTE_TimeType5994     = 8,
    kCAF_SMPTE_TimeType60Drop   = 9,
    kCAF_SMPTE_TimeType5994Drop = 10,
    kCAF_SMPTE_TimeType50       = 11,
    kCAF_SMPTE_TimeType2398     = 12
};

struct CAF_SMPTE_Time {
    int8_t mHours;
    int8_t mMinutes;
    int8_t mSeconds;
    int8_t mFrames;
    uint32_t mSubFrameSampleOffset;
} OCA_CAF_PACKED;
typedef struct CAF_SMPTE_Time CAF_SMPTE_Time;

struct CAFMarker {
    uint32_t mType;
    double mFramePosition;
    uint32_t mMarkerID;
    CAF_SMPTE_Time mSMPTETime;
    uint32_t mChannel;
} OCA_CAF_PACKED;
typedef struct CAFMarker CAFMarker;

struct CAFMarkerChunk {
    uint32_t mSMPTE_TimeType;
    uint32_t mNumberMarkers;
    CAFMarker mMarkers[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFMarkerChunk CAFMarkerChunk;

#define kCAFMarkerChunkHdrSize offsetof(CAFMarkerChunk, mMarkers)

typedef enum OCA_OPTIONS_ATTR CAFRegionFlags : uint32_t {
    kCAFRegionFlag_LoopEnable   = 1,
    kCAFRegionFlag_PlayForward  = 2,
    kCAFRegionFlag_PlayBackward = 4
} CAFRegionFlags;

struct CAFRegion {
    uint32_t mRegionID;
    CAFRegionFlags mFlags;
    uint32_t mNumberMarkers;
    CAFMarker mMarkers[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFRegion CAFRegion;

struct CAFRegionChunk {
    uint32_t mSMPTE_TimeType;
    uint32_t mNumberRegions;
    CAFRegion mRegions[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFRegionChunk CAFRegionChunk;

#define kCAFRegionChunkHdrSize offsetof(CAFRegionChunk, mRegions)

struct CAFInstrumentChunk {
    float mBaseNote;
    uint8_t mMIDILowNote;
    uint8_t mMIDIHighNote;
    uint8_t mMIDILowVelocity;
    uint8_t mMIDIHighVelocity;
    float mdBGain;
    uint32_t mStartRegionID;
    uint32_t mSustainRegionID;
    uint32_t mReleaseRegionID;
    uint32_t mInstrumentID;
} OCA_CAF_PACKED;
typedef struct CAFInstrumentChunk CAFInstrumentChunk;

// 'strg' chunk: the string IDs are followed by null-terminated UTF-8 strings.
struct CAFStringID {
    uint32_t mStringID;
    int64_t mStringStartByteOffset;
} OCA_CAF_PACKED;
typedef struct CAFStringID CAFStringID;

struct CAFStrings {
    uint32_t mNumEntries;
    CAFStringID mStringsIDs[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFStrings CAFStrings;

// 'info' chunk: mNumEntries is followed by key/value pairs of null-terminated UTF-8 strings.
struct CAFInfoStrings {
    uint32_t mNumEntries;
} OCA_CAF_PACKED;
typedef struct CAFInfoStrings CAFInfoStrings;

struct CAFPositionPeak {
    float mValue;
    uint64_t mFrameNumber;
} OCA_CAF_PACKED;
typedef struct CAFPositionPeak CAFPositionPeak;

struct CAFPeakChunk {
    uint32_t mEditCount;
    CAFPositionPeak mPeaks[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFPeakChunk CAFPeakChunk;

struct CAFOverviewSample {
    int16_t mMinValue;
    int16_t mMaxValue;
} OCA_CAF_PACKED;
typedef struct CAFOverviewSample CAFOverviewSample;

struct CAFOverviewChunk {
    uint32_t mEditCount;
    uint32_t mNumFramesPerOVWSample;
    CAFOverviewSample mData[1]; // variable length
} OCA_CAF_PACKED;
typedef struct CAFOverviewChunk CAFOverviewChunk;

struct CAFUMIDChunk {
    uint8_t mBytes[64];
} OCA_CAF_PACKED;
typedef struct CAFUMIDChunk CAFUMIDChunk;

#undef OCA_CAF_PACKED

// The keys of kAudioFilePropertyInfoDictionary.
#define kAFInfoDictionary_Artist                        "artist"
#define kAFInfoDictionary_Album                         "album"
#define kAFInfoDictionary_Tempo                         "tempo"
#define kAFInfoDictionary_KeySignature                  "key signature"
#define kAFInfoDictionary_TimeSignature                 "time signature"
#define kAFInfoDictionary_TrackNumber                   "track number"
#define kAFInfoDictionary_Year                          "year"
#define kAFInfoDictionary_Composer                      "composer"
#define kAFInfoDictionary_Lyricist                      "lyricist"
#define kAFInfoDictionary_Genre                         "genre"
#define kAFInfoDictionary_Title                         "title"
#define kAFInfoDictionary_RecordedDate                  "recorded date"
#define kAFInfoDictionary_Comments                      "comments"
#define kAFInfoDictionary_Copyright                     "copyright"
#define kAFInfoDictionary_SourceEncoder                 "source encoder"
#define kAFInfoDictionary_EncodingApplication           "encoding application"
#define kAFInfoDictionary_NominalBitRate                "nominal bit rate"
#define kAFInfoDictionary_ChannelLayout                 "channel layout"
#define kAFInfoDictionary_ApproximateDurationInSeconds  "approximate duration in seconds"
#define kAFInfoDictionary_SourceBitDepth                "source bit depth"
#define kAFInfoDictionary_ISRC                          "ISRC"
#define kAFInfoDictionary_SubTitle                      "subtitle"

CF_ASSUME_NONNULL_END

#endif
