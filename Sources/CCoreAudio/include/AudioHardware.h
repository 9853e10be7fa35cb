// Apple's AudioHardware.h (CoreAudio): the system object, devices and IOProcs. Values are Apple's; the
// functions are in Swift (module CoreAudio) with the signatures of Apple's Swift interface.
#ifndef OCA_AUDIOHARDWARE_H
#define OCA_AUDIOHARDWARE_H

#include "AudioHardwareBase.h"

CF_ASSUME_NONNULL_BEGIN

typedef OSStatus (*AudioObjectPropertyListenerProc)(AudioObjectID inObjectID, uint32_t inNumberAddresses,
                                                     const AudioObjectPropertyAddress *inAddresses,
                                                     void * _Nullable inClientData);

typedef OSStatus (*AudioDeviceIOProc)(AudioObjectID inDevice, const AudioTimeStamp *inNow,
                                      const AudioBufferList *inInputData, const AudioTimeStamp *inInputTime,
                                      AudioBufferList *outOutputData, const AudioTimeStamp *inOutputTime,
                                      void * _Nullable inClientData);
typedef AudioDeviceIOProc AudioDeviceIOProcID;

typedef AudioObjectID AudioDeviceID;

struct AudioHardwareIOProcStreamUsage {
    void *      mIOProc;
    uint32_t    mNumberStreams;
    uint32_t    mStreamIsOn[1];
};
typedef struct AudioHardwareIOProcStreamUsage AudioHardwareIOProcStreamUsage;
typedef AudioObjectID AudioStreamID;

CF_ENUM(AudioObjectPropertySelector) {
    kAudioObjectPropertyCreator             = OCA_4CC('o','p','l','g'),
    kAudioObjectPropertyListenerAdded       = OCA_4CC('l','i','s','a'),
    kAudioObjectPropertyListenerRemoved     = OCA_4CC('l','i','s','r')
};

CF_ENUM(AudioObjectID) {
    kAudioObjectSystemObject = 1
};

CF_ENUM(AudioClassID) {
    kAudioSystemObjectClassID = OCA_4CC('a','s','y','s')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyDevices                           = OCA_4CC('d','e','v','#'),
    kAudioHardwarePropertyDefaultInputDevice                = OCA_4CC('d','I','n',' '),
    kAudioHardwarePropertyDefaultOutputDevice               = OCA_4CC('d','O','u','t'),
    kAudioHardwarePropertyDefaultSystemOutputDevice         = OCA_4CC('s','O','u','t'),
    kAudioHardwarePropertyTranslateUIDToDevice              = OCA_4CC('u','i','d','d'),
    kAudioHardwarePropertyMixStereoToMono                   = OCA_4CC('s','t','m','o'),
    kAudioHardwarePropertyPlugInList                        = OCA_4CC('p','l','g','#'),
    kAudioHardwarePropertyIsInitingOrExiting                = OCA_4CC('i','n','o','t'),
    kAudioHardwarePropertyProcessIsAudible                  = OCA_4CC('p','m','u','t'),
    kAudioHardwarePropertySleepingIsAllowed                 = OCA_4CC('s','l','e','p'),
    kAudioHardwarePropertyUnloadingIsAllowed                = OCA_4CC('u','n','l','d'),
    kAudioHardwarePropertyHogModeIsAllowed                  = OCA_4CC('h','o','g','r'),
    kAudioHardwarePropertyServiceRestarted                  = OCA_4CC('s','r','s','t'),
    kAudioHardwarePropertyPowerHint                         = OCA_4CC('p','o','w','h')
};

