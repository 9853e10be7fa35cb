// AudioFileComponent.h: the property IDs and selectors of audio file components (the plug-ins that add file
// types to Audio File Services). Declared so that code naming them builds; our file types are built in, and
// no component of this kind can be registered (AudioFileComponent* functions are not provided).
#ifndef OCA_AUDIOFILECOMPONENT_H
#define OCA_AUDIOFILECOMPONENT_H

#include "AudioFile.h"

CF_ASSUME_NONNULL_BEGIN

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

CF_ASSUME_NONNULL_END

#endif
