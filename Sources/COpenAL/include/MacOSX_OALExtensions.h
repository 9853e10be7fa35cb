#ifndef COPENAL_MACOSX_OALEXTENSIONS_H
#define COPENAL_MACOSX_OALEXTENSIONS_H
/* Apple's OpenAL extensions (MacOSX_OALExtensions.h): the proc-pointer types alGetProcAddress hands back. */
#include "al.h"
#include "alc.h"

typedef ALvoid (*alcMacOSXMixerOutputRateProcPtr)(const ALdouble value);
typedef ALdouble (*alcMacOSXGetMixerOutputRateProcPtr)(void);
typedef ALvoid (*alBufferDataStaticProcPtr)(const ALint bid, ALenum format, const ALvoid *data, ALsizei size, ALsizei freq);

#endif
