// Audio Converter Services (AudioConverter.h): handles, property IDs, constants, errors and the input
// callback type. Audio Format Services are in AudioFormat.h.
#ifndef OCA_AUDIOCONVERTER_H
#define OCA_AUDIOCONVERTER_H

#include <CCoreAudioTypes.h>
#include "AudioFormat.h"

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

// The legacy input callback of AudioConverterFillBuffer: asked for at least *ioDataSize bytes, it points *outData at
// its input and sets *ioDataSize to how many bytes that is (0 at the end of the stream).
typedef OSStatus (*AudioConverterInputDataProc)(AudioConverterRef inAudioConverter, uint32_t *ioDataSize,
                                                void * _Nonnull * _Nonnull outData, void * _Nullable inUserData);

typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef inAudioConverter,
                                                       uint32_t *ioNumberDataPackets,
                                                       AudioBufferList *ioData,
                                                       AudioStreamPacketDescription * _Nullable * _Nullable outDataPacketDescription,
                                                       void * _Nullable inUserData);

CF_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyCanResumeFromInterruption    = OCA_4CC('c','r','f','i')
};

CF_ASSUME_NONNULL_END

#endif
