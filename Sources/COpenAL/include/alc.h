#ifndef AL_ALC_H
#define AL_ALC_H
/* OpenAL 1.1 (alc.h): types and constants with the standard values, plus openal-soft's ALC_SOFT_loopback
   constants. The functions are implemented by the Swift module OpenAL. */

#define ALC_VERSION_0_1 1

typedef struct ALCdevice ALCdevice;
typedef struct ALCcontext ALCcontext;

typedef char ALCboolean;
typedef char ALCchar;
typedef signed char ALCbyte;
typedef unsigned char ALCubyte;
typedef short ALCshort;
typedef unsigned short ALCushort;
typedef int ALCint;
typedef unsigned int ALCuint;
typedef int ALCsizei;
typedef int ALCenum;
typedef float ALCfloat;
typedef double ALCdouble;
typedef void ALCvoid;

#define ALC_FALSE                         0
#define ALC_TRUE                          1

#define ALC_FREQUENCY                     0x1007
#define ALC_REFRESH                       0x1008
#define ALC_SYNC                          0x1009
#define ALC_MONO_SOURCES                  0x1010
#define ALC_STEREO_SOURCES                0x1011

#define ALC_NO_ERROR                      0
#define ALC_INVALID_DEVICE                0xA001
#define ALC_INVALID_CONTEXT               0xA002
#define ALC_INVALID_ENUM                  0xA003
#define ALC_INVALID_VALUE                 0xA004
#define ALC_OUT_OF_MEMORY                 0xA005

#define ALC_MAJOR_VERSION                 0x1000
#define ALC_MINOR_VERSION                 0x1001
#define ALC_ATTRIBUTES_SIZE               0x1002
#define ALC_ALL_ATTRIBUTES                0x1003

#define ALC_DEFAULT_DEVICE_SPECIFIER      0x1004
#define ALC_DEVICE_SPECIFIER              0x1005
#define ALC_EXTENSIONS                    0x1006

/* ALC_EXT_CAPTURE */
#define ALC_EXT_CAPTURE 1
#define ALC_CAPTURE_DEVICE_SPECIFIER      0x310
#define ALC_CAPTURE_DEFAULT_DEVICE_SPECIFIER 0x311
#define ALC_CAPTURE_SAMPLES               0x312

/* ALC_ENUMERATE_ALL_EXT */
#define ALC_ENUMERATE_ALL_EXT 1
#define ALC_DEFAULT_ALL_DEVICES_SPECIFIER 0x1012
#define ALC_ALL_DEVICES_SPECIFIER         0x1013

/* ALC_SOFT_loopback (openal-soft's values) */
#define ALC_SOFT_loopback 1
#define ALC_FORMAT_CHANNELS_SOFT          0x1990
#define ALC_FORMAT_TYPE_SOFT              0x1991
#define ALC_BYTE_SOFT                     0x1400
#define ALC_UNSIGNED_BYTE_SOFT            0x1401
#define ALC_SHORT_SOFT                    0x1402
#define ALC_UNSIGNED_SHORT_SOFT           0x1403
#define ALC_INT_SOFT                      0x1404
#define ALC_UNSIGNED_INT_SOFT             0x1405
#define ALC_FLOAT_SOFT                    0x1406
#define ALC_MONO_SOFT                     0x1500
#define ALC_STEREO_SOFT                   0x1501
#define ALC_QUAD_SOFT                     0x1503
#define ALC_5POINT1_SOFT                  0x1504
#define ALC_6POINT1_SOFT                  0x1505
#define ALC_7POINT1_SOFT                  0x1506

/* ALC_SOFT_HRTF (openal-soft's values): HRTF rendering asked for per context */
#define ALC_SOFT_HRTF 1
#define ALC_HRTF_SOFT                     0x1992
#define ALC_DONT_CARE_SOFT                0x0002
#define ALC_HRTF_STATUS_SOFT              0x1993
#define ALC_HRTF_DISABLED_SOFT            0x0000
#define ALC_HRTF_ENABLED_SOFT             0x0001
#define ALC_HRTF_DENIED_SOFT              0x0002
#define ALC_HRTF_REQUIRED_SOFT            0x0003
#define ALC_HRTF_HEADPHONES_DETECTED_SOFT 0x0004
#define ALC_HRTF_UNSUPPORTED_FORMAT_SOFT  0x0005
#define ALC_NUM_HRTF_SPECIFIERS_SOFT      0x1994
#define ALC_HRTF_SPECIFIER_SOFT           0x1995
#define ALC_HRTF_ID_SOFT                  0x1996
typedef const ALCchar *(*LPALCGETSTRINGISOFT)(ALCdevice *device, ALCenum paramName, ALCsizei index);
typedef ALCboolean (*LPALCRESETDEVICESOFT)(ALCdevice *device, const ALCint *attribs);

#endif
