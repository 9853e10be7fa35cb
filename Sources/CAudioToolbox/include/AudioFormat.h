// Audio Format Services (AudioFormat.h): property IDs, errors, and the structs their specifiers use.
#ifndef OCA_AUDIOFORMAT_H
#define OCA_AUDIOFORMAT_H

#include <CCoreAudioTypes.h>

CF_ASSUME_NONNULL_BEGIN

typedef enum OCA_ENUM_ATTR AudioPanningMode : uint32_t {
    kPanningMode_SoundField             = 3,
    kPanningMode_VectorBasedPanning     = 4
} AudioPanningMode;

/// kAudioFormatProperty_PanningMatrix's specifier.
struct AudioPanningInfo {
    AudioPanningMode            mPanningMode;
    uint32_t                    mCoordinateFlags;
    float                       mCoordinates[3];
    float                       mGainScale;
    const AudioChannelLayout *  mOutputChannelMap;
};
typedef struct AudioPanningInfo AudioPanningInfo;

typedef enum OCA_ENUM_ATTR AudioBalanceFadeType : uint32_t {
    kAudioBalanceFadeType_MaxUnityGain  = 0,
    kAudioBalanceFadeType_EqualPower    = 1
} AudioBalanceFadeType;

/// kAudioFormatProperty_BalanceFade's specifier.
struct AudioBalanceFade {
    float                       mLeftRightBalance;
    float                       mBackFrontFade;
    AudioBalanceFadeType        mType;
    const AudioChannelLayout *  mChannelLayout;
};
typedef struct AudioBalanceFade AudioBalanceFade;

/// kAudioFormatProperty_FormatList's specifier: a format and its magic cookie.
struct AudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void *                mMagicCookie;
    uint32_t                    mMagicCookieSize;
};
typedef struct AudioFormatInfo AudioFormatInfo;

/// As AudioFormatInfo, naming the codec that answers.
struct ExtendedAudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void * _Nullable      mMagicCookie;
    uint32_t                    mMagicCookieSize;
    AudioClassDescription       mClassDescription;
};
typedef struct ExtendedAudioFormatInfo ExtendedAudioFormatInfo;


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

CF_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_HardwareCodecCapabilities = OCA_4CC('h','w','c','c')
};

// The manufacturers of Apple's codecs (the hardware one is never found here: there is no codec hardware).
CF_ENUM(uint32_t) {
    kAppleHardwareAudioCodecManufacturer = OCA_4CC('a','p','h','w'),
    kAppleSoftwareAudioCodecManufacturer = OCA_4CC('a','p','p','l')
};

CF_ASSUME_NONNULL_END

#endif
