// Audio Converter Services and Audio Format Services (AudioConverter.h, AudioFormat.h): handles,
// property IDs, constants, errors and the input callback type.
#ifndef OCA_AUDIOCONVERTER_H
#define OCA_AUDIOCONVERTER_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAudioConverter *AudioConverterRef;
typedef uint32_t AudioConverterPropertyID;

CF_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyMinimumInputBufferSize       = OCA_4CC('m','i','b','s'),
    kAudioConverterPropertyMinimumOutputBufferSize      = OCA_4CC('m','o','b','s'),
    kAudioConverterPropertyMaximumInputPacketSize       = OCA_4CC('x','i','p','s'),
    kAudioConverterPropertyMaximumOutputPacketSize      = OCA_4CC('x','o','p','s'),
    kAudioConverterPropertyCalculateInputBufferSize     = OCA_4CC('c','i','b','s'),
    kAudioConverterPropertyCalculateOutputBufferSize    = OCA_4CC('c','o','b','s'),
    kAudioConverterPropertyInputCodecParameters         = OCA_4CC('i','c','d','p'),
    kAudioConverterPropertyOutputCodecParameters        = OCA_4CC('o','c','d','p'),
    kAudioConverterSampleRateConverterComplexity        = OCA_4CC('s','r','c','a'),
    kAudioConverterSampleRateConverterQuality           = OCA_4CC('s','r','c','q'),
    kAudioConverterSampleRateConverterInitialPhase      = OCA_4CC('s','r','c','p'),
    kAudioConverterCodecQuality                         = OCA_4CC('c','d','q','u'),
    kAudioConverterPrimeMethod                          = OCA_4CC('p','r','m','m'),
    kAudioConverterPrimeInfo                            = OCA_4CC('p','r','i','m'),
    kAudioConverterChannelMap                           = OCA_4CC('c','h','m','p'),
    kAudioConverterDecompressionMagicCookie             = OCA_4CC('d','m','g','c'),
    kAudioConverterCompressionMagicCookie               = OCA_4CC('c','m','g','c'),
    kAudioConverterEncodeBitRate                        = OCA_4CC('b','r','a','t'),
    kAudioConverterEncodeAdjustableSampleRate           = OCA_4CC('a','j','s','r'),
    kAudioConverterInputChannelLayout                   = OCA_4CC('i','c','l',' '),
    kAudioConverterOutputChannelLayout                  = OCA_4CC('o','c','l',' '),
    kAudioConverterApplicableEncodeBitRates             = OCA_4CC('a','e','b','r'),
    kAudioConverterAvailableEncodeBitRates              = OCA_4CC('v','e','b','r'),
    kAudioConverterApplicableEncodeSampleRates          = OCA_4CC('a','e','s','r'),
    kAudioConverterAvailableEncodeSampleRates           = OCA_4CC('v','e','s','r'),
    kAudioConverterAvailableEncodeChannelLayoutTags     = OCA_4CC('a','e','c','l'),
    kAudioConverterCurrentOutputStreamDescription       = OCA_4CC('a','c','o','d'),
    kAudioConverterCurrentInputStreamDescription        = OCA_4CC('a','c','i','d'),
    kAudioConverterPropertySettings                     = OCA_4CC('a','c','p','s'),
    kAudioConverterPropertyBitDepthHint                 = OCA_4CC('a','c','b','d'),
    kAudioConverterPropertyFormatList                   = OCA_4CC('f','l','s','t'),
    kAudioConverterPropertyPerformDownmix               = OCA_4CC('d','m','i','x'),
    kAudioConverterPropertyChannelMixMap                = OCA_4CC('m','m','a','p'),
    kAudioConverterPropertyDithering                    = OCA_4CC('d','i','t','h'),
    kAudioConverterPropertyDitherBitDepth               = OCA_4CC('d','b','i','t'),
    kAudioConverterPropertyMaximumInputBufferSize       = OCA_4CC('x','i','b','s'),
    kAudioConverterSampleRateConverterAlgorithm         = OCA_4CC('s','r','c','i')
};

CF_ENUM(uint32_t) {
    kDitherAlgorithm_TPDF           = 1,
    kDitherAlgorithm_NoiseShaping   = 2
};

