// Apple's AudioHardwareBase.h (CoreAudio): the HAL's object model types and the selectors shared by
// every audio object, device and stream. Values are Apple's; the functions are in Swift (module CoreAudio).
#ifndef OCA_AUDIOHARDWAREBASE_H
#define OCA_AUDIOHARDWAREBASE_H

#include "CoreAudioBaseTypes.h"

CF_ASSUME_NONNULL_BEGIN

typedef uint32_t AudioObjectID;
typedef uint32_t AudioClassID;
typedef uint32_t AudioObjectPropertySelector;
typedef uint32_t AudioObjectPropertyScope;
typedef uint32_t AudioObjectPropertyElement;

struct AudioObjectPropertyAddress {
    AudioObjectPropertySelector mSelector;
    AudioObjectPropertyScope    mScope;
    AudioObjectPropertyElement  mElement;
};
typedef struct AudioObjectPropertyAddress AudioObjectPropertyAddress;

CF_ENUM(OSStatus) {
    kAudioHardwareNoError                   = 0,
    kAudioHardwareNotRunningError           = OCA_4CC('s','t','o','p'),
    kAudioHardwareUnspecifiedError          = OCA_4CC('w','h','a','t'),
    kAudioHardwareUnknownPropertyError      = OCA_4CC('w','h','o','?'),
    kAudioHardwareBadPropertySizeError      = OCA_4CC('!','s','i','z'),
    kAudioHardwareIllegalOperationError     = OCA_4CC('n','o','p','e'),
    kAudioHardwareBadObjectError            = OCA_4CC('!','o','b','j'),
    kAudioHardwareBadDeviceError            = OCA_4CC('!','d','e','v'),
    kAudioHardwareBadStreamError            = OCA_4CC('!','s','t','r'),
    kAudioHardwareUnsupportedOperationError = OCA_4CC('u','n','o','p'),
    kAudioHardwareNotReadyError             = OCA_4CC('n','r','d','y'),
    kAudioDeviceUnsupportedFormatError      = OCA_4CC('!','d','a','t'),
    kAudioDevicePermissionsError            = OCA_4CC('!','h','o','g')
};

CF_ENUM(AudioObjectID) {
    kAudioObjectUnknown = 0
};

CF_ENUM(AudioObjectPropertyScope) {
    kAudioObjectPropertyScopeGlobal         = OCA_4CC('g','l','o','b'),
    kAudioObjectPropertyScopeInput          = OCA_4CC('i','n','p','t'),
    kAudioObjectPropertyScopeOutput         = OCA_4CC('o','u','t','p'),
    kAudioObjectPropertyScopePlayThrough    = OCA_4CC('p','t','r','u')
};

CF_ENUM(AudioObjectPropertyElement) {
    kAudioObjectPropertyElementMain         = 0,
    kAudioObjectPropertyElementMaster       = 0
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertySelectorWildcard    = OCA_4CC('*','*','*','*')
};
CF_ENUM(AudioObjectPropertyScope) {
    kAudioObjectPropertyScopeWildcard       = OCA_4CC('*','*','*','*')
};
CF_ENUM(AudioObjectPropertyElement) {
    kAudioObjectPropertyElementWildcard     = 0xFFFFFFFF
};
CF_ENUM(AudioClassID) {
    kAudioObjectClassIDWildcard             = OCA_4CC('*','*','*','*')
};

CF_ENUM(AudioClassID) {
    kAudioObjectClassID                     = OCA_4CC('a','o','b','j'),
    kAudioDeviceClassID                     = OCA_4CC('a','d','e','v'),
    kAudioStreamClassID                     = OCA_4CC('a','s','t','r')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertyBaseClass           = OCA_4CC('b','c','l','s'),
    kAudioObjectPropertyClass               = OCA_4CC('c','l','a','s'),
    kAudioObjectPropertyOwner               = OCA_4CC('s','t','d','v'),
    kAudioObjectPropertyName                = OCA_4CC('l','n','a','m'),
    kAudioObjectPropertyModelName           = OCA_4CC('l','m','o','d'),
    kAudioObjectPropertyManufacturer        = OCA_4CC('l','m','a','k'),
    kAudioObjectPropertyElementName         = OCA_4CC('l','c','h','n'),
    kAudioObjectPropertyElementCategoryName = OCA_4CC('l','c','c','n'),
    kAudioObjectPropertyElementNumberName   = OCA_4CC('l','c','n','n'),
    kAudioObjectPropertyOwnedObjects        = OCA_4CC('o','w','n','d'),
    kAudioObjectPropertyIdentify            = OCA_4CC('i','d','e','n'),
    kAudioObjectPropertySerialNumber        = OCA_4CC('s','n','u','m'),
    kAudioObjectPropertyFirmwareVersion     = OCA_4CC('f','w','v','n')
};

