// Audio Codec (AudioCodec.h): the component types codecs register under, their property IDs, constants and
// errors, and the function-pointer types of a codec's entry points. The AudioCodec* calls are Swift (AudioCodec+API.swift).
#ifndef OCA_AUDIOCODEC_H
#define OCA_AUDIOCODEC_H

#include <CCoreAudioTypes.h>
#include "AudioComponent.h"

CF_ASSUME_NONNULL_BEGIN

typedef AudioComponentInstance AudioCodec;
typedef uint32_t AudioCodecPropertyID;

struct AudioCodecMagicCookieInfo {
    uint32_t                mMagicCookieSize;
    const void * _Nullable  mMagicCookie;
};
typedef struct AudioCodecMagicCookieInfo AudioCodecMagicCookieInfo;

CF_ENUM(uint32_t) {
    kAudioDecoderComponentType      = OCA_4CC('a','d','e','c'),
    kAudioEncoderComponentType      = OCA_4CC('a','e','n','c'),
    kAudioUnityCodecComponentType   = OCA_4CC('a','c','d','c')
};

CF_ENUM(AudioCodecPropertyID) {
    kAudioCodecPropertySupportedInputFormats            = OCA_4CC('i','f','m','#'),
    kAudioCodecPropertySupportedOutputFormats           = OCA_4CC('o','f','m','#'),
    kAudioCodecPropertyAvailableInputSampleRates        = OCA_4CC('a','i','s','r'),
    kAudioCodecPropertyAvailableOutputSampleRates       = OCA_4CC('a','o','s','r'),
    kAudioCodecPropertyAvailableBitRateRange            = OCA_4CC('a','b','r','t'),
    kAudioCodecPropertyMinimumNumberInputPackets        = OCA_4CC('m','n','i','p'),
    kAudioCodecPropertyMinimumNumberOutputPackets       = OCA_4CC('m','n','o','p'),
    kAudioCodecPropertyAvailableNumberChannels          = OCA_4CC('c','m','n','c'),
    kAudioCodecPropertyDoesSampleRateConversion         = OCA_4CC('l','m','r','c'),
    kAudioCodecPropertyAvailableInputChannelLayoutTags  = OCA_4CC('a','i','c','l'),
    kAudioCodecPropertyAvailableOutputChannelLayoutTags = OCA_4CC('a','o','c','l'),
    kAudioCodecPropertyInputFormatsForOutputFormat      = OCA_4CC('i','f','4','o'),
    kAudioCodecPropertyOutputFormatsForInputFormat      = OCA_4CC('o','f','4','i'),
    kAudioCodecPropertyFormatInfo                       = OCA_4CC('a','c','f','i')
};

