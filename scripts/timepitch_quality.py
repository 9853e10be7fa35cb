#!/usr/bin/env python3
"""Round-trip speech quality of time stretchers: ours (AudioDSP's TimeStretcher through the `timestretch`
tool), SoundTouch (soundstretch), Sonic and Rubber Band R3.

Speech is synthesised with espeak-ng. Each stretcher changes the tempo by r (r = 2 plays twice as fast),
then by 1/r; the result is aligned with the original (cross-correlation) and scored with STOI and
wide-band PESQ. Run through scripts/timepitch-quality.sh, which installs the tools and builds ours.
Extra arguments after the script name are passed to `timestretch` (to try settings)."""
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly, fftconvolve
from pystoi import stoi
from pesq import pesq

RATES = [0.5, 1.5, 2.0]
TOOL = os.environ.get("TIMESTRETCH", "Benchmarks/.build/release/timestretch")
EXTRA = sys.argv[1:]

TEXTS = [
    ("en-us", "The quick brown fox jumps over the lazy dog. A journey of a thousand miles begins with a single step."),
    ("en-gb+f3", "She sells sea shells by the sea shore, and the shells she sells are surely seashells."),
    ("en-us+m3", "Audio books and recorded lectures are often played faster than they were spoken, without changing the pitch."),
    ("en+f2", "Please call Stella and ask her to bring these things with her from the store: six spoons of fresh snow peas."),
]


def speech(work):
    parts = []
    fs = None
    for i, (voice, text) in enumerate(TEXTS):
        path = os.path.join(work, f"speech{i}.wav")
        subprocess.run(["espeak-ng", "-v", voice, "-s", "160", "-w", path, text], check=True)
        fs, x = wavfile.read(path)
        parts.append(x.astype(np.float32) / 32768)
        parts.append(np.zeros(fs // 4, np.float32))
    return fs, np.concatenate(parts)


def write_wav(path, fs, x):
    wavfile.write(path, fs, np.clip(x * 32767, -32768, 32767).astype(np.int16))


def read_wav(path):
    fs, x = wavfile.read(path)
    if x.dtype == np.int16:
        x = x.astype(np.float32) / 32768
    return fs, x.astype(np.float32)


def ours(x, fs, r, work):
    out = subprocess.run([TOOL, "-r", repr(r), "-c", "1", "-s", str(fs)] + EXTRA,
                         input=x.astype(np.float32).tobytes(), capture_output=True, check=True).stdout
    return np.frombuffer(out, np.float32)


def via_files(command):
    def run(x, fs, r, work):
        src, dst = os.path.join(work, "in.wav"), os.path.join(work, "out.wav")
        write_wav(src, fs, x)
        subprocess.run(command(src, dst, r), check=True, capture_output=True)
        return read_wav(dst)[1]
    return run


PEERS = [
    ("ours", ours),
    ("SoundTouch", via_files(lambda s, d, r: ["soundstretch", s, d, f"-tempo={(r - 1) * 100:.6f}"])),
    ("SoundTouch -speech", via_files(lambda s, d, r: ["soundstretch", s, d, f"-tempo={(r - 1) * 100:.6f}", "-speech"])),
    ("Sonic", via_files(lambda s, d, r: ["sonic", "-s", repr(r), s, d])),
    ("Rubber Band R3", via_files(lambda s, d, r: ["rubberband", "-3", "-q", "-T", repr(r), s, d])),
]


def envelope(x, fs):
    """|x| smoothed over 10 ms: alignment on envelopes is not fooled by peaks a pitch period apart."""
    n = max(1, fs // 100)
    return np.convolve(np.abs(x), np.ones(n) / n, mode="same")


def align(ref, deg, fs, max_lag):
    """deg shifted to best match ref (envelope cross-correlation within ±max_lag), both trimmed to the
    common length."""
    n = min(len(ref), len(deg))
    a, b = envelope(ref[:n], fs), envelope(deg[:n], fs)
    a, b = a - a.mean(), b - b.mean()
    c = fftconvolve(b, a[::-1], mode="full")
    mid = n - 1
    window = c[mid - max_lag: mid + max_lag + 1]
    lag = int(np.argmax(window)) - max_lag
    if lag > 0:
        deg = deg[lag:]
    elif lag < 0:
        deg = np.concatenate([np.zeros(-lag, np.float32), deg])
    n = min(len(ref), len(deg))
    return ref[:n], deg[:n], lag


def scores(ref, deg, fs):
    ref, deg, lag = align(ref, deg, fs, fs // 10)
    s = stoi(ref, deg, fs, extended=False)
    r16 = resample_poly(ref, 16000, fs)
    d16 = resample_poly(deg, 16000, fs)
    try:
        p = pesq(16000, r16, d16, "wb")
    except Exception:
        p = float("nan")
    return s, p, lag


def main():
    with tempfile.TemporaryDirectory() as work:
        fs, x = speech(work)
        print(f"speech: {len(x) / fs:.1f} s at {fs} Hz (espeak-ng, 4 voices); round trip = tempo r, then 1/r")
        print(f"{'stretcher':<20}" + "".join(f"{f'{r}x STOI':>11}{f'{r}x PESQ':>11}" for r in RATES))
        only = os.environ.get("ONLY")
        for name, fn in PEERS:
            if only and name not in only.split(","):
                continue
            row = f"{name:<20}"
            for r in RATES:
                try:
                    y = fn(x, fs, r, work)
                    z = fn(y, fs, 1 / r, work)
                    s, p, _ = scores(x, z, fs)
                    row += f"{s:11.3f}{p:11.2f}"
                except Exception as e:  # a missing peer leaves its row empty
                    row += f"{'-':>11}{'-':>11}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