CF_ENUM(uint32_t) {
    kAudioDeviceTransportTypeUnknown        = 0,
    kAudioDeviceTransportTypeBuiltIn        = OCA_4CC('b','l','t','n'),
    kAudioDeviceTransportTypeAggregate      = OCA_4CC('g','r','u','p'),
    kAudioDeviceTransportTypeVirtual        = OCA_4CC('v','i','r','t'),
    kAudioDeviceTransportTypePCI            = OCA_4CC('p','c','i',' '),
    kAudioDeviceTransportTypeUSB            = OCA_4CC('u','s','b',' '),
    kAudioDeviceTransportTypeBluetooth      = OCA_4CC('b','l','u','e'),
    kAudioDeviceTransportTypeHDMI           = OCA_4CC('h','d','m','i')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyConfigurationApplication        = OCA_4CC('c','a','p','p'),
    kAudioDevicePropertyDeviceUID                       = OCA_4CC('u','i','d',' '),
    kAudioDevicePropertyModelUID                        = OCA_4CC('m','u','i','d'),
    kAudioDevicePropertyTransportType                   = OCA_4CC('t','r','a','n'),
    kAudioDevicePropertyRelatedDevices                  = OCA_4CC('a','k','i','n'),
    kAudioDevicePropertyClockDomain                     = OCA_4CC('c','l','k','d'),
    kAudioDevicePropertyDeviceIsAlive                   = OCA_4CC('l','i','v','n'),
    kAudioDevicePropertyDeviceIsRunning                 = OCA_4CC('g','o','i','n'),
    kAudioDevicePropertyDeviceCanBeDefaultDevice        = OCA_4CC('d','f','l','t'),
    kAudioDevicePropertyDeviceCanBeDefaultSystemDevice  = OCA_4CC('s','f','l','t'),
    kAudioDevicePropertyLatency                         = OCA_4CC('l','t','n','c'),
    kAudioDevicePropertyStreams                         = OCA_4CC('s','t','m','#'),
    kAudioObjectPropertyControlList                     = OCA_4CC('c','t','r','l'),
    kAudioDevicePropertySafetyOffset                    = OCA_4CC('s','a','f','t'),
    kAudioDevicePropertyNominalSampleRate               = OCA_4CC('n','s','r','t'),
    kAudioDevicePropertyAvailableNominalSampleRates     = OCA_4CC('n','s','r','#'),
    kAudioDevicePropertyIcon                            = OCA_4CC('i','c','o','n'),
    kAudioDevicePropertyIsHidden                        = OCA_4CC('h','i','d','n'),
    kAudioDevicePropertyPreferredChannelsForStereo      = OCA_4CC('d','c','h','2'),
    kAudioDevicePropertyPreferredChannelLayout          = OCA_4CC('s','r','n','d')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioStreamPropertyIsActive                    = OCA_4CC('s','a','c','t'),
    kAudioStreamPropertyDirection                   = OCA_4CC('s','d','i','r'),
    kAudioStreamPropertyTerminalType                = OCA_4CC('t','e','r','m'),
    kAudioStreamPropertyStartingChannel             = OCA_4CC('s','c','h','n'),
    kAudioStreamPropertyLatency                     = kAudioDevicePropertyLatency,
    kAudioStreamPropertyVirtualFormat               = OCA_4CC('s','f','m','t'),
    kAudioStreamPropertyAvailableVirtualFormats     = OCA_4CC('s','f','m','a'),
    kAudioStreamPropertyPhysicalFormat              = OCA_4CC('p','f','t',' '),
    kAudioStreamPropertyAvailablePhysicalFormats    = OCA_4CC('p','f','t','a')
};

struct AudioStreamRangedDescription {
    AudioStreamBasicDescription mFormat;
    AudioValueRange             mSampleRateRange;
};
typedef struct AudioStreamRangedDescription AudioStreamRangedDescription;

CF_ASSUME_NONNULL_END

#endif
