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

// The rest of AudioHardwareBase.h: object classes (boxes, clock devices, controls), their properties, transport and
// terminal types. Declared with Apple's values; objects of classes this HAL does not make are never found, and
// properties it does not implement answer kAudioHardwareUnknownPropertyError, as on a Mac without that hardware.
CF_ENUM(AudioClassID) {
    kAudioPlugInClassID = OCA_4CC('a','p','l','g')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioPlugInPropertyBundleID                  = OCA_4CC('p','i','i','d'),
    kAudioPlugInPropertyDeviceList                = OCA_4CC('d','e','v','#'),
    kAudioPlugInPropertyTranslateUIDToDevice      = OCA_4CC('u','i','d','d'),
    kAudioPlugInPropertyBoxList                   = OCA_4CC('b','o','x','#'),
    kAudioPlugInPropertyTranslateUIDToBox         = OCA_4CC('u','i','d','b'),
    kAudioPlugInPropertyClockDeviceList           = OCA_4CC('c','l','k','#'),
    kAudioPlugInPropertyTranslateUIDToClockDevice = OCA_4CC('u','i','d','c')
};

CF_ENUM(AudioClassID) {
    kAudioTransportManagerClassID = OCA_4CC('t','r','p','m')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioTransportManagerPropertyEndPointList           = OCA_4CC('e','n','d','#'),
    kAudioTransportManagerPropertyTranslateUIDToEndPoint = OCA_4CC('u','i','d','e'),
    kAudioTransportManagerPropertyTransportType          = OCA_4CC('t','r','a','n')
};

CF_ENUM(AudioClassID) {
    kAudioBoxClassID = OCA_4CC('a','b','o','x')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioBoxPropertyBoxUID            = OCA_4CC('b','u','i','d'),
    kAudioBoxPropertyTransportType     = OCA_4CC('t','r','a','n'),
    kAudioBoxPropertyHasAudio          = OCA_4CC('b','h','a','u'),
    kAudioBoxPropertyHasVideo          = OCA_4CC('b','h','v','i'),
    kAudioBoxPropertyHasMIDI           = OCA_4CC('b','h','m','i'),
    kAudioBoxPropertyIsProtected       = OCA_4CC('b','p','r','o'),
    kAudioBoxPropertyAcquired          = OCA_4CC('b','x','o','n'),
    kAudioBoxPropertyAcquisitionFailed = OCA_4CC('b','x','o','f'),
    kAudioBoxPropertyDeviceList        = OCA_4CC('b','d','v','#'),
    kAudioBoxPropertyClockDeviceList   = OCA_4CC('b','c','l','#')
};

CF_ENUM(uint32_t) {
    kAudioDeviceTransportTypeFireWire                  = OCA_4CC('1','3','9','4'),
    kAudioDeviceTransportTypeBluetoothLE               = OCA_4CC('b','l','e','a'),
    kAudioDeviceTransportTypeDisplayPort               = OCA_4CC('d','p','r','t'),
    kAudioDeviceTransportTypeAirPlay                   = OCA_4CC('a','i','r','p'),
    kAudioDeviceTransportTypeAVB                       = OCA_4CC('e','a','v','b'),
    kAudioDeviceTransportTypeThunderbolt               = OCA_4CC('t','h','u','n'),
    kAudioDeviceTransportTypeContinuityCaptureWired    = OCA_4CC('c','c','w','d'),
    kAudioDeviceTransportTypeContinuityCaptureWireless = OCA_4CC('c','c','w','l')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioClockDeviceClassID = OCA_4CC('a','c','l','k')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioClockDevicePropertyDeviceUID                   = OCA_4CC('c','u','i','d'),
    kAudioClockDevicePropertyTransportType               = OCA_4CC('t','r','a','n'),
    kAudioClockDevicePropertyClockDomain                 = OCA_4CC('c','l','k','d'),
    kAudioClockDevicePropertyDeviceIsAlive               = OCA_4CC('l','i','v','n'),
    kAudioClockDevicePropertyDeviceIsRunning             = OCA_4CC('g','o','i','n'),
    kAudioClockDevicePropertyLatency                     = OCA_4CC('l','t','n','c'),
    kAudioClockDevicePropertyControlList                 = OCA_4CC('c','t','r','l'),
    kAudioClockDevicePropertyNominalSampleRate           = OCA_4CC('n','s','r','t'),
    kAudioClockDevicePropertyAvailableNominalSampleRates = OCA_4CC('n','s','r','#')
};

CF_ENUM(AudioClassID) {
    kAudioEndPointDeviceClassID = OCA_4CC('e','d','e','v')
};

#define kAudioEndPointDeviceUIDKey "uid"

#define kAudioEndPointDeviceNameKey "name"

#define kAudioEndPointDeviceEndPointListKey "endpoints"

#define kAudioEndPointDeviceMainEndPointKey "main"

#define kAudioEndPointDeviceMasterEndPointKey "master"

#define kAudioEndPointDeviceIsPrivateKey "private"

CF_ENUM(AudioObjectPropertySelector) {
    kAudioEndPointDevicePropertyComposition  = OCA_4CC('a','c','o','m'),
    kAudioEndPointDevicePropertyEndPointList = OCA_4CC('a','g','r','p'),
    kAudioEndPointDevicePropertyIsPrivate    = OCA_4CC('p','r','i','v')
};

CF_ENUM(AudioClassID) {
    kAudioEndPointClassID = OCA_4CC('e','n','d','p')
};

#define kAudioEndPointUIDKey "uid"