CF_ENUM(uint32_t) {
    kAudioConverterQuality_Max      = 0x7F,
    kAudioConverterQuality_High     = 0x60,
    kAudioConverterQuality_Medium   = 0x40,
    kAudioConverterQuality_Low      = 0x20,
    kAudioConverterQuality_Min      = 0
};

CF_ENUM(uint32_t) {
    kAudioConverterSampleRateConverterComplexity_Linear         = OCA_4CC('l','i','n','e'),
    kAudioConverterSampleRateConverterComplexity_Normal         = OCA_4CC('n','o','r','m'),
    kAudioConverterSampleRateConverterComplexity_Mastering      = OCA_4CC('b','a','t','s'),
    kAudioConverterSampleRateConverterComplexity_MinimumPhase   = OCA_4CC('m','i','n','p')
};

CF_ENUM(uint32_t) {
    kConverterPrimeMethod_Pre       = 0,
    kConverterPrimeMethod_Normal    = 1,
    kConverterPrimeMethod_None      = 2
};

struct AudioConverterPrimeInfo {
    uint32_t leadingFrames;
    uint32_t trailingFrames;
};
typedef struct AudioConverterPrimeInfo AudioConverterPrimeInfo;

typedef enum OCA_OPTIONS_ATTR AudioConverterOptions : uint32_t {
    kAudioConverterOption_Unbuffered = (1U << 16)
} AudioConverterOptions;

CF_ENUM(OSStatus) {
    kAudioConverterErr_FormatNotSupported               = OCA_4CC('f','m','t','?'),
    kAudioConverterErr_OperationNotSupported            = 0x6F703F3F,
    kAudioConverterErr_PropertyNotSupported             = OCA_4CC('p','r','o','p'),
    kAudioConverterErr_InvalidInputSize                 = OCA_4CC('i','n','s','z'),
    kAudioConverterErr_InvalidOutputSize                = OCA_4CC('o','t','s','z'),
    kAudioConverterErr_UnspecifiedError                 = OCA_4CC('w','h','a','t'),
    kAudioConverterErr_BadPropertySizeError             = OCA_4CC('!','s','i','z'),
    kAudioConverterErr_RequiresPacketDescriptionsError  = OCA_4CC('!','p','k','d'),
    kAudioConverterErr_InputSampleRateOutOfRange        = OCA_4CC('!','i','s','r'),
    kAudioConverterErr_OutputSampleRateOutOfRange       = OCA_4CC('!','o','s','r'),
    kAudioConverterErr_HardwareInUse                    = OCA_4CC('h','w','i','u'),
    kAudioConverterErr_NoHardwarePermission             = OCA_4CC('p','e','r','m')
};

typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef inAudioConverter,
                                                       uint32_t *ioNumberDataPackets,
                                                       AudioBufferList *ioData,
                                                       AudioStreamPacketDescription * _Nullable * _Nullable outDataPacketDescription,
                                                       void * _Nullable inUserData);

// MARK: Audio Format Services

typedef uint32_t AudioFormatPropertyID;

/// kAudioFormatProperty_FormatList's items: a format and the channel layout that goes with it.
struct AudioFormatListItem {
    AudioStreamBasicDescription mASBD;
    AudioChannelLayoutTag mChannelLayoutTag;
};
typedef struct AudioFormatListItem AudioFormatListItem;