CF_ENUM(AudioCodecPropertyID) {
    kAudioCodecPropertyInputBufferSize                  = OCA_4CC('t','b','u','f'),
    kAudioCodecPropertyPacketFrameSize                  = OCA_4CC('p','a','k','f'),
    kAudioCodecPropertyHasVariablePacketByteSizes       = OCA_4CC('v','p','k','?'),
    kAudioCodecPropertyEmploysDependentPackets          = OCA_4CC('d','p','k','?'),
    kAudioCodecPropertyMaximumPacketByteSize            = OCA_4CC('p','a','k','b'),
    kAudioCodecPropertyPacketSizeLimitForVBR            = OCA_4CC('p','a','k','l'),
    kAudioCodecPropertyCurrentInputFormat               = OCA_4CC('i','f','m','t'),
    kAudioCodecPropertyCurrentOutputFormat              = OCA_4CC('o','f','m','t'),
    kAudioCodecPropertyMagicCookie                      = OCA_4CC('k','u','k','i'),
    kAudioCodecPropertyUsedInputBufferSize              = OCA_4CC('u','b','u','f'),
    kAudioCodecPropertyIsInitialized                    = OCA_4CC('i','n','i','t'),
    kAudioCodecPropertyCurrentTargetBitRate             = OCA_4CC('b','r','a','t'),
    kAudioCodecPropertyCurrentInputSampleRate           = OCA_4CC('c','i','s','r'),
    kAudioCodecPropertyCurrentOutputSampleRate          = OCA_4CC('c','o','s','r'),
    kAudioCodecPropertyQualitySetting                   = OCA_4CC('s','r','c','q'),
    kAudioCodecPropertyApplicableBitRateRange           = OCA_4CC('b','r','t','a'),
    kAudioCodecPropertyRecommendedBitRateRange          = OCA_4CC('b','r','t','r'),
    kAudioCodecPropertyApplicableInputSampleRates       = OCA_4CC('i','s','r','a'),
    kAudioCodecPropertyApplicableOutputSampleRates      = OCA_4CC('o','s','r','a'),
    kAudioCodecPropertyPaddedZeros                      = OCA_4CC('p','a','d','0'),
    kAudioCodecPropertyPrimeMethod                      = OCA_4CC('p','r','m','m'),
    kAudioCodecPropertyPrimeInfo                        = OCA_4CC('p','r','i','m'),
    kAudioCodecPropertyCurrentInputChannelLayout        = OCA_4CC('i','c','l',' '),
    kAudioCodecPropertyCurrentOutputChannelLayout       = OCA_4CC('o','c','l',' '),
    kAudioCodecPropertySettings                         = OCA_4CC('a','c','s',' '),
    kAudioCodecPropertyFormatList                       = OCA_4CC('a','c','f','l'),
    kAudioCodecPropertyBitRateControlMode               = OCA_4CC('a','c','b','f'),
    kAudioCodecPropertySoundQualityForVBR               = OCA_4CC('v','b','r','q'),
    kAudioCodecPropertyBitRateForVBR                    = OCA_4CC('v','b','r','b'),
    kAudioCodecPropertyDelayMode                        = OCA_4CC('d','m','o','d'),
    kAudioCodecPropertyAdjustLocalQuality               = OCA_4CC('^','q','a','l'),
    kAudioCodecPropertyDynamicRangeControlMode          = OCA_4CC('m','d','r','c'),
    kAudioCodecPropertyAdjustCompressionProfile         = OCA_4CC('^','p','r','o'),
    kAudioCodecPropertyProgramTargetLevelConstant       = OCA_4CC('p','t','l','c'),
    kAudioCodecPropertyAdjustTargetLevelConstant        = OCA_4CC('^','t','l','c'),
    kAudioCodecPropertyProgramTargetLevel               = OCA_4CC('p','p','t','l'),
    kAudioCodecPropertyAdjustTargetLevel                = OCA_4CC('^','p','t','l')
};

CF_ENUM(uint32_t) {
    kAudioCodecQuality_Max      = 0x7F,
    kAudioCodecQuality_High     = 0x60,
    kAudioCodecQuality_Medium   = 0x40,
    kAudioCodecQuality_Low      = 0x20,
    kAudioCodecQuality_Min      = 0
};

CF_ENUM(uint32_t) {
    kAudioCodecPrimeMethod_Pre      = 0,
    kAudioCodecPrimeMethod_Normal   = 1,
    kAudioCodecPrimeMethod_None     = 2
};

CF_ENUM(uint32_t) {
    kAudioCodecBitRateControlMode_Constant              = 0,
    kAudioCodecBitRateControlMode_LongTermAverage       = 1,
    kAudioCodecBitRateControlMode_VariableConstrained   = 2,
    kAudioCodecBitRateControlMode_Variable              = 3
};

CF_ENUM(uint32_t) {
    kAudioCodecDelayMode_Compatibility  = 0,
    kAudioCodecDelayMode_Minimum        = 1,
    kAudioCodecDelayMode_Optimal        = 2
};

/// Leading and trailing frames a codec needs (kAudioCodecPropertyPrimeInfo).
typedef struct AudioCodecPrimeInfo {
    uint32_t leadingFrames;
    uint32_t trailingFrames;
} AudioCodecPrimeInfo;

CF_ENUM(uint32_t) {
    kAudioCodecProduceOutputPacketFailure               = 1,
    kAudioCodecProduceOutputPacketSuccess               = 2,
    kAudioCodecProduceOutputPacketSuccessHasMore        = 3,
    kAudioCodecProduceOutputPacketNeedsMoreInputData    = 4,
    kAudioCodecProduceOutputPacketAtEOF                 = 5,
    kAudioCodecProduceOutputPacketSuccessConcealed      = 6
};

