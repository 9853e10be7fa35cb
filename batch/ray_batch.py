#!/usr/bin/env python3
"""Fans a catalog of conversions out over Ray workers (a local cluster, or any cluster Ray can reach), each task one
run of our afconvert (or afplay -o) or, for comparison, ffmpeg. Ray schedules, retries and collects; nothing here
schedules work itself.

Manifest: CSV with a header, one row per file: `input,output,args` (args: the tool's options, shell-quoted, e.g.
`-f caff -d aac -b 96000`), output relative to --output-dir. Results: a CSV table (input, output, status, exit code,
attempts, seconds, bytes, sha256, error) and a summary line with files per second.

    batch/ray_batch.py MANIFEST --output-dir DIR --results RESULTS.csv [--workers N | --address ADDR] [--serial]
                       [--tool afconvert|afplay|ffmpeg] [--tools DIR] [--retries 2] [--shard K/N]
"""
import argparse
import csv
import logging
import hashlib
import os
import shlex
import subprocess
import sys
import time


def convert(tool, tool_path, row, output_dir, attempts_dir):
    """One file: runs the tool and describes the result; raises (so Ray retries) when the tool fails."""
    output = os.path.join(output_dir, row["output"])
    os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
    # Attempts are counted in a file per row, so that retries Ray makes in other workers are counted too.
    marker = os.path.join(attempts_dir, hashlib.sha1(row["output"].encode()).hexdigest())
    with open(marker, "a") as f:
        f.write("x")
    options = shlex.split(row.get("args", ""))
    if tool == "ffmpeg":
        command = [tool_path, "-v", "error", "-y", "-i", row["input"]] + options + [output]
    elif tool == "afplay":
        command = [tool_path] + options + ["-o", output, row["input"]]
    else:
        command = [tool_path] + options + [row["input"], output]
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise RuntimeError(f"{os.path.basename(tool_path)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    with open(output, "rb") as f:
        data = f.read()
    return {"input": row["input"], "output": row["output"], "status": "ok", "exit": 0, "seconds": f"{seconds:.4f}",
            "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "error": ""}


def failed(row, error):
    return {"input": row["input"], "output": row["output"], "status": "failed", "exit": 1, "seconds": "",
            "bytes": 0, "sha256": "", "error": str(error).strip().splitlines()[-1][-300:]}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("manifest")
    p.add_argument("--output-dir", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--workers", type=int, default=os.cpu_count())
    p.add_argument("--address", help="an existing Ray cluster (default: start a local one)")
    p.add_argument("--serial", action="store_true", help="no Ray: one file after another in this process (the reference)")
    p.add_argument("--tool", default="afconvert", choices=["afconvert", "afplay", "ffmpeg"])
    p.add_argument("--tools", help="where afconvert/afplay are (default: next to this script's package, .build/debug)")
    p.add_argument("--retries", type=int, default=2, help="retries of a failed file (Ray's max_retries)")
    p.add_argument("--shard", help="K/N: only the rows whose number modulo N is K (a Kubernetes Indexed Job's index)")
    a = p.parse_args()

    with open(a.manifest, newline="") as f:
        rows = list(csv.DictReader(f))
    if a.shard:
        k, n = (int(x) for x in a.shard.split("/"))
        if not 0 <= k < n:
            sys.exit(f"ray_batch: shard {a.shard}: K must be in 0..N-1")
        rows = [row for i, row in enumerate(rows) if i % n == k]
    if a.tool == "ffmpeg":
        tool_path = "/usr/bin/ffmpeg"
    else:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        tool_path = os.path.join(a.tools or os.path.join(root, ".build", "debug"), a.tool)
    if not os.access(tool_path, os.X_OK):
        sys.exit(f"ray_batch: {tool_path} is not an executable (build the tools, or give --tools)")
    output_dir = os.path.abspath(a.output_dir)
    attempts_dir = os.path.join(output_dir, ".attempts")
    os.makedirs(attempts_dir, exist_ok=True)

    results = []
    setup = 0.0
    start = time.monotonic()
    if a.serial:
        for row in rows:
            try:
                results.append(convert(a.tool, tool_path, row, output_dir, attempts_dir))
            except RuntimeError as e:
                results.append(failed(row, e))
    else:
        import ray
        if a.address:
            ray.init(address=a.address, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(num_cpus=a.workers, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        # The throughput counts the work, not the cluster's start (a few seconds, paid once per batch).
        setup = time.monotonic() - start
        start = time.monotonic()
        remote = ray.remote(num_cpus=1, max_retries=a.retries, retry_exceptions=True)(convert)
        pending = {remote.remote(a.tool, tool_path, row, output_dir, attempts_dir): row for row in rows}
        # Results as they finish; a file whose retries all failed is a failed row, not the end of the batch.
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            row = pending.pop(ready[0])
            try:
                results.append(ray.get(ready[0]))
            except Exception as e:  # ray.exceptions.RayTaskError wraps the tool's failure
                results.append(failed(row, e))
        ray.shutdown()
    elapsed = time.monotonic() - start

    for r in results:
        marker = os.path.join(attempts_dir, hashlib.sha1(r["output"].encode()).hexdigest())
        r["attempts"] = os.path.getsize(marker) if os.path.exists(marker) else 0
    order = {row["output"]: i for i, row in enumerate(rows)}
    results.sort(key=lambda r: order[r["output"]])
    fields = ["input", "output", "status", "exit", "attempts", "seconds", "bytes", "sha256", "error"]
    with open(a.results, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(results)
    ok = sum(r["status"] == "ok" for r in results)
    mode = "serial" if a.serial else f"ray, {a.workers} workers" if not a.address else f"ray at {a.address}"
    print(f"{a.tool}: {ok} of {len(rows)} files converted, {len(rows) - ok} failed, in {elapsed:.2f} s "
          f"({len(rows) / elapsed:.1f} files/s, {mode}" + (f"; the cluster started in {setup:.1f} s" if setup else "") + ")")
    sys.exit(0 if ok == len(rows) else 1)


if __name__ == "__main__":
    main()