CF_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_FormatInfo                     = OCA_4CC('f','m','t','i'),
    kAudioFormatProperty_FormatName                     = OCA_4CC('f','n','a','m'),
    kAudioFormatProperty_EncodeFormatIDs                = OCA_4CC('a','c','o','f'),
    kAudioFormatProperty_DecodeFormatIDs                = OCA_4CC('a','c','i','f'),
    kAudioFormatProperty_FormatList                     = OCA_4CC('f','l','s','t'),
    kAudioFormatProperty_ASBDFromESDS                   = OCA_4CC('e','s','s','d'),
    kAudioFormatProperty_ChannelLayoutFromESDS          = OCA_4CC('e','s','c','l'),
    kAudioFormatProperty_OutputFormatList               = OCA_4CC('o','f','l','s'),
    kAudioFormatProperty_FirstPlayableFormatFromList    = OCA_4CC('f','p','f','l'),
    kAudioFormatProperty_FormatIsVBR                    = OCA_4CC('f','v','b','r'),
    kAudioFormatProperty_FormatIsExternallyFramed       = OCA_4CC('f','e','x','f'),
    kAudioFormatProperty_FormatEmploysDependentPackets  = OCA_4CC('f','d','e','p'),
    kAudioFormatProperty_FormatIsEncrypted              = OCA_4CC('c','r','y','p'),
    kAudioFormatProperty_Encoders                       = OCA_4CC('a','v','e','n'),
    kAudioFormatProperty_Decoders                       = OCA_4CC('a','v','d','e'),
    kAudioFormatProperty_AvailableEncodeBitRates        = OCA_4CC('a','e','b','r'),
    kAudioFormatProperty_AvailableEncodeSampleRates     = OCA_4CC('a','e','s','r'),
    kAudioFormatProperty_AvailableEncodeChannelLayoutTags = OCA_4CC('a','e','c','l'),
    kAudioFormatProperty_AvailableEncodeNumberChannels  = OCA_4CC('a','v','n','c'),
    kAudioFormatProperty_AvailableDecodeNumberChannels  = OCA_4CC('a','d','n','c'),
    kAudioFormatProperty_ASBDFromMPEGPacket             = OCA_4CC('a','d','m','p'),
    kAudioFormatProperty_BitmapForLayoutTag             = OCA_4CC('b','m','t','g'),
    kAudioFormatProperty_MatrixMixMap                   = OCA_4CC('m','m','a','p'),
    kAudioFormatProperty_ChannelMap                     = OCA_4CC('c','h','m','p'),
    kAudioFormatProperty_NumberOfChannelsForLayout      = OCA_4CC('n','c','h','m'),
    kAudioFormatProperty_AreChannelLayoutsEquivalent    = OCA_4CC('c','h','e','q'),
    kAudioFormatProperty_ChannelLayoutHash              = OCA_4CC('c','h','h','a'),
    kAudioFormatProperty_ValidateChannelLayout          = OCA_4CC('v','a','c','l'),
    kAudioFormatProperty_ChannelLayoutForTag            = OCA_4CC('c','m','p','l'),
    kAudioFormatProperty_TagForChannelLayout            = OCA_4CC('c','m','p','t'),
    kAudioFormatProperty_ChannelLayoutName              = OCA_4CC('l','o','n','m'),
    kAudioFormatProperty_ChannelLayoutSimpleName        = OCA_4CC('l','s','n','m'),
    kAudioFormatProperty_ChannelLayoutForBitmap         = OCA_4CC('c','m','p','b'),
    kAudioFormatProperty_ChannelName                    = OCA_4CC('c','n','a','m'),
    kAudioFormatProperty_ChannelShortName               = OCA_4CC('c','s','n','m'),
    kAudioFormatProperty_TagsForNumberOfChannels        = OCA_4CC('t','a','g','c'),
    kAudioFormatProperty_PanningMatrix                  = OCA_4CC('p','a','n','m'),
    kAudioFormatProperty_BalanceFade                    = OCA_4CC('b','a','l','f'),
    kAudioFormatProperty_ID3TagSize                     = OCA_4CC('i','d','3','s'),
    kAudioFormatProperty_ID3TagToDictionary             = OCA_4CC('i','d','3','d')
};

CF_ENUM(OSStatus) {
    kAudioFormatUnspecifiedError            = OCA_4CC('w','h','a','t'),
    kAudioFormatUnsupportedPropertyError    = OCA_4CC('p','r','o','p'),
    kAudioFormatBadPropertySizeError        = OCA_4CC('!','s','i','z'),
    kAudioFormatBadSpecifierSizeError       = OCA_4CC('!','s','p','c'),
    kAudioFormatUnsupportedDataFormatError  = OCA_4CC('f','m','t','?'),
    kAudioFormatUnknownFormatError          = OCA_4CC('!','f','m','t')
};

CF_ASSUME_NONNULL_END

#endif