CF_ENUM(uint32_t) {
    kAudioDeviceStartTimeIsInputFlag            = (1U << 0),
    kAudioDeviceStartTimeDontConsultDeviceFlag  = (1U << 1),
    kAudioDeviceStartTimeDontConsultHALFlag     = (1U << 2)
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyPlugIn                          = OCA_4CC('p','l','u','g'),
    kAudioDevicePropertyDeviceHasChanged                = OCA_4CC('d','i','f','f'),
    kAudioDevicePropertyDeviceIsRunningSomewhere        = OCA_4CC('g','o','n','e'),
    kAudioDeviceProcessorOverload                       = OCA_4CC('o','v','e','r'),
    kAudioDevicePropertyIOStoppedAbnormally             = OCA_4CC('s','t','p','d'),
    kAudioDevicePropertyHogMode                         = OCA_4CC('o','i','n','k'),
    kAudioDevicePropertyBufferFrameSize                 = OCA_4CC('f','s','i','z'),
    kAudioDevicePropertyBufferFrameSizeRange            = OCA_4CC('f','s','z','#'),
    kAudioDevicePropertyUsesVariableBufferFrameSizes    = OCA_4CC('v','f','s','z'),
    kAudioDevicePropertyIOCycleUsage                    = OCA_4CC('n','c','y','c'),
    kAudioDevicePropertyStreamConfiguration             = OCA_4CC('s','l','a','y'),
    kAudioDevicePropertyIOProcStreamUsage               = OCA_4CC('s','u','s','e'),
    kAudioDevicePropertyActualSampleRate                = OCA_4CC('a','s','r','t'),
    kAudioDevicePropertyClockDevice                     = OCA_4CC('a','p','c','d'),
    kAudioDevicePropertyJackIsConnected                 = OCA_4CC('j','a','c','k'),
    kAudioDevicePropertyVolumeScalar                    = OCA_4CC('v','o','l','m'),
    kAudioDevicePropertyVolumeDecibels                  = OCA_4CC('v','o','l','d'),
    kAudioDevicePropertyVolumeRangeDecibels             = OCA_4CC('v','d','b','#'),
    kAudioDevicePropertyVolumeScalarToDecibels          = OCA_4CC('v','2','d','b'),
    kAudioDevicePropertyVolumeDecibelsToScalar          = OCA_4CC('d','b','2','v'),
    kAudioDevicePropertyMute                            = OCA_4CC('m','u','t','e')
};

// AudioHardwareDeprecated.h: the older names client code still uses (the CFString forms are the object
// properties under their old names; DeviceName and DeviceManufacturer are C strings).
CF_ENUM(AudioObjectPropertyScope) {
    kAudioDevicePropertyScopeInput                      = kAudioObjectPropertyScopeInput,
    kAudioDevicePropertyScopeOutput                     = kAudioObjectPropertyScopeOutput,
    kAudioDevicePropertyScopePlayThrough                = kAudioObjectPropertyScopePlayThrough
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyDeviceName                      = OCA_4CC('n','a','m','e'),
    kAudioDevicePropertyDeviceNameCFString              = kAudioObjectPropertyName,
    kAudioDevicePropertyDeviceManufacturer              = OCA_4CC('m','a','k','r'),
    kAudioDevicePropertyDeviceManufacturerCFString      = kAudioObjectPropertyManufacturer
};

// The rest of AudioHardware.h: the plug-in, box, clock, process, tap and aggregate-device classes and their
// properties and dictionary keys, and the level/selector/slider control properties. Declared with Apple's values;
// what the HAL does not make or implement answers as Apple's does without that hardware (no such object, or
// kAudioHardwareUnknownPropertyError); aggregate devices are not supported (AudioHardwareCreateAggregateDevice).
typedef enum OCA_ENUM_ATTR AudioHardwarePowerHint : uint32_t {
    kAudioHardwarePowerHintNone             = 0,
    kAudioHardwarePowerHintFavorSavingPower = 1
} AudioHardwarePowerHint;

