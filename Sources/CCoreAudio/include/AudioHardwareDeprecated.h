// Apple's AudioHardwareDeprecated.h (CoreAudio, macOS): the pre-AudioObject property API's types and names.
// Values are Apple's; the functions are in Swift (module CoreAudio, AudioHardwareDeprecated.swift), thin
// forwarders to the AudioObject API. The device names already in AudioHardware.h are not repeated here.
#ifndef OCA_AUDIOHARDWAREDEPRECATED_H
#define OCA_AUDIOHARDWAREDEPRECATED_H

#include <stdbool.h>
#include "AudioHardware.h"

CF_ASSUME_NONNULL_BEGIN

CF_ENUM(AudioObjectPropertySelector) {
    kAudioPropertyWildcardPropertyID        = kAudioObjectPropertySelectorWildcard
};
CF_ENUM(unsigned char) {
    kAudioPropertyWildcardSection           = 0xFF
};
CF_ENUM(AudioObjectPropertyElement) {
    kAudioPropertyWildcardChannel           = kAudioObjectPropertyElementWildcard
};

CF_ENUM(AudioClassID) {
    kAudioISubOwnerControlClassID           = OCA_4CC('a','t','c','h'),
    kAudioBootChimeVolumeControlClassID     = OCA_4CC('p','r','a','m')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioLevelControlPropertyDecibelsToScalarTransferFunction = OCA_4CC('l','c','t','f'),
    kAudioControlPropertyVariant                               = OCA_4CC('c','v','a','r'),
    kAudioClockSourceControlPropertyItemKind                   = OCA_4CC('c','l','k','k')
};

typedef enum OCA_ENUM_ATTR AudioLevelControlTransferFunction : uint32_t {
    kAudioLevelControlTranferFunctionLinear     = 0,
    kAudioLevelControlTranferFunction1Over3     = 1,
    kAudioLevelControlTranferFunction1Over2     = 2,
    kAudioLevelControlTranferFunction3Over4     = 3,
    kAudioLevelControlTranferFunction3Over2     = 4,
    kAudioLevelControlTranferFunction2Over1     = 5,
    kAudioLevelControlTranferFunction3Over1     = 6,
    kAudioLevelControlTranferFunction4Over1     = 7,
    kAudioLevelControlTranferFunction5Over1     = 8,
    kAudioLevelControlTranferFunction6Over1     = 9,
    kAudioLevelControlTranferFunction7Over1     = 10,
    kAudioLevelControlTranferFunction8Over1     = 11,
    kAudioLevelControlTranferFunction9Over1     = 12,
    kAudioLevelControlTranferFunction10Over1    = 13,
    kAudioLevelControlTranferFunction11Over1    = 14,
    kAudioLevelControlTranferFunction12Over1    = 15
} AudioLevelControlTransferFunction;

// The system object.
typedef AudioObjectPropertySelector AudioHardwarePropertyID;
typedef OSStatus (*AudioHardwarePropertyListenerProc)(AudioHardwarePropertyID inPropertyID, void * _Nullable inClientData);

#define kAudioHardwareRunLoopMode "com.apple.audio.CoreAudio"

CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyRunLoop                                           = OCA_4CC('r','n','l','p'),
    kAudioHardwarePropertyDeviceForUID                                      = OCA_4CC('d','u','i','d'),
    kAudioHardwarePropertyPlugInForBundleID                                 = OCA_4CC('p','i','b','i'),
    kAudioHardwarePropertyProcessIsMaster                                   = OCA_4CC('m','a','s','t'),
    kAudioHardwarePropertyBootChimeVolumeScalar                             = OCA_4CC('b','b','v','s'),
    kAudioHardwarePropertyBootChimeVolumeDecibels                           = OCA_4CC('b','b','v','d'),
    kAudioHardwarePropertyBootChimeVolumeRangeDecibels                      = OCA_4CC('b','b','d','#'),
    kAudioHardwarePropertyBootChimeVolumeScalarToDecibels                   = OCA_4CC('b','v','2','d'),
    kAudioHardwarePropertyBootChimeVolumeDecibelsToScalar                   = OCA_4CC('b','d','2','v'),
    kAudioHardwarePropertyBootChimeVolumeDecibelsToScalarTransferFunction   = OCA_4CC('b','v','t','f')
};

