// Channel layouts (CoreAudioBaseTypes.h): the structures and the common tags and labels.
#ifndef OCA_AUDIOCHANNELLAYOUT_H
#define OCA_AUDIOCHANNELLAYOUT_H

#include "CoreAudioBaseTypes.h"

CF_ASSUME_NONNULL_BEGIN

typedef uint32_t AudioChannelLabel;
typedef uint32_t AudioChannelLayoutTag;

CF_ENUM(AudioChannelLabel) {
    kAudioChannelLabel_Unknown              = 0xFFFFFFFF,
    kAudioChannelLabel_Unused               = 0,
    kAudioChannelLabel_UseCoordinates       = 100,
    kAudioChannelLabel_Left                 = 1,
    kAudioChannelLabel_Right                = 2,
    kAudioChannelLabel_Center               = 3,
    kAudioChannelLabel_LFEScreen            = 4,
    kAudioChannelLabel_LeftSurround         = 5,
    kAudioChannelLabel_RightSurround        = 6,
    kAudioChannelLabel_LeftCenter           = 7,
    kAudioChannelLabel_RightCenter          = 8,
    kAudioChannelLabel_CenterSurround       = 9,
    kAudioChannelLabel_LeftSurroundDirect   = 10,
    kAudioChannelLabel_RightSurroundDirect  = 11,
    kAudioChannelLabel_TopCenterSurround    = 12,
    kAudioChannelLabel_VerticalHeightLeft   = 13,
    kAudioChannelLabel_VerticalHeightCenter = 14,
    kAudioChannelLabel_VerticalHeightRight  = 15,
    kAudioChannelLabel_TopBackLeft          = 16,
    kAudioChannelLabel_TopBackCenter        = 17,
    kAudioChannelLabel_TopBackRight         = 18,
    kAudioChannelLabel_RearSurroundLeft     = 33,
    kAudioChannelLabel_RearSurroundRight    = 34,
    kAudioChannelLabel_LeftWide             = 35,
    kAudioChannelLabel_RightWide            = 36,
    kAudioChannelLabel_LFE2                 = 37,
    kAudioChannelLabel_LeftTotal            = 38,
    kAudioChannelLabel_RightTotal           = 39,
    kAudioChannelLabel_HearingImpaired      = 40,
    kAudioChannelLabel_Narration            = 41,
    kAudioChannelLabel_Mono                 = 42,
    kAudioChannelLabel_DialogCentricMix     = 43,
    kAudioChannelLabel_CenterSurroundDirect = 44,
    kAudioChannelLabel_Haptic               = 45,
    kAudioChannelLabel_Ambisonic_W          = 200,
    kAudioChannelLabel_Ambisonic_X          = 201,
    kAudioChannelLabel_Ambisonic_Y          = 202,
    kAudioChannelLabel_Ambisonic_Z          = 203,
    kAudioChannelLabel_MS_Mid               = 204,
    kAudioChannelLabel_MS_Side              = 205,
    kAudioChannelLabel_XY_X                 = 206,
    kAudioChannelLabel_XY_Y                 = 207,
    kAudioChannelLabel_HeadphonesLeft       = 301,
    kAudioChannelLabel_HeadphonesRight      = 302,
    kAudioChannelLabel_ClickTrack           = 304,
    kAudioChannelLabel_ForeignLanguage      = 305,
    kAudioChannelLabel_Discrete             = 400,
    kAudioChannelLabel_Discrete_0           = (1U << 16) | 0,
    kAudioChannelLabel_Discrete_1           = (1U << 16) | 1,
    kAudioChannelLabel_Discrete_2           = (1U << 16) | 2,
    kAudioChannelLabel_Discrete_3           = (1U << 16) | 3,
    kAudioChannelLabel_Discrete_4           = (1U << 16) | 4,
    kAudioChannelLabel_Discrete_5           = (1U << 16) | 5,
    kAudioChannelLabel_Discrete_6           = (1U << 16) | 6,
    kAudioChannelLabel_Discrete_7           = (1U << 16) | 7,
    kAudioChannelLabel_Discrete_8           = (1U << 16) | 8,
    kAudioChannelLabel_Discrete_9           = (1U << 16) | 9,
    kAudioChannelLabel_Discrete_10          = (1U << 16) | 10,
    kAudioChannelLabel_Discrete_11          = (1U << 16) | 11,
    kAudioChannelLabel_Discrete_12          = (1U << 16) | 12,
    kAudioChannelLabel_Discrete_13          = (1U << 16) | 13,
    kAudioChannelLabel_Discrete_14          = (1U << 16) | 14,
    kAudioChannelLabel_Discrete_15          = (1U << 16) | 15,
    kAudioChannelLabel_Discrete_65535       = (1U << 16) | 65535
};

