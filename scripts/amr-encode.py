#!/usr/bin/env python3
"""Writes a .amr file (RFC 4867 storage format) from a mono 16-bit WAV, through ctypes: opencore-amrnb's
encoder for narrowband (8 kHz input), libvo-amrwbenc's for wideband (16 kHz input). The tests make their AMR
inputs with it, independently of the decoder under test (no Debian tool writes .amr files).
Usage: amr-encode.py in.wav out.amr [--wb] [--mode N] [--dtx]"""
import ctypes
import ctypes.util
import sys
import wave


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    wideband = "--wb" in sys.argv
    dtx = 1 if "--dtx" in sys.argv else 0
    mode = 7 if not wideband else 8
    if "--mode" in sys.argv:
        mode = int(sys.argv[sys.argv.index("--mode") + 1])
        args.remove(str(mode))
    source, target = args
    with wave.open(source, "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        pcm = w.readframes(w.getnframes())
    expected = 16000 if wideband else 8000
    if (rate, channels, width) != (expected, 1, 2):
        sys.exit(f"need {expected} Hz mono 16-bit, got {rate} Hz {channels} ch {8 * width}-bit")
    frame = 320 if wideband else 160
    out = ctypes.create_string_buffer(64)
    speech = (ctypes.c_short * frame)()
    data = bytearray(b"#!AMR-WB\n" if wideband else b"#!AMR\n")
    if wideband:
        lib = ctypes.CDLL(ctypes.util.find_library("vo-amrwbenc") or "libvo-amrwbenc.so.0")
        lib.E_IF_init.restype = ctypes.c_void_p
        lib.E_IF_encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
        lib.E_IF_exit.argtypes = [ctypes.c_void_p]
        state = lib.E_IF_init()
        encode = lambda: lib.E_IF_encode(state, mode, speech, out, dtx)
    else:
        lib = ctypes.CDLL(ctypes.util.find_library("opencore-amrnb") or "libopencore-amrnb.so.0")
        lib.Encoder_Interface_init.restype = ctypes.c_void_p
        lib.Encoder_Interface_Encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
        lib.Encoder_Interface_exit.argtypes = [ctypes.c_void_p]
        state = lib.Encoder_Interface_init(dtx)
        encode = lambda: lib.Encoder_Interface_Encode(state, mode, speech, out, 0)
    # Whole 20 ms frames; a short last one is padded with silence.
    for start in range(0, len(pcm), 2 * frame):
        chunk = pcm[start:start + 2 * frame].ljust(2 * frame, b"\0")
        ctypes.memmove(speech, chunk, 2 * frame)
        n = encode()
        if n <= 0:
            sys.exit("encoder failed")
        data += out.raw[:n]
    (lib.E_IF_exit if wideband else lib.Encoder_Interface_exit)(state)
    with open(target, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
