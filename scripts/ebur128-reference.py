#!/usr/bin/env python3
"""Loudness of audio files by libebur128 (Debian's libebur128-1, through ctypes): the independent reference our
BS.1770 meter is compared with. Samples come from sox (32-bit float), so neither our reader nor our meter is used.

    scripts/ebur128-reference.py FILE...   ->  one line per file: integrated LUFS, range LU, true peak dBTP,
                                               sample peak dBFS (tab-separated, -inf when gated out or silent)
"""
import ctypes
import math
import subprocess
import sys

lib = ctypes.CDLL("libebur128.so.1")
lib.ebur128_init.restype = ctypes.c_void_p
lib.ebur128_init.argtypes = [ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
lib.ebur128_add_frames_float.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t]
for name in ("ebur128_loudness_global", "ebur128_loudness_range"):
    getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
for name in ("ebur128_true_peak", "ebur128_sample_peak"):
    getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.POINTER(ctypes.c_double)]
lib.ebur128_destroy.argtypes = [ctypes.POINTER(ctypes.c_void_p)]

# ebur128.h: M = 1, S = 2|M, I = 4|M, LRA = 8|S, SAMPLE_PEAK = 16|M, TRUE_PEAK = 32|M|SAMPLE_PEAK.
MODE = 1 | 3 | 5 | (8 | 3) | (16 | 1) | (32 | 1 | 16)


def soxi(path, flag):
    return subprocess.run(["soxi", flag, path], check=True, capture_output=True, text=True).stdout.strip()


def measure(path):
    channels, rate = int(soxi(path, "-c")), int(float(soxi(path, "-r")))
    raw = subprocess.run(["sox", path, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-"], check=True,
                         capture_output=True).stdout
    frames = len(raw) // (4 * channels)
    state = ctypes.c_void_p(lib.ebur128_init(channels, rate, MODE))
    buffer = (ctypes.c_float * (frames * channels)).from_buffer_copy(raw[:frames * channels * 4])
    assert lib.ebur128_add_frames_float(state, buffer, frames) == 0
    integrated, lra, peak = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    lib.ebur128_loudness_global(state, ctypes.byref(integrated))
    lib.ebur128_loudness_range(state, ctypes.byref(lra))
    true_peak = sample_peak = 0.0
    for c in range(channels):
        lib.ebur128_true_peak(state, c, ctypes.byref(peak))
        true_peak = max(true_peak, peak.value)
        lib.ebur128_sample_peak(state, c, ctypes.byref(peak))
        sample_peak = max(sample_peak, peak.value)
    lib.ebur128_destroy(ctypes.byref(state))

    def db(x):
        return 20 * math.log10(x) if x > 0 else -math.inf
    return integrated.value, lra.value, db(true_peak), db(sample_peak)


for path in sys.argv[1:]:
    print("\t".join(f"{v:.4f}" for v in measure(path)))
