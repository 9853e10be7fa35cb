#!/usr/bin/env bash
# Installs the peers the benchmarks compare against (Debian packages) and runs every benchmark in
# release mode. Throughput is printed as a multiple of real time and as a ratio to the peer.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
for p in libsoxr-dev libsamplerate0-dev libsndfile1-dev libsoundtouch-dev espeak-ng pkg-config; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
swift build -c release
../scripts/pulse-server.sh
for b in RenderOverhead GraphRender MixerBench ResamplerBench FileIOBench TimeStretchBench RoundTripLatency; do
    echo "== $b"
    .build/release/$b
    echo
done