CF_ENUM(AudioObjectPropertySelector) {
    kAudioHardwarePropertyTranslateBundleIDToPlugIn           = OCA_4CC('b','i','d','p'),
    kAudioHardwarePropertyTransportManagerList                = OCA_4CC('t','m','g','#'),
    kAudioHardwarePropertyTranslateBundleIDToTransportManager = OCA_4CC('t','m','b','i'),
    kAudioHardwarePropertyBoxList                             = OCA_4CC('b','o','x','#'),
    kAudioHardwarePropertyTranslateUIDToBox                   = OCA_4CC('u','i','d','b'),
    kAudioHardwarePropertyClockDeviceList                     = OCA_4CC('c','l','k','#'),
    kAudioHardwarePropertyTranslateUIDToClockDevice           = OCA_4CC('u','i','d','c'),
    kAudioHardwarePropertyProcessIsMain                       = OCA_4CC('m','a','i','n'),
    kAudioHardwarePropertyUserIDChanged                       = OCA_4CC('e','u','i','d'),
    kAudioHardwarePropertyProcessInputMute                    = OCA_4CC('p','m','i','n'),
    kAudioHardwarePropertyUserSessionIsActiveOrHeadless       = OCA_4CC('u','s','e','r'),
    kAudioHardwarePropertyProcessObjectList                   = OCA_4CC('p','r','s','#'),
    kAudioHardwarePropertyTranslatePIDToProcessObject         = OCA_4CC('i','d','2','p'),
    kAudioHardwarePropertyTapList                             = OCA_4CC('t','p','s','#'),
    kAudioHardwarePropertyTranslateUIDToTap                   = OCA_4CC('u','i','d','t')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioPlugInCreateAggregateDevice  = OCA_4CC('c','a','g','g'),
    kAudioPlugInDestroyAggregateDevice = OCA_4CC('d','a','g','g')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioTransportManagerCreateEndPointDevice  = OCA_4CC('c','d','e','v'),
    kAudioTransportManagerDestroyEndPointDevice = OCA_4CC('d','d','e','v')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyIOThreadOSWorkgroup = OCA_4CC('o','s','w','g'),
    kAudioDevicePropertyProcessMute         = OCA_4CC('a','p','p','m')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioDevicePropertyStereoPan                                = OCA_4CC('s','p','a','n'),
    kAudioDevicePropertyStereoPanChannels                        = OCA_4CC('s','p','n','#'),
    kAudioDevicePropertySolo                                     = OCA_4CC('s','o','l','o'),
    kAudioDevicePropertyPhantomPower                             = OCA_4CC('p','h','a','n'),
    kAudioDevicePropertyPhaseInvert                              = OCA_4CC('p','h','s','i'),
    kAudioDevicePropertyClipLight                                = OCA_4CC('c','l','i','p'),
    kAudioDevicePropertyTalkback                                 = OCA_4CC('t','a','l','b'),
    kAudioDevicePropertyListenback                               = OCA_4CC('l','s','n','b'),
    kAudioDevicePropertyDataSource                               = OCA_4CC('s','s','r','c'),
    kAudioDevicePropertyDataSources                              = OCA_4CC('s','s','c','#'),
    kAudioDevicePropertyDataSourceNameForIDCFString              = OCA_4CC('l','s','c','n'),
    kAudioDevicePropertyDataSourceKindForID                      = OCA_4CC('s','s','c','k'),
    kAudioDevicePropertyClockSource                              = OCA_4CC('c','s','r','c'),
    kAudioDevicePropertyClockSources                             = OCA_4CC('c','s','c','#'),
    kAudioDevicePropertyClockSourceNameForIDCFString             = OCA_4CC('l','c','s','n'),
    kAudioDevicePropertyClockSourceKindForID                     = OCA_4CC('c','s','c','k'),
    kAudioDevicePropertyPlayThru                                 = OCA_4CC('t','h','r','u'),
    kAudioDevicePropertyPlayThruSolo                             = OCA_4CC('t','h','r','s'),
    kAudioDevicePropertyPlayThruVolumeScalar                     = OCA_4CC('m','v','s','c'),
    kAudioDevicePropertyPlayThruVolumeDecibels                   = OCA_4CC('m','v','d','b'),
    kAudioDevicePropertyPlayThruVolumeRangeDecibels              = OCA_4CC('m','v','d','#'),
    kAudioDevicePropertyPlayThruVolumeScalarToDecibels           = OCA_4CC('m','v','2','d'),
    kAudioDevicePropertyPlayThruVolumeDecibelsToScalar           = OCA_4CC('m','v','2','s'),
    kAudioDevicePropertyPlayThruStereoPan                        = OCA_4CC('m','s','p','n'),
    kAudioDevicePropertyPlayThruStereoPanChannels                = OCA_4CC('m','s','p','#'),
    kAudioDevicePropertyPlayThruDestination                      = OCA_4CC('m','d','d','s'),
    kAudioDevicePropertyPlayThruDestinations                     = OCA_4CC('m','d','d','#'),
    kAudioDevicePropertyPlayThruDestinationNameForIDCFString     = OCA_4CC('m','d','d','c'),
    kAudioDevicePropertyChannelNominalLineLevel                  = OCA_4CC('n','l','v','l'),
    kAudioDevicePropertyChannelNominalLineLevels                 = OCA_4CC('n','l','v','#'),
    kAudioDevicePropertyChannelNominalLineLevelNameForIDCFString = OCA_4CC('l','c','n','l'),
    kAudioDevicePropertyHighPassFilterSetting                    = OCA_4CC('h','i','p','f'),
    kAudioDevicePropertyHighPassFilterSettings                   = OCA_4CC('h','i','p','#'),
    kAudioDevicePropertyHighPassFilterSettingNameForIDCFString   = OCA_4CC('h','i','p','l'),
    kAudioDevicePropertySubVolumeScalar                          = OCA_4CC('s','v','l','m'),
    kAudioDevicePropertySubVolumeDecibels                        = OCA_4CC('s','v','l','d'),
    kAudioDevicePropertySubVolumeRangeDecibels                   = OCA_4CC('s','v','d','#'),
    kAudioDevicePropertySubVolumeScalarToDecibels                = OCA_4CC('s','v','2','d'),
    kAudioDevicePropertySubVolumeDecibelsToScalar                = OCA_4CC('s','d','2','v'),
    kAudioDevicePropertySubMute                                  = OCA_4CC('s','m','u','t'),
    kAudioDevicePropertyVoiceActivityDetectionEnable             = OCA_4CC('v','A','d','+'),
    kAudioDevicePropertyVoiceActivityDetectionState              = OCA_4CC('v','A','d','S')
};