CF_ENUM(uint32_t) {
    kAudioCodecGetPropertyInfoSelect            = 0x0001,
    kAudioCodecGetPropertySelect                = 0x0002,
    kAudioCodecSetPropertySelect                = 0x0003,
    kAudioCodecInitializeSelect                 = 0x0004,
    kAudioCodecUninitializeSelect               = 0x0005,
    kAudioCodecAppendInputDataSelect            = 0x0006,
    kAudioCodecProduceOutputDataSelect          = 0x0007,
    kAudioCodecResetSelect                      = 0x0008,
    kAudioCodecAppendInputBufferListSelect      = 0x0009,
    kAudioCodecProduceOutputBufferListSelect    = 0x000A
};

CF_ENUM(OSStatus) {
    kAudioCodecNoError                      = 0,
    kAudioCodecUnspecifiedError             = OCA_4CC('w','h','a','t'),
    kAudioCodecUnknownPropertyError         = OCA_4CC('w','h','o','?'),
    kAudioCodecBadPropertySizeError         = OCA_4CC('!','s','i','z'),
    kAudioCodecIllegalOperationError        = OCA_4CC('n','o','p','e'),
    kAudioCodecUnsupportedFormatError       = OCA_4CC('!','d','a','t'),
    kAudioCodecStateError                   = OCA_4CC('!','s','t','t'),
    kAudioCodecNotEnoughBufferSpaceError    = OCA_4CC('!','b','u','f'),
    kAudioCodecBadDataError                 = OCA_4CC('b','a','d','a')
};

// The rest of AudioCodec.h's property IDs and their values.
CF_ENUM(AudioCodecPropertyID) {
    kAudioCodecPropertyMinimumDelayMode              = OCA_4CC('m','d','e','l'),
    kAudioCodecPropertyNameCFString                  = OCA_4CC('l','n','a','m'),
    kAudioCodecPropertyManufacturerCFString          = OCA_4CC('l','m','a','k'),
    kAudioCodecPropertyFormatCFString                = OCA_4CC('l','f','o','r'),
    kAudioCodecPropertyRequiresPacketDescription     = OCA_4CC('p','a','k','d'),
    kAudioCodecPropertyAvailableBitRates             = OCA_4CC('b','r','t','#'),
    kAudioCodecExtendFrequencies                     = OCA_4CC('a','c','e','f'),
    kAudioCodecUseRecommendedSampleRate              = OCA_4CC('u','r','s','r'),
    kAudioCodecOutputPrecedence                      = OCA_4CC('o','p','p','r'),
    kAudioCodecDoesSampleRateConversion              = OCA_4CC('l','m','r','c'),
    kAudioCodecBitRateFormat                         = OCA_4CC('a','c','b','f'),
    kAudioCodecInputFormatsForOutputFormat           = OCA_4CC('i','f','4','o'),
    kAudioCodecOutputFormatsForInputFormat           = OCA_4CC('o','f','4','i'),
    kAudioCodecPropertyInputChannelLayout            = OCA_4CC('i','c','l',' '),
    kAudioCodecPropertyOutputChannelLayout           = OCA_4CC('o','c','l',' '),
    kAudioCodecPropertyZeroFramesPadded              = OCA_4CC('p','a','d','0'),
    kAudioCodecPropertyAvailableInputChannelLayouts  = OCA_4CC('a','i','c','l'),
    kAudioCodecPropertyAvailableOutputChannelLayouts = OCA_4CC('a','o','c','l')
};

CF_ENUM(uint32_t) {
    kAudioCodecBitRateFormat_CBR          = 0,
    kAudioCodecBitRateFormat_ABR          = 1,
    kAudioCodecBitRateFormat_VBR          = 2
};

CF_ENUM(uint32_t) {
    kAudioCodecOutputPrecedenceNone       = 0,
    kAudioCodecOutputPrecedenceBitRate    = 1,
    kAudioCodecOutputPrecedenceSampleRate = 2
};

CF_ENUM(uint32_t) {
    kDynamicRangeControlMode_None                        = 0,
    kDynamicRangeControlMode_Light                       = 1,
    kDynamicRangeControlMode_Heavy                       = 2
};

