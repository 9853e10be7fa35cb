// AudioFileComponent.h: audio file components ('afil', the plug-ins that add file types to Audio File Services):
// their types, property IDs, selectors and the deprecated fast-dispatch types. Every built-in file type is an
// 'afil' component; the AudioFileComponent* calls are Swift (AudioFileComponent+API.swift).
#ifndef OCA_AUDIOFILECOMPONENT_H
#define OCA_AUDIOFILECOMPONENT_H

#include "AudioFile.h"
#include "AudioComponent.h"
#include <stdbool.h>

CF_ASSUME_NONNULL_BEGIN

typedef AudioComponentInstance AudioFileComponent;
typedef uint32_t AudioFileComponentPropertyID;

CF_ENUM(AudioFilePropertyID) {
    kAudioFileComponent_CanRead                              = OCA_4CC('c','n','r','d'),
    kAudioFileComponent_CanWrite                             = OCA_4CC('c','n','w','r'),
    kAudioFileComponent_FileTypeName                         = OCA_4CC('f','t','n','m'),
    kAudioFileComponent_ExtensionsForType                    = OCA_4CC('f','e','x','t'),
    kAudioFileComponent_UTIsForType                          = OCA_4CC('f','u','t','i'),
    kAudioFileComponent_MIMETypesForType                     = OCA_4CC('f','m','i','m'),
    kAudioFileComponent_AvailableFormatIDs                   = OCA_4CC('f','m','i','d'),
    kAudioFileComponent_AvailableStreamDescriptionsForFormat = OCA_4CC('s','d','i','d'),
    kAudioFileComponent_FastDispatchTable                    = OCA_4CC('f','d','f','t'),
    kAudioFileComponent_HFSTypeCodesForType                  = OCA_4CC('f','h','f','s')
};

enum {
    kAudioFileCreateSelect                  = 1,
    kAudioFileOpenSelect                    = 2,
    kAudioFileInitializeSelect              = 3,
    kAudioFileOpenWithCallbacksSelect       = 4,
    kAudioFileInitializeWithCallbacksSelect = 5,
    kAudioFileCloseSelect                   = 6,
    kAudioFileOptimizeSelect                = 7,
    kAudioFileReadBytesSelect               = 8,
    kAudioFileWriteBytesSelect              = 9,
    kAudioFileReadPacketsSelect             = 10,
    kAudioFileWritePacketsSelect            = 11,
    kAudioFileGetPropertyInfoSelect         = 12,
    kAudioFileGetPropertySelect             = 13,
    kAudioFileSetPropertySelect             = 14,
    kAudioFileExtensionIsThisFormatSelect   = 15,
    kAudioFileFileIsThisFormatSelect        = 16,
    kAudioFileDataIsThisFormatSelect        = 17,
    kAudioFileGetGlobalInfoSizeSelect       = 18,
    kAudioFileGetGlobalInfoSelect           = 19,
    kAudioFileCountUserDataSelect           = 20,
    kAudioFileGetUserDataSizeSelect         = 21,
    kAudioFileGetUserDataSelect             = 22,
    kAudioFileSetUserDataSelect             = 23,
    kAudioFileRemoveUserDataSelect          = 24,
    kAudioFileCreateURLSelect               = 25,
    kAudioFileOpenURLSelect                 = 26,
    kAudioFileFileDataIsThisFormatSelect    = 27,
    kAudioFileReadPacketDataSelect          = 28,
    kAudioFileGetUserDataSize64Select       = 29,
    kAudioFileGetUserDataAtOffsetSelect     = 30
};

// Fast-dispatch function types and tables: deprecated, never called by Audio File Services (Apple's nor ours).
// Boolean is DarwinBoolean in these callback types, as at Apple (the AudioFile calls themselves take Bool).
typedef OSStatus (*ReadBytesFDF)(void *inComponentStorage, DarwinBoolean inUseCache, int64_t inStartingByte,
                                 uint32_t *ioNumBytes, void *outBuffer);
typedef OSStatus (*WriteBytesFDF)(void *inComponentStorage, DarwinBoolean inUseCache, int64_t inStartingByte,
                                  uint32_t *ioNumBytes, const void *inBuffer);
