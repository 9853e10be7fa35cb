#!/usr/bin/env python3
"""Renders OpenAL scenes with openal-soft (Debian's libopenal1) through its loopback device and prints the
measured gains as JSON, so that a test can put our OpenAL beside an independent implementation.

    scripts/openal-soft-scene.py distance   # each distance model at the distances the test uses
    scripts/openal-soft-scene.py cone       # a directional source's gain at angles around it

Every level is the RMS of a 441 Hz tone over 4,000 frames (40 whole periods) after 8,192 frames of settling (openal-soft ramps gain
changes), divided by the level with the distance model off: the attenuation alone, whatever the panning law."""
import ctypes, ctypes.util, json, math, sys

lib = ctypes.CDLL("libopenal.so.1")
c_int, c_uint, c_float, c_void_p, c_char_p = ctypes.c_int, ctypes.c_uint, ctypes.c_float, ctypes.c_void_p, ctypes.c_char_p
for name, restype, argtypes in [
    ("alcGetProcAddress", c_void_p, [c_void_p, c_char_p]), ("alcCreateContext", c_void_p, [c_void_p, ctypes.POINTER(c_int)]),
    ("alcMakeContextCurrent", ctypes.c_char, [c_void_p]), ("alcDestroyContext", None, [c_void_p]),
    ("alcCloseDevice", ctypes.c_char, [c_void_p]), ("alGenBuffers", None, [c_int, ctypes.POINTER(c_uint)]),
    ("alBufferData", None, [c_uint, c_int, c_void_p, c_int, c_int]), ("alGenSources", None, [c_int, ctypes.POINTER(c_uint)]),
    ("alSourcei", None, [c_uint, c_int, c_int]), ("alSourcef", None, [c_uint, c_int, c_float]),
    ("alSource3f", None, [c_uint, c_int, c_float, c_float, c_float]), ("alSourcePlay", None, [c_uint]),
    ("alDistanceModel", None, [c_int]), ("alGetError", c_int, []), ("alGetString", c_char_p, [c_int]),
]:
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, argtypes

AL_NONE, AL_POSITION, AL_DIRECTION, AL_LOOPING, AL_BUFFER, AL_GAIN = 0, 0x1004, 0x1005, 0x1007, 0x1009, 0x100A
AL_REFERENCE_DISTANCE, AL_ROLLOFF_FACTOR, AL_MAX_DISTANCE = 0x1020, 0x1021, 0x1023
AL_CONE_INNER_ANGLE, AL_CONE_OUTER_ANGLE, AL_CONE_OUTER_GAIN = 0x1001, 0x1002, 0x1022
AL_FORMAT_MONO_FLOAT32, AL_VERSION = 0x10010, 0xB002
MODELS = {"INVERSE_DISTANCE": 0xD001, "INVERSE_DISTANCE_CLAMPED": 0xD002, "LINEAR_DISTANCE": 0xD003,
          "LINEAR_DISTANCE_CLAMPED": 0xD004, "EXPONENT_DISTANCE": 0xD005, "EXPONENT_DISTANCE_CLAMPED": 0xD006}
ALC_FREQUENCY, ALC_FORMAT_CHANNELS_SOFT, ALC_FORMAT_TYPE_SOFT = 0x1007, 0x1990, 0x1991
ALC_STEREO_SOFT, ALC_FLOAT_SOFT, ALC_HRTF_SOFT = 0x1501, 0x1406, 0x1992
RATE = 44100

open_loopback = ctypes.CFUNCTYPE(c_void_p, c_char_p)(lib.alcGetProcAddress(None, b"alcLoopbackOpenDeviceSOFT"))
render = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_int)(lib.alcGetProcAddress(None, b"alcRenderSamplesSOFT"))
device = open_loopback(None)
attributes = (c_int * 9)(ALC_FREQUENCY, RATE, ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                         ALC_HRTF_SOFT, 0, 0)
context = lib.alcCreateContext(device, attributes)
lib.alcMakeContextCurrent(context)

tone = (c_float * RATE)(*[0.25 * math.sin(2 * math.pi * 441 * n / RATE) for n in range(RATE)])
buffer, source = c_uint(), c_uint()
lib.alGenBuffers(1, ctypes.byref(buffer))
lib.alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, tone, RATE * 4, RATE)
lib.alGenSources(1, ctypes.byref(source))
lib.alSourcei(source, AL_BUFFER, buffer.value)
lib.alSourcei(source, AL_LOOPING, 1)
lib.alSource3f(source, AL_POSITION, 0, 0, -1)
lib.alSourcePlay(source)
scratch = (c_float * (2 * 8192))()

def level():
    render(device, scratch, 8192)
    render(device, scratch, 4000)
    return math.sqrt(sum(scratch[i] * scratch[i] for i in range(2 * 4000)) / (2 * 4000))

result = {"version": lib.alGetString(AL_VERSION).decode()}
if sys.argv[1:] == ["distance"]:
    reference, rolloff, maximum = 2.0, 1.5, 30.0
    lib.alSourcef(source, AL_REFERENCE_DISTANCE, reference)
    lib.alSourcef(source, AL_ROLLOFF_FACTOR, rolloff)
    lib.alSourcef(source, AL_MAX_DISTANCE, maximum)
    distances = [1, 1.5, 2, 3, 5, 8, 12, 20, 30, 45]
    for model, value in MODELS.items():
        gains = []
        for d in distances:
            lib.alSource3f(source, AL_POSITION, 0, 0, -d)
            lib.alDistanceModel(AL_NONE)
            unity = level()
            lib.alDistanceModel(value)
            gains.append(level() / unity)
        result[model] = gains
elif sys.argv[1:] == ["cone"]:
    # A source 1 m ahead pointing at angle a away from the listener: inner 60, outer 180, outer gain 0.25.
    lib.alDistanceModel(AL_NONE)
    lib.alSourcef(source, AL_CONE_INNER_ANGLE, 60)
    lib.alSourcef(source, AL_CONE_OUTER_ANGLE, 180)
    lib.alSourcef(source, AL_CONE_OUTER_GAIN, 0.25)
    lib.alSource3f(source, AL_DIRECTION, 0, 0, 1)
    unity = level()
    gains = []
    for angle in [0, 20, 30, 45, 60, 75, 90, 120, 180]:
        r = math.radians(angle)
        lib.alSource3f(source, AL_DIRECTION, math.sin(r), 0, math.cos(r))
        gains.append(level() / unity)
    result["cone"] = gains
else:
    sys.exit(__doc__)
result["error"] = lib.alGetError()
lib.alcMakeContextCurrent(None)
lib.alcDestroyContext(context)
lib.alcCloseDevice(device)
print(json.dumps(result))
