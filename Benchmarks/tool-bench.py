#!/usr/bin/env python3
"""Whole-process timing of our tools against the peer a user would reach for, on the same input in the same run.

Each case runs ours and the peer in turn (A B A B ...), ROUNDS times after one warm-up each, and takes the ratio pair
by pair, so the machine's drift lands on both alike. CPU is user + system of the finished child (its own accounting,
os.wait4); wall is a monotonic clock around it. Medians are printed with the spread, then one
"summary: what | ratio | goal" line per case for run.sh's table.

    Benchmarks/tool-bench.py BIN_DIR [ROUNDS]

BIN_DIR holds the release tools (Benchmarks/.build/release). Inputs are made with espeak-ng and sox.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv):
    """(wall seconds, cpu seconds) of one run; fails loudly if the command fails."""
    start = time.monotonic()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"tool-bench: {' '.join(argv)} failed ({os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def spread(values):
    return f"{statistics.median(values):7.3f} ({min(values):.3f}-{max(values):.3f})"


def compare(name, ours, peer, rounds, goal):
    run(ours), run(peer)  # warm-up: page cache, dynamic loading
    a, b = [], []
    for _ in range(rounds):
        a.append(run(ours))
        b.append(run(peer))
    wall = [x[0] / y[0] for x, y in zip(a, b)]
    cpu = [x[1] / y[1] for x, y in zip(a, b)]
    print(f"{name}")
    print(f"  ours  wall {spread([x[0] for x in a])} s   cpu {spread([x[1] for x in a])} s   "
          f"wall/cpu {statistics.median(x[0] / x[1] for x in a):.2f}")
    print(f"  peer  wall {spread([y[0] for y in b])} s   cpu {spread([y[1] for y in b])} s")
    print(f"  ours/peer  wall {spread(wall)}   cpu {spread(cpu)}")
    return statistics.median(wall), statistics.median(cpu), statistics.median(x[0] / x[1] for x in a)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bin_dir = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    work = tempfile.mkdtemp(prefix="oca-tool-bench.")
    # About 280 s of speech (the afplay case used a 286 s file), 44.1 kHz 16-bit mono.
    words = ("the quick brown fox jumps over a lazy dog while seven audio engineers measure time stretching "
             "speed on speech recordings made for this benchmark").split()
    text = " ".join(words[(i * 7 + i // 3) % len(words)] for i in range(900))
    raw, speech = os.path.join(work, "speech-raw.wav"), os.path.join(work, "speech.wav")
    subprocess.run(["espeak-ng", "-w", raw, text], check=True)
    subprocess.run(["sox", raw, "-r", "44100", "-b", "16", speech], check=True)
    # Two minutes of 24-bit stereo pink noise at 44.1 kHz for the rate conversion.
    noise = os.path.join(work, "noise.wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-b", "24", "-c", "2", noise, "synth", "120", "pinknoise"], check=True)

    summary = []
    for quality in ("0", "1"):
        wall, cpu, bound = compare(
            f"afplay -r 2 -q {quality} -o (time-stretched render to a file) vs soundstretch -tempo=+100",
            [os.path.join(bin_dir, "afplay"), "-r", "2", "-q", quality, "-o", os.path.join(work, "a.wav"), speech],
            ["soundstretch", speech, os.path.join(work, "s.wav"), "-tempo=+100"], rounds, "<= 1.0")
        summary.append(f"afplay -r 2 -q {quality} -o wall vs soundstretch (ours/peer, lower is faster) | {wall:.2f}x | <= 1.0x")
        summary.append(f"afplay -r 2 -q {quality} -o wall / its own CPU (CPU-bound) | {bound:.2f}x | <= 1.2x")
    wall, cpu, _ = compare(
        "afconvert 44.1 -> 48 kHz 24-bit vs sox rate -v",
        [os.path.join(bin_dir, "afconvert"), "-f", "WAVE", "-d", "LEI24@48000", noise, os.path.join(work, "a48.wav")],
        ["sox", noise, "-b", "24", os.path.join(work, "s48.wav"), "rate", "-v", "48000"], rounds, "<= 1.0")
    summary.append(f"afconvert 44.1 -> 48 kHz 24-bit CPU vs sox (ours/peer, lower is faster) | {cpu:.2f}x | <= 1.0x")
    # The same length of 16-bit stereo pink noise widened to 24 bits, no rate change (no dither is due either way).
    noise16 = os.path.join(work, "noise16.wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-b", "16", "-c", "2", noise16, "synth", "120", "pinknoise"], check=True)
    wall, cpu, _ = compare(
        "afconvert 16 -> 24 bit (44.1 kHz stereo WAVE) vs sox -b 24",
        [os.path.join(bin_dir, "afconvert"), "-f", "WAVE", "-d", "LEI24", noise16, os.path.join(work, "a24.wav")],
        ["sox", noise16, "-b", "24", os.path.join(work, "s24.wav")], rounds, "<= 1.1")
    summary.append(f"afconvert 16 -> 24 bit CPU vs sox (ours/peer, lower is faster) | {cpu:.2f}x | <= 1.1x")
    # The same two conversions beside ffmpeg (its own resampler, swr, at its default quality; and soxr at 28 bits).
    ffmpeg = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-threads", "1"]
    wall, cpu, _ = compare(
        "afconvert 16 -> 24 bit vs ffmpeg -c:a pcm_s24le",
        [os.path.join(bin_dir, "afconvert"), "-f", "WAVE", "-d", "LEI24", noise16, os.path.join(work, "a24.wav")],
        ffmpeg + ["-i", noise16, "-c:a", "pcm_s24le", os.path.join(work, "f24.wav")], rounds, "-")
    summary.append(f"afconvert 16 -> 24 bit CPU vs ffmpeg (ours/peer, lower is faster) | {cpu:.2f}x | -")
    wall, cpu, _ = compare(
        "afconvert 44.1 -> 48 kHz 24-bit vs ffmpeg -af aresample=48000:resampler=soxr:precision=28",
        [os.path.join(bin_dir, "afconvert"), "-f", "WAVE", "-d", "LEI24@48000", noise, os.path.join(work, "a48.wav")],
        ffmpeg + ["-i", noise, "-af", "aresample=48000:resampler=soxr:precision=28", "-c:a", "pcm_s24le",
                  os.path.join(work, "f48.wav")], rounds, "-")
    summary.append(f"afconvert 44.1 -> 48 kHz 24-bit CPU vs ffmpeg soxr 28-bit (ours/peer, lower is faster) | {cpu:.2f}x | -")
    for line in summary:
        print("summary: " + line)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
