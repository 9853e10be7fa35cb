#ifndef AL_AL_H
#define AL_AL_H
/* OpenAL 1.1 (al.h): types and constants with the standard values (as Apple's OpenAL.framework and
   openal-soft define them). The functions are implemented by the Swift module OpenAL. */

#define AL_VERSION_1_0
#define AL_VERSION_1_1

typedef char ALboolean;
typedef char ALchar;
typedef signed char ALbyte;
typedef unsigned char ALubyte;
typedef short ALshort;
typedef unsigned short ALushort;
typedef int ALint;
typedef unsigned int ALuint;
typedef int ALsizei;
typedef int ALenum;
typedef float ALfloat;
typedef double ALdouble;
typedef void ALvoid;

#define AL_INVALID                        (-1)
#define AL_ILLEGAL_ENUM                   AL_INVALID_ENUM
#define AL_ILLEGAL_COMMAND                AL_INVALID_OPERATION

#define AL_NONE                           0
#define AL_FALSE                          0
#define AL_TRUE                           1

#define AL_SOURCE_RELATIVE                0x202
#define AL_CONE_INNER_ANGLE               0x1001
#define AL_CONE_OUTER_ANGLE               0x1002
#define AL_PITCH                          0x1003
#define AL_POSITION                       0x1004
#define AL_DIRECTION                      0x1005
#define AL_VELOCITY                       0x1006
#define AL_LOOPING                        0x1007
#define AL_BUFFER                         0x1009
#define AL_GAIN                           0x100A
#define AL_MIN_GAIN                       0x100D
#define AL_MAX_GAIN                       0x100E
#define AL_ORIENTATION                    0x100F
#define AL_SOURCE_STATE                   0x1010
#define AL_INITIAL                        0x1011
#define AL_PLAYING                        0x1012
#define AL_PAUSED                         0x1013
#define AL_STOPPED                        0x1014
#define AL_BUFFERS_QUEUED                 0x1015
#define AL_BUFFERS_PROCESSED              0x1016
#define AL_REFERENCE_DISTANCE             0x1020
#define AL_ROLLOFF_FACTOR                 0x1021
#define AL_CONE_OUTER_GAIN                0x1022
#define AL_MAX_DISTANCE                   0x1023
#define AL_SEC_OFFSET                     0x1024
#define AL_SAMPLE_OFFSET                  0x1025
#define AL_BYTE_OFFSET                    0x1026
#define AL_SOURCE_TYPE                    0x1027
#define AL_STATIC                         0x1028
#define AL_STREAMING                      0x1029
#define AL_UNDETERMINED                   0x1030

#define AL_FORMAT_MONO8                   0x1100
#define AL_FORMAT_MONO16                  0x1101
#define AL_FORMAT_STEREO8                 0x1102
#define AL_FORMAT_STEREO16                0x1103

/* AL_EXT_float32 */
#define AL_EXT_float32 1
#define AL_FORMAT_MONO_FLOAT32            0x10010
#define AL_FORMAT_STEREO_FLOAT32          0x10011

#define AL_FREQUENCY                      0x2001
#define AL_BITS                           0x2002
#define AL_CHANNELS                       0x2003
#define AL_SIZE                           0x2004
#define AL_UNUSED                         0x2010
#define AL_PENDING                        0x2011
#define AL_PROCESSED                      0x2012

#define AL_NO_ERROR                       0
#define AL_INVALID_NAME                   0xA001
#define AL_INVALID_ENUM                   0xA002
#define AL_INVALID_VALUE                  0xA003
#define AL_INVALID_OPERATION              0xA004
#define AL_OUT_OF_MEMORY                  0xA005

#define AL_VENDOR                         0xB001
#define AL_VERSION                        0xB002
#define AL_RENDERER                       0xB003
#define AL_EXTENSIONS                     0xB004

#define AL_DOPPLER_FACTOR                 0xC000
#define AL_DOPPLER_VELOCITY               0xC001
#define AL_SPEED_OF_SOUND                 0xC003

#define AL_DISTANCE_MODEL                 0xD000
#define AL_INVERSE_DISTANCE               0xD001
#define AL_INVERSE_DISTANCE_CLAMPED       0xD002
#define AL_LINEAR_DISTANCE                0xD003
#define AL_LINEAR_DISTANCE_CLAMPED        0xD004
#define AL_EXPONENT_DISTANCE              0xD005
#define AL_EXPONENT_DISTANCE_CLAMPED      0xD006

#endif
