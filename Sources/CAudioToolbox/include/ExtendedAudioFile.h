// Extended Audio File Services (ExtendedAudioFile.h): the file handle, property IDs, packet-table
// override values and errors.
#ifndef OCA_EXTENDEDAUDIOFILE_H
#define OCA_EXTENDEDAUDIOFILE_H

#include "AudioFile.h"

CF_ASSUME_NONNULL_BEGIN

typedef struct OpaqueExtAudioFile *ExtAudioFileRef;

typedef int32_t ExtAudioFilePacketTableInfoOverride;

// Special values for AudioFilePacketTableInfo fields set through kExtAudioFileProperty_PacketTable.
CF_ENUM(ExtAudioFilePacketTableInfoOverride) {
    kExtAudioFilePacketTableInfoOverride_UseFileValue           = -1,
    kExtAudioFilePacketTableInfoOverride_UseFileValueIfValid    = -2
};

typedef uint32_t ExtAudioFilePropertyID;

// Extended audio file properties.
CF_ENUM(ExtAudioFilePropertyID) {
    kExtAudioFileProperty_FileDataFormat        = OCA_4CC('f','f','m','t'),
    kExtAudioFileProperty_FileChannelLayout     = OCA_4CC('f','c','l','o'),
    kExtAudioFileProperty_ClientDataFormat      = OCA_4CC('c','f','m','t'),
    kExtAudioFileProperty_ClientChannelLayout   = OCA_4CC('c','c','l','o'),
    kExtAudioFileProperty_CodecManufacturer     = OCA_4CC('c','m','a','n'),
    kExtAudioFileProperty_AudioConverter        = OCA_4CC('a','c','n','v'),
    kExtAudioFileProperty_AudioFile             = OCA_4CC('a','f','i','l'),
    kExtAudioFileProperty_FileMaxPacketSize     = OCA_4CC('f','m','p','s'),
    kExtAudioFileProperty_ClientMaxPacketSize   = OCA_4CC('c','m','p','s'),
    kExtAudioFileProperty_FileLengthFrames      = OCA_4CC('#','f','r','m'),
    kExtAudioFileProperty_ConverterConfig       = OCA_4CC('a','c','c','f'),
    kExtAudioFileProperty_IOBufferSizeBytes     = OCA_4CC('i','o','b','s'),
    kExtAudioFileProperty_IOBuffer              = OCA_4CC('i','o','b','f'),
    kExtAudioFileProperty_PacketTable           = OCA_4CC('x','p','t','i')
};

// Errors returned by the ExtAudioFile API.
CF_ENUM(OSStatus) {
    kExtAudioFileError_InvalidProperty          = -66561,
    kExtAudioFileError_InvalidPropertySize      = -66562,
    kExtAudioFileError_NonPCMClientFormat       = -66563,
    kExtAudioFileError_InvalidChannelMap        = -66564,
    kExtAudioFileError_InvalidOperationOrder    = -66565,
    kExtAudioFileError_InvalidDataFormat        = -66566,
    kExtAudioFileError_MaxPacketSizeUnknown     = -66567,
    kExtAudioFileError_InvalidSeek              = -66568,
    kExtAudioFileError_AsyncWriteTooLarge       = -66569,
    kExtAudioFileError_AsyncWriteBufferOverflow = -66570
};

// Apple declares these two for iOS only (TARGET_OS_IPHONE).
CF_ENUM(OSStatus) {
    kExtAudioFileError_CodecUnavailableInputConsumed    = -66559,
    kExtAudioFileError_CodecUnavailableInputNotConsumed = -66560,
};

CF_ASSUME_NONNULL_END

#endif
