#!/usr/bin/env bash
# Installs the peers the benchmarks compare against (Debian packages) and runs every benchmark in
# release mode. Throughput is printed as a multiple of real time and as a ratio to the peer.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
for p in libavformat-dev libavcodec-dev opus-tools libsoxr-dev libsamplerate0-dev libsndfile1-dev libsoundtouch-dev soundstretch sox espeak-ng pkg-config flac ffmpeg fluidsynth timgm6mb-soundfont libopenal1 libmysofa-dev; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
swift build -c release
swift build -c release --product afconvert  # CodecBench times it against flac, opusenc and opusdec
swift build -c release --product afplay     # tool-bench.py times afplay -o against soundstretch
# FileIOBench sets ExtAudioFile's Float32 reading beside dr_wav too: Debian packages no dr_libs, so its header comes
# from the miniaudio source package on PyPI (miniaudio.h carries dr_wav as ma_dr_wav), compiled into drwav-read.
if [ ! -x .build/drwav-read ]; then
    drwav_src=$(mktemp -d "${TMPDIR:-/tmp}/oca-drwav.XXXXXX")
    python3 -m pip download --quiet --no-deps --no-binary :all: "miniaudio==1.71" -d "$drwav_src"
    tar xzf "$drwav_src"/miniaudio-1.71.tar.gz -C "$drwav_src"
    cc -O2 -I "$drwav_src/miniaudio-1.71/miniaudio" drwav/drwav-read.c -o .build/drwav-read -lm -lpthread -ldl
    rm -rf "$drwav_src"
fi
export DRWAV_READ="$PWD/.build/drwav-read"
# The round-trip benchmark plays and records on a private PulseAudio server (never the user's).
server_dir=$(mktemp -d "${TMPDIR:-/tmp}/oca-pulse.XXXXXX")
trap '../scripts/pulse-server.sh stop "$server_dir"; rm -rf "$server_dir"' EXIT
../scripts/pulse-server.sh start "$server_dir" >/dev/null
export PULSE_SERVER="unix:$server_dir/native"
# Each benchmark prints its full report and, for each comparison with a peer, one "summary: what | ratio | goal"
# line (a ratio above 1 means ours is faster, except dispatch cost, where it is ours' cost over C's); the table
# of those lines comes last.
log=$(mktemp "${TMPDIR:-/tmp}/oca-bench.XXXXXX")
trap '../scripts/pulse-server.sh stop "$server_dir"; rm -rf "$server_dir" "$log"' EXIT
for b in RenderOverhead GraphRender EngineBench MixerBench ResamplerBench FileIOBench CodecBench AudioQueueBench TimeStretchBench EffectsBench SamplerBench OpenALBench RoundTripLatency; do
    echo "== $b"
    .build/release/$b | tee -a "$log"
    echo
done
echo "== Tools as whole processes (tool-bench.py: afplay -r 2 -o against soundstretch, afconvert resampling and 16 -> 24 bit against sox and ffmpeg)"
python3 ./tool-bench.py .build/release | tee -a "$log"
echo
echo "== BatchBench (batch/ray_batch.py: catalog throughput against worker count)"
./batch-bench.sh
echo
echo "== Summary (same run; ratios are ours against the peer, goals from issue 17 where it sets one)"
grep '^summary: ' "$log" | sed 's/^summary: //' | awk -F' [|] ' '{ printf "%-78s %10s   %s\n", $1, $2, $3 }'