#define kAudioEndPointNameKey "name"

#define kAudioEndPointInputChannelsKey "channels-in"

#define kAudioEndPointOutputChannelsKey "channels-out"

CF_ENUM(uint32_t) {
    kAudioStreamTerminalTypeUnknown               = 0,
    kAudioStreamTerminalTypeLine                  = OCA_4CC('l','i','n','e'),
    kAudioStreamTerminalTypeDigitalAudioInterface = OCA_4CC('s','p','d','f'),
    kAudioStreamTerminalTypeSpeaker               = OCA_4CC('s','p','k','r'),
    kAudioStreamTerminalTypeHeadphones            = OCA_4CC('h','d','p','h'),
    kAudioStreamTerminalTypeLFESpeaker            = OCA_4CC('l','f','e','s'),
    kAudioStreamTerminalTypeReceiverSpeaker       = OCA_4CC('r','s','p','k'),
    kAudioStreamTerminalTypeMicrophone            = OCA_4CC('m','i','c','r'),
    kAudioStreamTerminalTypeHeadsetMicrophone     = OCA_4CC('h','m','i','c'),
    kAudioStreamTerminalTypeReceiverMicrophone    = OCA_4CC('r','m','i','c'),
    kAudioStreamTerminalTypeTTY                   = OCA_4CC('t','t','y','_'),
    kAudioStreamTerminalTypeHDMI                  = OCA_4CC('h','d','m','i'),
    kAudioStreamTerminalTypeDisplayPort           = OCA_4CC('d','p','r','t')
};

CF_ENUM(AudioClassID) {
    kAudioControlClassID = OCA_4CC('a','c','t','l')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioControlPropertyScope   = OCA_4CC('c','s','c','p'),
    kAudioControlPropertyElement = OCA_4CC('c','e','l','m')
};

CF_ENUM(AudioClassID) {
    kAudioSliderControlClassID = OCA_4CC('s','l','d','r')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioSliderControlPropertyValue = OCA_4CC('s','d','r','v'),
    kAudioSliderControlPropertyRange = OCA_4CC('s','d','r','r')
};

CF_ENUM(AudioClassID) {
    kAudioLevelControlClassID     = OCA_4CC('l','e','v','l'),
    kAudioVolumeControlClassID    = OCA_4CC('v','l','m','e'),
    kAudioLFEVolumeControlClassID = OCA_4CC('s','u','b','v')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioLevelControlPropertyScalarValue             = OCA_4CC('l','c','s','v'),
    kAudioLevelControlPropertyDecibelValue            = OCA_4CC('l','c','d','v'),
    kAudioLevelControlPropertyDecibelRange            = OCA_4CC('l','c','d','r'),
    kAudioLevelControlPropertyConvertScalarToDecibels = OCA_4CC('l','c','s','d'),
    kAudioLevelControlPropertyConvertDecibelsToScalar = OCA_4CC('l','c','d','s')
};

CF_ENUM(AudioClassID) {
    kAudioBooleanControlClassID      = OCA_4CC('t','o','g','l'),
    kAudioMuteControlClassID         = OCA_4CC('m','u','t','e'),
    kAudioSoloControlClassID         = OCA_4CC('s','o','l','o'),
    kAudioJackControlClassID         = OCA_4CC('j','a','c','k'),
    kAudioLFEMuteControlClassID      = OCA_4CC('s','u','b','m'),
    kAudioPhantomPowerControlClassID = OCA_4CC('p','h','a','n'),
    kAudioPhaseInvertControlClassID  = OCA_4CC('p','h','s','i'),
    kAudioClipLightControlClassID    = OCA_4CC('c','l','i','p'),
    kAudioTalkbackControlClassID     = OCA_4CC('t','a','l','b'),
    kAudioListenbackControlClassID   = OCA_4CC('l','s','n','b')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioBooleanControlPropertyValue = OCA_4CC('b','c','v','l')
};

CF_ENUM(AudioClassID) {
    kAudioSelectorControlClassID        = OCA_4CC('s','l','c','t'),
    kAudioDataSourceControlClassID      = OCA_4CC('d','s','r','c'),
    kAudioDataDestinationControlClassID = OCA_4CC('d','e','s','t'),
    kAudioClockSourceControlClassID     = OCA_4CC('c','l','c','k'),
    kAudioLineLevelControlClassID       = OCA_4CC('n','l','v','l'),
    kAudioHighPassFilterControlClassID  = OCA_4CC('h','i','p','f')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioSelectorControlPropertyCurrentItem    = OCA_4CC('s','c','c','i'),
    kAudioSelectorControlPropertyAvailableItems = OCA_4CC('s','c','a','i'),
    kAudioSelectorControlPropertyItemName       = OCA_4CC('s','c','i','n'),
    kAudioSelectorControlPropertyItemKind       = OCA_4CC('c','l','k','k')
};

CF_ENUM(uint32_t) {
    kAudioSelectorControlItemKindSpacer = OCA_4CC('s','p','c','r')
};

CF_ENUM(uint32_t) {
    kAudioClockSourceItemKindInternal = OCA_4CC('i','n','t',' ')
};

CF_ENUM(AudioClassID) {
    kAudioStereoPanControlClassID = OCA_4CC('s','p','a','n')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioStereoPanControlPropertyValue           = OCA_4CC('s','p','c','v'),
    kAudioStereoPanControlPropertyPanningChannels = OCA_4CC('s','p','c','c')
};

CF_ASSUME_NONNULL_END

#endif