CF_ENUM(uint32_t) {
    kProgramTargetLevel_None                             = 0,
    kProgramTargetLevel_Minus31dB                        = 1,
    kProgramTargetLevel_Minus23dB                        = 2,
    kProgramTargetLevel_Minus20dB                        = 3
};

CF_ENUM(uint32_t) {
    kDynamicRangeCompressionProfile_None                 = 0,
    kDynamicRangeCompressionProfile_LateNight            = 1,
    kDynamicRangeCompressionProfile_NoisyEnvironment     = 2,
    kDynamicRangeCompressionProfile_LimitedPlaybackRange = 3,
    kDynamicRangeCompressionProfile_GeneralCompression   = 6
};

// The keys of a codec's settings dictionary (kAudioCodecPropertySettings).
#define kAudioSettings_TopLevelKey      "name"
#define kAudioSettings_Version          "version"
#define kAudioSettings_Parameters       "parameters"
#define kAudioSettings_SettingKey       "key"
#define kAudioSettings_SettingName      "name"
#define kAudioSettings_ValueType        "value type"
#define kAudioSettings_AvailableValues  "available values"
#define kAudioSettings_LimitedValues    "limited values"
#define kAudioSettings_CurrentValue     "current value"
#define kAudioSettings_Summary          "summary"
#define kAudioSettings_Hint             "hint"
#define kAudioSettings_Unit             "unit"

CF_ENUM(uint32_t) {
    kHintBasic                            = 0,
    kHintAdvanced                         = 1,
    kHintHidden                           = 2
};

typedef enum OCA_OPTIONS_ATTR AudioSettingsFlags : uint32_t {
    kAudioSettingsFlags_ExpertParameter        = 1,
    kAudioSettingsFlags_InvisibleParameter     = 2,
    kAudioSettingsFlags_MetaParameter          = 4,
    kAudioSettingsFlags_UserInterfaceParameter = 8
} AudioSettingsFlags;

// The entry points of a codec component's plug-in interface.
typedef OSStatus (*AudioCodecGetPropertyInfoProc)(void *self, AudioCodecPropertyID inPropertyID,
                                                  uint32_t * _Nullable outSize, DarwinBoolean * _Nullable outWritable);
typedef OSStatus (*AudioCodecGetPropertyProc)(void *self, AudioCodecPropertyID inPropertyID, uint32_t *ioPropertyDataSize,
                                              void *outPropertyData);
typedef OSStatus (*AudioCodecSetPropertyProc)(void *self, AudioCodecPropertyID inPropertyID, uint32_t inPropertyDataSize,
                                              const void *inPropertyData);
typedef OSStatus (*AudioCodecInitializeProc)(void *self, const AudioStreamBasicDescription * _Nullable inInputFormat,
                                             const AudioStreamBasicDescription * _Nullable inOutputFormat,
                                             const void * _Nullable inMagicCookie, uint32_t inMagicCookieByteSize);
typedef OSStatus (*AudioCodecUninitializeProc)(void *self);
typedef OSStatus (*AudioCodecAppendInputDataProc)(void *self, const void *inInputData, uint32_t *ioInputDataByteSize,
                                                  uint32_t *ioNumberPackets,
                                                  const AudioStreamPacketDescription * _Nullable inPacketDescription);
typedef OSStatus (*AudioCodecProduceOutputPacketsProc)(void *self, void *outOutputData, uint32_t *ioOutputDataByteSize,
                                                       uint32_t *ioNumberPackets,
                                                       AudioStreamPacketDescription * _Nullable outPacketDescription,
                                                       uint32_t *outStatus);
typedef OSStatus (*AudioCodecResetProc)(void *self);
typedef OSStatus (*AudioCodecAppendInputBufferListProc)(void *self, const AudioBufferList *ioBufferList, uint32_t *inNumberPackets,
                                                        const AudioStreamPacketDescription * _Nullable inPacketDescription,
                                                        uint32_t *outBytesConsumed);
typedef OSStatus (*AudioCodecProduceOutputBufferListProc)(void *self, AudioBufferList *ioBufferList, uint32_t *ioNumberPackets,
                                                          AudioStreamPacketDescription * _Nullable outPacketDescription,
                                                          uint32_t *outStatus);

CF_ASSUME_NONNULL_END

#endif
