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

typedef ALvoid (*alcMacOSXMixerOutputRateProcPtr)(const ALdouble value);
typedef ALdouble (*alcMacOSXGetMixerOutputRateProcPtr)(void);
typedef ALvoid (*alBufferDataStaticProcPtr)(const ALint bid, ALenum format, const ALvoid *data, ALsizei size, ALsizei freq);

#endif