typedef enum OCA_OPTIONS_ATTR AudioChannelBitmap : uint32_t {
    kAudioChannelBit_Left                   = (1U << 0),
    kAudioChannelBit_Right                  = (1U << 1),
    kAudioChannelBit_Center                 = (1U << 2),
    kAudioChannelBit_LFEScreen              = (1U << 3),
    kAudioChannelBit_LeftSurround           = (1U << 4),
    kAudioChannelBit_RightSurround          = (1U << 5),
    kAudioChannelBit_LeftCenter             = (1U << 6),
    kAudioChannelBit_RightCenter            = (1U << 7),
    kAudioChannelBit_CenterSurround         = (1U << 8),
    kAudioChannelBit_LeftSurroundDirect     = (1U << 9),
    kAudioChannelBit_RightSurroundDirect    = (1U << 10),
    kAudioChannelBit_TopCenterSurround      = (1U << 11),
    kAudioChannelBit_VerticalHeightLeft     = (1U << 12),
    kAudioChannelBit_VerticalHeightCenter   = (1U << 13),
    kAudioChannelBit_VerticalHeightRight    = (1U << 14),
    kAudioChannelBit_TopBackLeft            = (1U << 15),
    kAudioChannelBit_TopBackCenter          = (1U << 16),
    kAudioChannelBit_TopBackRight           = (1U << 17),
    kAudioChannelBit_LeftTopFront           = kAudioChannelBit_VerticalHeightLeft,
    kAudioChannelBit_CenterTopFront         = kAudioChannelBit_VerticalHeightCenter,
    kAudioChannelBit_RightTopFront          = kAudioChannelBit_VerticalHeightRight,
    kAudioChannelBit_LeftTopMiddle          = (1U << 21),
    kAudioChannelBit_CenterTopMiddle        = kAudioChannelBit_TopCenterSurround,
    kAudioChannelBit_RightTopMiddle         = (1U << 23),
    kAudioChannelBit_LeftTopRear            = (1U << 24),
    kAudioChannelBit_CenterTopRear          = (1U << 25),
    kAudioChannelBit_RightTopRear           = (1U << 26)
} AudioChannelBitmap;

typedef enum OCA_OPTIONS_ATTR AudioChannelFlags : uint32_t {
    kAudioChannelFlags_AllOff                   = 0,
    kAudioChannelFlags_RectangularCoordinates   = (1U << 0),
    kAudioChannelFlags_SphericalCoordinates     = (1U << 1),
    kAudioChannelFlags_Meters                   = (1U << 2)
} AudioChannelFlags;

typedef enum OCA_ENUM_ATTR AudioChannelCoordinateIndex : uint32_t {
    kAudioChannelCoordinates_LeftRight  = 0,
    kAudioChannelCoordinates_BackFront  = 1,
    kAudioChannelCoordinates_DownUp     = 2,
    kAudioChannelCoordinates_Azimuth    = 0,
    kAudioChannelCoordinates_Elevation  = 1,
    kAudioChannelCoordinates_Distance   = 2
} AudioChannelCoordinateIndex;

#define OCA_LAYOUT(index, channels) ((((uint32_t)(index)) << 16) | (uint32_t)(channels))

