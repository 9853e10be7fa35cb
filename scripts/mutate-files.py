#!/usr/bin/env python3
"""Mutation run over valid audio files: every seed file is mutated (bit flips, byte runs, truncations,
size and count fields set to boundary values, sample rates set to hostile doubles) and each mutant goes
through afinfo and `afconvert -d LEF32@48000 -c 1`. Any signal (a trap, an abort), a time-out or a
peak RSS over the limit is a failure; exit statuses 0 and 1 (a clean error) are fine. Failing inputs are
kept in the output folder so that they can become regression inputs.

usage: mutate-files.py --bin DIR [--count N] [--seconds S] [--jobs J] [--out DIR] [--seed N] [--keep-seeds DIR]
Seeds are generated with sox and with our own afconvert (RF64, CAF with a packet table are ours).
"""
import argparse, os, random, resource, shutil, struct, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

BOUNDARY32 = [0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
              0xFFFFFFFE, 0xFFFFFFFF]
BOUNDARY64 = [0, 1, 4, 0x7FFFFFFF, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000,
              0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE, 0x7FFFFFFFFFFFFFF0]
RATES = [1e-30, 0.01, 0.5, 1.0, 3.0, 1e6, 3072001.0, 1e300, float("inf"), float("nan"), -44100.0, 0.0, 5e-324]
CHUNK_IDS = [b"RIFF", b"RF64", b"ds64", b"fmt ", b"data", b"LIST", b"FORM", b"COMM", b"SSND", b"FVER", b"desc", b"pakt",
             b"chan", b"kuki", b"info", b"mark", b"regn", b"strg", b"free", b"caff"]


