#!/usr/bin/env bash
# Catalog throughput against worker count: 200 files (sox-made, 2 s each, three rates, mono and stereo) converted three
# ways (24-bit CAF, 64 kbit/s AAC in .m4a, FLAC) by batch/ray_batch.py on a local Ray cluster with 1 and 2 workers,
# once with our afconvert (release build) and once with ffmpeg (the peer) under the same glue, in the same run.
# Prints files per second and ours / ffmpeg. The cluster's start is not counted (ray_batch.py reports it apart).
#   Benchmarks/batch-bench.sh [files]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-200}
(cd "$root" && swift build -c release --product afconvert >/dev/null)
tools=$(cd "$root" && swift build -c release --show-bin-path)
work=$(mktemp -d "${TMPDIR:-/tmp}/oca-batch-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
ours=(-f caff -d LEI24 "-f m4af -d aac -b 64000" "-f flac -d flac")
echo "input,output,args" > "$work/ours.csv"
echo "input,output,args" > "$work/ffmpeg.csv"
for i in $(seq 0 $((files - 1))); do
    rate=$(( (i % 3 == 0) ? 22050 : (i % 3 == 1) ? 44100 : 48000 )); channels=$((1 + i % 2))
    sox -n -r $rate -c $channels -b 16 "$work/in/f$i.wav" synth 2 sine $((200 + 7 * i)) vol 0.3
    case $((i % 3)) in
        0) echo "$work/in/f$i.wav,f$i.caf,-f caff -d LEI24" >> "$work/ours.csv"; echo "$work/in/f$i.wav,f$i.caf,-c:a pcm_s24le" >> "$work/ffmpeg.csv" ;;
        1) echo "$work/in/f$i.wav,f$i.m4a,-f m4af -d aac -b 64000" >> "$work/ours.csv"; echo "$work/in/f$i.wav,f$i.m4a,-c:a aac -b:a 64k" >> "$work/ffmpeg.csv" ;;
        2) echo "$work/in/f$i.wav,f$i.flac,-f flac -d flac" >> "$work/ours.csv"; echo "$work/in/f$i.wav,f$i.flac,-c:a flac" >> "$work/ffmpeg.csv" ;;
    esac
done
rate() { sed -n 's/.*(\([0-9.]*\) files\/s.*/\1/p'; }
printf "%-8s %14s %14s %8s\n" workers "afconvert f/s" "ffmpeg f/s" ratio
for w in 1 2; do
    a=$(python3 "$root/batch/ray_batch.py" "$work/ours.csv" --output-dir "$work/o$w" --results "$work/o$w.csv" --workers $w --tools "$tools" | rate)
    b=$(python3 "$root/batch/ray_batch.py" "$work/ffmpeg.csv" --output-dir "$work/f$w" --results "$work/f$w.csv" --workers $w --tool ffmpeg | rate)
    printf "%-8s %14s %14s %8.2f\n" $w "$a" "$b" "$(echo "$a / $b" | bc -l)"
done