CF_ENUM(AudioChannelLayoutTag) {
    kAudioChannelLayoutTag_UseChannelDescriptions   = OCA_LAYOUT(0, 0),
    kAudioChannelLayoutTag_UseChannelBitmap         = OCA_LAYOUT(1, 0),
    kAudioChannelLayoutTag_Mono                     = OCA_LAYOUT(100, 1),
    kAudioChannelLayoutTag_Stereo                   = OCA_LAYOUT(101, 2),
    kAudioChannelLayoutTag_StereoHeadphones         = OCA_LAYOUT(102, 2),
    kAudioChannelLayoutTag_MatrixStereo             = OCA_LAYOUT(103, 2),
    kAudioChannelLayoutTag_MidSide                  = OCA_LAYOUT(104, 2),
    kAudioChannelLayoutTag_XY                       = OCA_LAYOUT(105, 2),
    kAudioChannelLayoutTag_Binaural                 = OCA_LAYOUT(106, 2),
    kAudioChannelLayoutTag_Ambisonic_B_Format       = OCA_LAYOUT(107, 4),
    kAudioChannelLayoutTag_Quadraphonic             = OCA_LAYOUT(108, 4),
    kAudioChannelLayoutTag_Pentagonal               = OCA_LAYOUT(109, 5),
    kAudioChannelLayoutTag_Hexagonal                = OCA_LAYOUT(110, 6),
    kAudioChannelLayoutTag_Octagonal                = OCA_LAYOUT(111, 8),
    kAudioChannelLayoutTag_Cube                     = OCA_LAYOUT(112, 8),
    kAudioChannelLayoutTag_MPEG_1_0                 = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_MPEG_2_0                 = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_MPEG_3_0_A               = OCA_LAYOUT(113, 3),
    kAudioChannelLayoutTag_MPEG_3_0_B               = OCA_LAYOUT(114, 3),
    kAudioChannelLayoutTag_MPEG_4_0_A               = OCA_LAYOUT(115, 4),
    kAudioChannelLayoutTag_MPEG_4_0_B               = OCA_LAYOUT(116, 4),
    kAudioChannelLayoutTag_MPEG_5_0_A               = OCA_LAYOUT(117, 5),
    kAudioChannelLayoutTag_MPEG_5_0_B               = OCA_LAYOUT(118, 5),
    kAudioChannelLayoutTag_MPEG_5_0_C               = OCA_LAYOUT(119, 5),
    kAudioChannelLayoutTag_MPEG_5_0_D               = OCA_LAYOUT(120, 5),
    kAudioChannelLayoutTag_MPEG_5_1_A               = OCA_LAYOUT(121, 6),
    kAudioChannelLayoutTag_MPEG_5_1_B               = OCA_LAYOUT(122, 6),
    kAudioChannelLayoutTag_MPEG_5_1_C               = OCA_LAYOUT(123, 6),
    kAudioChannelLayoutTag_MPEG_5_1_D               = OCA_LAYOUT(124, 6),
    kAudioChannelLayoutTag_MPEG_6_1_A               = OCA_LAYOUT(125, 7),
    kAudioChannelLayoutTag_MPEG_7_1_A               = OCA_LAYOUT(126, 8),
    kAudioChannelLayoutTag_MPEG_7_1_B               = OCA_LAYOUT(127, 8),
    kAudioChannelLayoutTag_MPEG_7_1_C               = OCA_LAYOUT(128, 8),
    kAudioChannelLayoutTag_Emagic_Default_7_1       = OCA_LAYOUT(129, 8),
    kAudioChannelLayoutTag_SMPTE_DTV                = OCA_LAYOUT(130, 8),
    kAudioChannelLayoutTag_ITU_1_0                  = kAudioChannelLayoutTag_Mono,
    kAudioChannelLayoutTag_ITU_2_0                  = kAudioChannelLayoutTag_Stereo,
    kAudioChannelLayoutTag_ITU_2_1                  = OCA_LAYOUT(131, 3),
    kAudioChannelLayoutTag_ITU_2_2                  = OCA_LAYOUT(132, 4),
    kAudioChannelLayoutTag_ITU_3_0                  = kAudioChannelLayoutTag_MPEG_3_0_A,
    kAudioChannelLayoutTag_ITU_3_1                  = kAudioChannelLayoutTag_MPEG_4_0_A,
    kAudioChannelLayoutTag_ITU_3_2                  = kAudioChannelLayoutTag_MPEG_5_0_A,
    kAudioChannelLayoutTag_ITU_3_2_1                = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_ITU_3_4_1                = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_AudioUnit_4              = kAudioChannelLayoutTag_Quadraphonic,
    kAudioChannelLayoutTag_AudioUnit_5              = kAudioChannelLayoutTag_Pentagonal,
    kAudioChannelLayoutTag_AudioUnit_6              = kAudioChannelLayoutTag_Hexagonal,
    kAudioChannelLayoutTag_AudioUnit_8              = kAudioChannelLayoutTag_Octagonal,
    kAudioChannelLayoutTag_AudioUnit_5_0            = kAudioChannelLayoutTag_MPEG_5_0_B,
    kAudioChannelLayoutTag_AudioUnit_6_0            = OCA_LAYOUT(139, 6),
    kAudioChannelLayoutTag_AudioUnit_7_0            = OCA_LAYOUT(140, 7),
    kAudioChannelLayoutTag_AudioUnit_7_0_Front      = OCA_LAYOUT(148, 7),
    kAudioChannelLayoutTag_AudioUnit_5_1            = kAudioChannelLayoutTag_MPEG_5_1_A,
    kAudioChannelLayoutTag_AudioUnit_6_1            = kAudioChannelLayoutTag_MPEG_6_1_A,
    kAudioChannelLayoutTag_AudioUnit_7_1            = kAudioChannelLayoutTag_MPEG_7_1_C,
    kAudioChannelLayoutTag_AudioUnit_7_1_Front      = kAudioChannelLayoutTag_MPEG_7_1_A,
    kAudioChannelLayoutTag_DiscreteInOrder          = OCA_LAYOUT(147, 0),
    kAudioChannelLayoutTag_Unknown                  = 0xFFFF0000
};

struct AudioChannelDescription {
    AudioChannelLabel mChannelLabel;
    AudioChannelFlags mChannelFlags;
    float mCoordinates[3];
};
typedef struct AudioChannelDescription AudioChannelDescription;

struct AudioChannelLayout {
    AudioChannelLayoutTag mChannelLayoutTag;
    AudioChannelBitmap mChannelBitmap;
    uint32_t mNumberChannelDescriptions;
    AudioChannelDescription mChannelDescriptions[1]; // variable length
};
typedef struct AudioChannelLayout AudioChannelLayout;

CF_ASSUME_NONNULL_END

#endif
