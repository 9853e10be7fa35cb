#ifndef COPENAL_MACOSX_OALEXTENSIONS_H
#define COPENAL_MACOSX_OALEXTENSIONS_H
/* Apple's OpenAL extensions (MacOSX_OALExtensions.h): the proc-pointer types alGetProcAddress hands back. */
#include "al.h"
#include "alc.h"

/* Constants Apple's implementation keeps defining for applications built against its older headers. */
#define ALC_SPATIAL_RENDERING_QUALITY        0xF002
#define ALC_MIXER_OUTPUT_RATE                0xF003
#define ALC_MIXER_MAXIMUM_BUSSES             0xF004
#define ALC_RENDER_CHANNEL_COUNT             0xF005

/* alcMacOSXRenderingQuality's values: HIGH and HEADPHONES render with HRTF, LOW pans (the default). */
#define ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_HIGH      0x72716869 /* 'rqhi' */
#define ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW       0x72646C6F /* 'rdlo' */
#define ALC_IPHONE_SPATIAL_RENDERING_QUALITY_HEADPHONES 0x68647068 /* 'hdph' */
#define ALC_MAC_OSX_RENDER_CHANNEL_COUNT_STEREO         0x72637374 /* 'rcst' */

typedef ALvoid (*alcMacOSXRenderingQualityProcPtr)(ALint value);
typedef ALint (*alcMacOSXGetRenderingQualityProcPtr)(void);
typedef ALvoid (*alcMacOSXMixerOutputRateProcPtr)(const ALdouble value);
typedef ALdouble (*alcMacOSXGetMixerOutputRateProcPtr)(void);
typedef ALvoid (*alBufferDataStaticProcPtr)(const ALint bid, ALenum format, const ALvoid *data, ALsizei size, ALsizei freq);

#endif
