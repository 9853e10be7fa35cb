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

CF_ASSUME_NONNULL_END

#endif