def make_seeds(folder, afconvert):
    specs = [("wav", ["-b", "16", "-c", "1"]), ("wav", ["-b", "24", "-c", "2"]), ("wav", ["-b", "8", "-c", "1"]),
             ("wav", ["-e", "floating-point", "-b", "32", "-c", "2"]), ("wav", ["-e", "floating-point", "-b", "64", "-c", "1"]),
             ("wav", ["-b", "32", "-c", "6"]), ("aiff", ["-b", "16", "-c", "2"]), ("aiff", ["-b", "24", "-c", "1"]),
             ("aifc", ["-b", "16", "-c", "1"]), ("aifc", ["-e", "floating-point", "-b", "32", "-c", "2"]),
             ("caf", ["-b", "16", "-c", "2"]), ("caf", ["-e", "floating-point", "-b", "32", "-c", "1"])]
    seeds = []
    for i, (ext, args) in enumerate(specs):
        path = os.path.join(folder, "seed%02d.%s" % (i, ext))
        subprocess.run(["sox", "-n", "-r", "8000"] + args + [path, "synth", "0.01", "sine", "440"], check=True)
        seeds.append(path)
    for ext, fmt in [("rf64", "RF64"), ("caf", "caff")]:
        path = os.path.join(folder, "ours-%s.%s" % (fmt, ext))
        subprocess.run([afconvert, "-f", fmt, "-d", "LEI16", seeds[0], path], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seeds.append(path)
    return seeds


def mutate(data, rng):
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.randrange(9)
        if not b:
            b = bytearray(rng.randbytes(rng.randrange(1, 64)))
        if kind == 0:  # bit flips
            for _ in range(rng.randrange(1, 8)):
                i = rng.randrange(len(b)); b[i] ^= 1 << rng.randrange(8)
        elif kind == 1:  # truncation
            del b[rng.randrange(len(b)):]
        elif kind == 2:  # a 32-bit field, either endianness, at a chunk-ish offset
            i = rng.randrange(max(1, min(len(b) - 4, 200))) if len(b) > 4 else 0
            b[i:i + 4] = struct.pack(rng.choice("<>") + "I", rng.choice(BOUNDARY32))
        elif kind == 3:  # a 64-bit field
            i = rng.randrange(max(1, min(len(b) - 8, 200))) if len(b) > 8 else 0
            b[i:i + 8] = struct.pack(rng.choice("<>") + "Q", rng.choice(BOUNDARY64))
        elif kind == 4:  # the size after a known chunk ID
            ids = [j for j in range(len(b) - 8) if bytes(b[j:j + 4]) in CHUNK_IDS]
            if ids:
                j = rng.choice(ids) + 4
                if rng.random() < 0.5:
                    b[j:j + 4] = struct.pack(rng.choice("<>") + "I", rng.choice(BOUNDARY32))
                else:
                    b[j:j + 8] = struct.pack(">Q", rng.choice(BOUNDARY64))
        elif kind == 5:  # a hostile sample rate where a double lives (CAF desc) or an integer (WAVE fmt)
            j = bytes(b).find(b"desc")
            if j >= 0 and j + 20 <= len(b):
                b[j + 12:j + 20] = struct.pack(">d", rng.choice(RATES))
            j = bytes(b).find(b"fmt ")
            if j >= 0 and j + 16 <= len(b):
                b[j + 12:j + 16] = struct.pack("<I", rng.choice(BOUNDARY32))
        elif kind == 6:  # a run of one byte value
            i = rng.randrange(len(b)); n = rng.randrange(1, 32)
            b[i:i + n] = bytes([rng.choice([0, 0xFF, 0x7F, 0x80])]) * n
        elif kind == 7:  # a chunk duplicated or inserted
            i = rng.randrange(len(b)); j = rng.randrange(len(b)); n = rng.randrange(1, 64)
            b[i:i] = b[j:j + n]
        else:  # a chunk ID pasted somewhere
            i = rng.randrange(len(b)); b[i:i + 4] = rng.choice(CHUNK_IDS)
    return bytes(b)


def run(cmd, timeout, limit_mb):
    """Runs cmd; returns (outcome, peak_kb). outcome: 'ok', 'signal N', 'timeout', 'memory'."""
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    start = time.time()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    except OSError as e:
        return "exec error %s" % e, 0
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.time() > deadline:
            p.kill(); _, status, usage = os.wait4(p.pid, 0)
            return "timeout", usage.ru_maxrss
        time.sleep(0.002)
    p.returncode = 0  # reaped here: Popen must not wait for it again
    peak = usage.ru_maxrss
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status), peak
    if os.WEXITSTATUS(status) not in (0, 1):
        return "exit %d" % os.WEXITSTATUS(status), peak
    if peak > limit_mb * 1024:
        return "memory", peak
    return "ok", peak


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: no limit)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="mutation-failures")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--memory-mb", type=int, default=512)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="oca-mutate-")
    # Copies: a rebuild during a long run must not swap the binaries under it.
    afinfo, afconvert = (shutil.copy(os.path.join(args.bin, t), os.path.join(work, t)) for t in ("afinfo", "afconvert"))
    seeds = make_seeds(work, afconvert)
    datas = [(os.path.splitext(s)[1], open(s, "rb").read()) for s in seeds]
    def mutant(i):  # made when needed: a long run must not hold all its mutants
        r = random.Random(args.seed * 1_000_003 + i)
        ext, d = r.choice(datas)
        return i, ext, mutate(d, r)
    os.makedirs(args.out, exist_ok=True)
    counts = {"files": 0, "clean": 0, "failures": 0}
    peak_all = [0]
    t0 = time.time()

    def one(i):
        if args.seconds and time.time() - t0 > args.seconds:
            return None
        i, ext, data = mutant(i)
        path = os.path.join(work, "m%06d%s" % (i, ext))
        out = os.path.join(work, "o%06d.wav" % i)
        with open(path, "wb") as f:
            f.write(data)
        results = []
        for name, cmd in [("afinfo", [afinfo, path]), ("afconvert", [afconvert, "-d", "LEF32@48000", "-c", "1", path, out])]:
            outcome, peak = run(cmd, args.timeout, args.memory_mb)
            peak_all[0] = max(peak_all[0], peak)
            results.append((name, outcome, peak))
        failed = [r for r in results if r[1] != "ok"]
        if failed:
            shutil.copy(path, os.path.join(args.out, "m%06d%s" % (i, ext)))
        for p in (path, out):
            if os.path.exists(p): os.remove(p)
        return failed

    with ThreadPoolExecutor(args.jobs) as pool:
        for batch in range(0, args.count, 256):
            if args.seconds and time.time() - t0 > args.seconds:
                break
            for failed in pool.map(one, range(batch, min(batch + 256, args.count))):
                if failed is None:
                    continue
                counts["files"] += 1
                if failed:
                    counts["failures"] += 1
                    for name, outcome, peak in failed:
                        print("FAIL %s: %s (peak %d MB)" % (name, outcome, peak // 1024), flush=True)
                else:
                    counts["clean"] += 1
    shutil.rmtree(work, ignore_errors=True)
    print("mutation run: %d files (seed %d) through afinfo and afconvert in %.0f s: %d failures; peak RSS %d MB (limit %d MB)"
          % (counts["files"], args.seed, time.time() - t0, counts["failures"], peak_all[0] // 1024, args.memory_mb))
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