CF_ENUM(AudioClassID) {
    kAudioAggregateDeviceClassID = OCA_4CC('a','a','g','g')
};

#define kAudioAggregateDeviceUIDKey "uid"

#define kAudioAggregateDeviceNameKey "name"

#define kAudioAggregateDeviceSubDeviceListKey "subdevices"

#define kAudioAggregateDeviceMainSubDeviceKey "master"

#define kAudioAggregateDeviceClockDeviceKey "clock"

#define kAudioAggregateDeviceIsPrivateKey "private"

#define kAudioAggregateDeviceIsStackedKey "stacked"

#define kAudioAggregateDeviceTapListKey "taps"

#define kAudioAggregateDeviceTapAutoStartKey "tapautostart"

CF_ENUM(AudioObjectPropertySelector) {
    kAudioAggregateDevicePropertyFullSubDeviceList   = OCA_4CC('g','r','u','p'),
    kAudioAggregateDevicePropertyActiveSubDeviceList = OCA_4CC('a','g','r','p'),
    kAudioAggregateDevicePropertyComposition         = OCA_4CC('a','c','o','m'),
    kAudioAggregateDevicePropertyMainSubDevice       = OCA_4CC('a','m','s','t'),
    kAudioAggregateDevicePropertyClockDevice         = OCA_4CC('a','p','c','d'),
    kAudioAggregateDevicePropertyTapList             = OCA_4CC('t','a','p','#'),
    kAudioAggregateDevicePropertySubTapList          = OCA_4CC('a','t','a','p')
};

