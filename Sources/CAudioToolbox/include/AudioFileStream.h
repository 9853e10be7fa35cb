// Audio File Stream Services (AudioFileStream.h): the parser handle, flags, callback types, errors
// and property IDs.
#ifndef OCA_AUDIOFILESTREAM_H
#define OCA_AUDIOFILESTREAM_H

#include "AudioFile.h"

CF_ASSUME_NONNULL_BEGIN

// Flags of the property listener, AudioFileStreamParseBytes and AudioFileStreamSeek.
typedef enum OCA_OPTIONS_ATTR AudioFileStreamPropertyFlags : uint32_t {
    kAudioFileStreamPropertyFlag_PropertyIsCached   = 1,
    kAudioFileStreamPropertyFlag_CacheProperty      = 2
} AudioFileStreamPropertyFlags;

typedef enum OCA_OPTIONS_ATTR AudioFileStreamParseFlags : uint32_t {
    kAudioFileStreamParseFlag_Discontinuity = 1
} AudioFileStreamParseFlags;

typedef enum OCA_OPTIONS_ATTR AudioFileStreamSeekFlags : uint32_t {
    kAudioFileStreamSeekFlag_OffsetIsEstimated = 1
} AudioFileStreamSeekFlags;

typedef uint32_t AudioFileStreamPropertyID;
typedef struct OpaqueAudioFileStreamID *AudioFileStreamID;

// Callbacks of AudioFileStreamOpen.
typedef void (*AudioFileStream_PropertyListenerProc)(void *inClientData,
                                                     AudioFileStreamID inAudioFileStream,
                                                     AudioFileStreamPropertyID inPropertyID,
                                                     AudioFileStreamPropertyFlags *ioFlags);
typedef void (*AudioFileStream_PacketsProc)(void *inClientData,
                                            uint32_t inNumberBytes,
                                            uint32_t inNumberPackets,
                                            const void *inInputData,
                                            AudioStreamPacketDescription * _Nullable inPacketDescriptions);

// Errors returned by the AudioFileStream API.
CF_ENUM(OSStatus) {
    kAudioFileStreamError_UnsupportedFileType       = OCA_4CC('t','y','p','?'),
    kAudioFileStreamError_UnsupportedDataFormat     = OCA_4CC('f','m','t','?'),
    kAudioFileStreamError_UnsupportedProperty       = OCA_4CC('p','t','y','?'),
    kAudioFileStreamError_BadPropertySize           = OCA_4CC('!','s','i','z'),
    kAudioFileStreamError_NotOptimized              = OCA_4CC('o','p','t','m'),
    kAudioFileStreamError_InvalidPacketOffset       = OCA_4CC('p','c','k','?'),
    kAudioFileStreamError_InvalidFile               = OCA_4CC('d','t','a','?'),
    kAudioFileStreamError_ValueUnknown              = OCA_4CC('u','n','k','?'),
    kAudioFileStreamError_DataUnavailable           = OCA_4CC('m','o','r','e'),
    kAudioFileStreamError_IllegalOperation          = OCA_4CC('n','o','p','e'),
    kAudioFileStreamError_UnspecifiedError          = OCA_4CC('w','h','t','?'),
    kAudioFileStreamError_DiscontinuityCantRecover  = OCA_4CC('d','s','c','!')
};

// Audio file stream properties.
CF_ENUM(AudioFileStreamPropertyID) {
    kAudioFileStreamProperty_ReadyToProducePackets      = OCA_4CC('r','e','d','y'),
    kAudioFileStreamProperty_FileFormat                 = OCA_4CC('f','f','m','t'),
    kAudioFileStreamProperty_DataFormat                 = OCA_4CC('d','f','m','t'),
    kAudioFileStreamProperty_FormatList                 = OCA_4CC('f','l','s','t'),
    kAudioFileStreamProperty_MagicCookieData            = OCA_4CC('m','g','i','c'),
    kAudioFileStreamProperty_AudioDataByteCount         = OCA_4CC('b','c','n','t'),
    kAudioFileStreamProperty_AudioDataPacketCount       = OCA_4CC('p','c','n','t'),
    kAudioFileStreamProperty_MaximumPacketSize          = OCA_4CC('p','s','z','e'),
    kAudioFileStreamProperty_DataOffset                 = OCA_4CC('d','o','f','f'),
    kAudioFileStreamProperty_ChannelLayout              = OCA_4CC('c','m','a','p'),
    kAudioFileStreamProperty_PacketToFrame              = OCA_4CC('p','k','f','r'),
    kAudioFileStreamProperty_FrameToPacket              = OCA_4CC('f','r','p','k'),
    kAudioFileStreamProperty_RestrictsRandomAccess      = OCA_4CC('r','r','a','p'),
    kAudioFileStreamProperty_PacketToRollDistance       = OCA_4CC('p','k','r','l'),
    kAudioFileStreamProperty_PreviousIndependentPacket  = OCA_4CC('p','i','n','d'),
    kAudioFileStreamProperty_NextIndependentPacket      = OCA_4CC('n','i','n','d'),
    kAudioFileStreamProperty_PacketToDependencyInfo     = OCA_4CC('p','k','d','p'),
    kAudioFileStreamProperty_PacketToByte               = OCA_4CC('p','k','b','y'),
    kAudioFileStreamProperty_ByteToPacket               = OCA_4CC('b','y','p','k'),
    kAudioFileStreamProperty_PacketTableInfo            = OCA_4CC('p','n','f','o'),
    kAudioFileStreamProperty_PacketSizeUpperBound       = OCA_4CC('p','k','u','b'),
    kAudioFileStreamProperty_AverageBytesPerPacket      = OCA_4CC('a','b','p','p'),
    kAudioFileStreamProperty_BitRate                    = OCA_4CC('b','r','a','t'),
    kAudioFileStreamProperty_InfoDictionary             = OCA_4CC('i','n','f','o')
};

CF_ASSUME_NONNULL_END

#endif