// Devices.
typedef AudioObjectPropertySelector AudioDevicePropertyID;
// isInput is Apple's Boolean: in a callback type Swift sees it as DarwinBoolean (a direct function parameter as Bool).
typedef OSStatus (*AudioDevicePropertyListenerProc)(AudioDeviceID inDevice, uint32_t inChannel, DarwinBoolean isInput,
                                                     AudioDevicePropertyID inPropertyID, void * _Nullable inClientData);

CF_ENUM(AudioObjectID) {
    kAudioDeviceUnknown                     = kAudioObjectUnknown
};
CF_ENUM(uint32_t) {
    kAudioDeviceTransportTypeAutoAggregate  = OCA_4CC('f','g','r','p')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyVolumeDecibelsToScalarTransferFunction          = OCA_4CC('v','c','t','f'),
    kAudioDevicePropertyPlayThruVolumeDecibelsToScalarTransferFunction  = OCA_4CC('m','v','t','f'),
    kAudioDevicePropertyDriverShouldOwniSub                             = OCA_4CC('i','s','u','b'),
    kAudioDevicePropertySubVolumeDecibelsToScalarTransferFunction       = OCA_4CC('s','v','t','f')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyRegisterBufferList                  = OCA_4CC('r','b','u','f'),
    kAudioDevicePropertyBufferSize                          = OCA_4CC('b','s','i','z'),
    kAudioDevicePropertyBufferSizeRange                     = OCA_4CC('b','s','z','#'),
    kAudioDevicePropertyChannelName                         = OCA_4CC('c','h','n','m'),
    kAudioDevicePropertyChannelNameCFString                 = kAudioObjectPropertyElementName,
    kAudioDevicePropertyChannelCategoryName                 = OCA_4CC('c','c','n','m'),
    kAudioDevicePropertyChannelCategoryNameCFString         = kAudioObjectPropertyElementCategoryName,
    kAudioDevicePropertyChannelNumberName                   = OCA_4CC('c','n','n','m'),
    kAudioDevicePropertyChannelNumberNameCFString           = kAudioObjectPropertyElementNumberName,
    kAudioDevicePropertySupportsMixing                      = OCA_4CC('m','i','x','?'),
    kAudioDevicePropertyStreamFormat                        = OCA_4CC('s','f','m','t'),
    kAudioDevicePropertyStreamFormats                       = OCA_4CC('s','f','m','#'),
    kAudioDevicePropertyStreamFormatSupported               = OCA_4CC('s','f','m','?'),
    kAudioDevicePropertyStreamFormatMatch                   = OCA_4CC('s','f','m','m'),
    kAudioDevicePropertyDataSourceNameForID                 = OCA_4CC('s','s','c','n'),
    kAudioDevicePropertyClockSourceNameForID                = OCA_4CC('c','s','c','n'),
    kAudioDevicePropertyPlayThruDestinationNameForID        = OCA_4CC('m','d','d','n'),
    kAudioDevicePropertyChannelNominalLineLevelNameForID    = OCA_4CC('c','n','l','v'),
    kAudioDevicePropertyHighPassFilterSettingNameForID      = OCA_4CC('c','h','i','p')
};

// Aggregate devices.
#define kAudioAggregateDeviceMasterSubDeviceKey "master"
CF_ENUM(AudioObjectPropertySelector) {
    kAudioAggregateDevicePropertyMasterSubDevice            = OCA_4CC('a','m','s','t')
};

// Streams.
typedef OSStatus (*AudioStreamPropertyListenerProc)(AudioStreamID inStream, uint32_t inChannel,
                                                     AudioDevicePropertyID inPropertyID, void * _Nullable inClientData);

CF_ENUM(AudioObjectID) {
    kAudioStreamUnknown = kAudioObjectUnknown
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioStreamPropertyOwningDevice                = kAudioObjectPropertyOwner,
    kAudioStreamPropertyPhysicalFormats             = OCA_4CC('p','f','t','#'),
    kAudioStreamPropertyPhysicalFormatSupported     = OCA_4CC('p','f','t','?'),
    kAudioStreamPropertyPhysicalFormatMatch         = OCA_4CC('p','f','t','m')
};

#define kAudioHardwareRunLoopMode                   "com.apple.audio.CoreAudio"
#define kAudioAggregateDeviceMasterSubDeviceKey     kAudioAggregateDeviceMainSubDeviceKey

CF_ASSUME_NONNULL_END

#endif