CF_ENUM(uint32_t) {
    kAudioAggregateDriftCompensationMinQuality    = 0,
    kAudioAggregateDriftCompensationLowQuality    = 32,
    kAudioAggregateDriftCompensationMediumQuality = 64,
    kAudioAggregateDriftCompensationHighQuality   = 96,
    kAudioAggregateDriftCompensationMaxQuality    = 127
};

CF_ENUM(AudioClassID) {
    kAudioSubDeviceClassID = OCA_4CC('a','s','u','b')
};

#define kAudioSubDeviceUIDKey "uid"

#define kAudioSubDeviceNameKey "name"

#define kAudioSubDeviceInputChannelsKey "channels-in"

#define kAudioSubDeviceOutputChannelsKey "channels-out"

#define kAudioSubDeviceExtraInputLatencyKey "latency-in"

#define kAudioSubDeviceExtraOutputLatencyKey "latency-out"

#define kAudioSubDeviceDriftCompensationKey "drift"

#define kAudioSubDeviceDriftCompensationQualityKey "drift quality"

CF_ENUM(AudioObjectPropertySelector) {
    kAudioSubDevicePropertyExtraLatency             = OCA_4CC('x','l','t','c'),
    kAudioSubDevicePropertyDriftCompensation        = OCA_4CC('d','r','f','t'),
    kAudioSubDevicePropertyDriftCompensationQuality = OCA_4CC('d','r','f','q')
};

CF_ENUM(AudioClassID) {
    kAudioSubTapClassID = OCA_4CC('s','t','a','p')
};

#define kAudioSubTapUIDKey "uid"

#define kAudioSubTapExtraInputLatencyKey "latency-in"

#define kAudioSubTapExtraOutputLatencyKey "latency-out"

#define kAudioSubTapDriftCompensationKey "drift"

#define kAudioSubTapDriftCompensationQualityKey "drift quality"

CF_ENUM(AudioObjectPropertySelector) {
    kAudioSubTapPropertyExtraLatency             = OCA_4CC('x','l','t','c'),
    kAudioSubTapPropertyDriftCompensation        = OCA_4CC('d','r','f','t'),
    kAudioSubTapPropertyDriftCompensationQuality = OCA_4CC('d','r','f','q')
};

CF_ENUM(AudioClassID) {
    kAudioProcessClassID = OCA_4CC('c','l','n','t')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioProcessPropertyPID             = OCA_4CC('p','p','i','d'),
    kAudioProcessPropertyBundleID        = OCA_4CC('p','b','i','d'),
    kAudioProcessPropertyDevices         = OCA_4CC('p','d','v','#'),
    kAudioProcessPropertyIsRunning       = OCA_4CC('p','i','r','?'),
    kAudioProcessPropertyIsRunningInput  = OCA_4CC('p','i','r','i'),
    kAudioProcessPropertyIsRunningOutput = OCA_4CC('p','i','r','o')
};

CF_ENUM(AudioClassID) {
    kAudioTapClassID = OCA_4CC('t','c','l','s')
};

CF_ENUM(AudioObjectPropertySelector) {
    kAudioTapPropertyUID         = OCA_4CC('t','u','i','d'),
    kAudioTapPropertyDescription = OCA_4CC('t','d','s','c'),
    kAudioTapPropertyFormat      = OCA_4CC('t','f','m','t')
};


CF_ENUM(uint32_t) {
    kAudioDeviceTransportTypeContinuityCapture = OCA_4CC('c','c','a','p')
};

// The deprecated names of the aggregate drift-compensation qualities.
CF_ENUM(uint32_t) {
    kAudioSubDeviceDriftCompensationMinQuality    = 0,
    kAudioSubDeviceDriftCompensationLowQuality    = 0x20,
    kAudioSubDeviceDriftCompensationMediumQuality = 0x40,
    kAudioSubDeviceDriftCompensationHighQuality   = 0x60,
    kAudioSubDeviceDriftCompensationMaxQuality    = 0x7F
};

CF_ASSUME_NONNULL_END

#endif