typedef OSStatus (*ReadPacketsFDF)(void *inComponentStorage, DarwinBoolean inUseCache, uint32_t *outNumBytes,
                                   AudioStreamPacketDescription * _Nullable outPacketDescriptions,
                                   int64_t inStartingPacket, uint32_t *ioNumPackets, void *outBuffer);
typedef OSStatus (*ReadPacketDataFDF)(void *inComponentStorage, DarwinBoolean inUseCache, uint32_t *ioNumBytes,
                                      AudioStreamPacketDescription * _Nullable outPacketDescriptions,
                                      int64_t inStartingPacket, uint32_t *ioNumPackets, void *outBuffer);
typedef OSStatus (*WritePacketsFDF)(void *inComponentStorage, DarwinBoolean inUseCache, uint32_t inNumBytes,
                                    const AudioStreamPacketDescription * _Nullable inPacketDescriptions,
                                    int64_t inStartingPacket, uint32_t *ioNumPackets, const void *inBuffer);
typedef OSStatus (*GetPropertyInfoFDF)(void *inComponentStorage, AudioFilePropertyID inPropertyID,
                                       uint32_t * _Nullable outDataSize, uint32_t * _Nullable isWritable);
typedef OSStatus (*GetPropertyFDF)(void *inComponentStorage, AudioFilePropertyID inPropertyID,
                                   uint32_t *ioDataSize, void *ioPropertyData);
typedef OSStatus (*SetPropertyFDF)(void *inComponentStorage, AudioFilePropertyID inPropertyID,
                                   uint32_t inDataSize, const void *inPropertyData);
typedef OSStatus (*CountUserDataFDF)(void *inComponentStorage, uint32_t inUserDataID, uint32_t *outNumberItems);
typedef OSStatus (*GetUserDataSizeFDF)(void *inComponentStorage, uint32_t inUserDataID, uint32_t inIndex, uint32_t *outDataSize);
typedef OSStatus (*GetUserDataFDF)(void *inComponentStorage, uint32_t inUserDataID, uint32_t inIndex,
                                   uint32_t *ioUserDataSize, void *outUserData);
typedef OSStatus (*SetUserDataFDF)(void *inComponentStorage, uint32_t inUserDataID, uint32_t inIndex,
                                   uint32_t inUserDataSize, const void *inUserData);

typedef struct AudioFileFDFTable {
    void               *mComponentStorage;
    ReadBytesFDF        mReadBytesFDF;
    WriteBytesFDF       mWriteBytesFDF;
    ReadPacketsFDF      mReadPacketsFDF;
    WritePacketsFDF     mWritePacketsFDF;
    GetPropertyInfoFDF  mGetPropertyInfoFDF;
    GetPropertyFDF      mGetPropertyFDF;
    SetPropertyFDF      mSetPropertyFDF;
    CountUserDataFDF    mCountUserDataFDF;
    GetUserDataSizeFDF  mGetUserDataSizeFDF;
    GetUserDataFDF      mGetUserDataFDF;
    SetUserDataFDF      mSetUserDataFDF;
} AudioFileFDFTable;

typedef struct AudioFileFDFTableExtended {
    void               *mComponentStorage;
    ReadBytesFDF        mReadBytesFDF;
    WriteBytesFDF       mWriteBytesFDF;
    ReadPacketsFDF      mReadPacketsFDF;
    WritePacketsFDF     mWritePacketsFDF;
    GetPropertyInfoFDF  mGetPropertyInfoFDF;
    GetPropertyFDF      mGetPropertyFDF;
    SetPropertyFDF      mSetPropertyFDF;
    CountUserDataFDF    mCountUserDataFDF;
    GetUserDataSizeFDF  mGetUserDataSizeFDF;
    GetUserDataFDF      mGetUserDataFDF;
    SetUserDataFDF      mSetUserDataFDF;
    ReadPacketDataFDF   mReadPacketDataFDF;
} AudioFileFDFTableExtended;

CF_ASSUME_NONNULL_END

#endif
