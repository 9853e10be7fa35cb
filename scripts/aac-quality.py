#!/usr/bin/env python3
"""AAC quality: our AAC-LC encoder (afconvert -d aac -b RATE) beside FFmpeg's own aac encoder at the same bit rate.

Speech from espeak-ng (44.1 kHz mono 16-bit, made by ffmpeg from espeak's 22.05 kHz), encoded into .m4a by both,
both decoded by ffmpeg. Printed per bit rate: the frame count ffmpeg decodes from each (the source's count when
priming and remainder are honoured) and PESQ wideband (ITU-T P.862.2, the `pesq` package from PyPI) against the
source, both sides resampled to 16 kHz by the same ffmpeg command.

  scripts/aac-quality.py [--afconvert PATH] [--rates 64000,128000] [--json]

Every tool is required: a missing one is an error (exit 2), never a skip.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import wave

TEXT = ("The quick brown fox jumps over the lazy dog. Core Audio was built around packets, magic cookies and "
        "priming frames. She sells sea shells by the sea shore; the shells she sells are surely sea shells. "
        "Seven silver swans swam silently seaward, while thirty three thirsty thieves thought thoughtful thoughts.")


def need(tool):
    path = shutil.which(tool)
    if path is None:
        sys.exit(f"aac-quality: {tool} is missing (install it: scripts/setup.sh)")
    return path


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"aac-quality: {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def frames(path):
    with wave.open(path, "rb") as w:
        return w.getnframes()


def read16k(path):
    import numpy as np
    with wave.open(path, "rb") as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--afconvert", default=os.environ.get("AFCONVERT", os.path.join(here, "..", ".build", "debug", "afconvert")))
    parser.add_argument("--rates", default="64000,128000")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args()
    try:
        from pesq import pesq
        import numpy  # noqa: F401  (pesq's own dependency, for reading the files)
    except ImportError as e:
        sys.exit(f"aac-quality: the Python package is missing ({e}): python3 -m pip install pesq")
    ffmpeg, ffprobe, espeak = need("ffmpeg"), need("ffprobe"), need("espeak-ng")
    if not os.access(args.afconvert, os.X_OK):
        sys.exit(f"aac-quality: afconvert is not built at {args.afconvert} (swift build --product afconvert, or --afconvert)")

    results = {"source_frames": 0, "rates": []}
    with tempfile.TemporaryDirectory(prefix="oca-aac-quality.") as d:
        p = lambda name: os.path.join(d, name)
        run([espeak, "-v", "en-us", "-s", "150", "-w", p("espeak.wav"), TEXT])
        run([ffmpeg, "-v", "error", "-y", "-i", p("espeak.wav"), "-ar", "44100", "-ac", "1", "-c:a", "pcm_s16le", p("source.wav")])
        to16k = lambda src, dst: run([ffmpeg, "-v", "error", "-y", "-i", src, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", dst])
        to16k(p("source.wav"), p("ref16.wav"))
        reference = read16k(p("ref16.wav"))
        results["source_frames"] = frames(p("source.wav"))
        for rate in [int(r) for r in args.rates.split(",")]:
            row = {"bit_rate": rate}
            run([args.afconvert, "-f", "m4af", "-d", "aac", "-b", str(rate), p("source.wav"), p(f"ours{rate}.m4a")])
            run([ffmpeg, "-v", "error", "-y", "-i", p("source.wav"), "-c:a", "aac", "-b:a", str(rate), p(f"ffmpeg{rate}.m4a")])
            for side in ("ours", "ffmpeg"):
                m4a = p(f"{side}{rate}.m4a")
                run([ffmpeg, "-v", "error", "-y", "-i", m4a, "-c:a", "pcm_s16le", p(f"{side}{rate}.wav")])
                to16k(m4a, p(f"{side}{rate}-16k.wav"))
                degraded = read16k(p(f"{side}{rate}-16k.wav"))
                n = min(len(reference), len(degraded))
                duration = float(run([ffprobe, "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", m4a]).strip())
                row[side] = {"frames": frames(p(f"{side}{rate}.wav")), "bytes": os.path.getsize(m4a), "duration": duration,
                             "pesq_wb": round(float(pesq(16000, reference[:n], degraded[:n], "wb")), 3)}
            results["rates"].append(row)

    if args.json:
        print(json.dumps(results))
        return
    print(f"source: espeak-ng speech, 44100 Hz mono, {results['source_frames']} frames; PESQ wideband (P.862.2) at 16 kHz")
    print(f"source duration {results['source_frames'] / 44100:.6f} s; 'frames' is what ffmpeg decodes (its MP4 demuxer trims the priming")
    print("named by the edit list but not the remainder at the end), 'duration' the container's by ffprobe")
    print(f"{'bit rate':>9}  {'ours PESQ':>9}  {'ffmpeg PESQ':>11}  {'ours - ffmpeg':>13}  {'ours frames':>11}  {'ffmpeg frames':>13}  "
          f"{'ours duration':>13}  {'ffmpeg duration':>15}  {'ours bytes':>10}  {'ffmpeg bytes':>12}")
    for r in results["rates"]:
        o, f = r["ours"], r["ffmpeg"]
        print(f"{r['bit_rate']:>9}  {o['pesq_wb']:>9.3f}  {f['pesq_wb']:>11.3f}  {o['pesq_wb'] - f['pesq_wb']:>+13.3f}  "
              f"{o['frames']:>11}  {f['frames']:>13}  {o['duration']:>13.6f}  {f['duration']:>15.6f}  {o['bytes']:>10}  {f['bytes']:>12}")


if __name__ == "__main__":
    main()
