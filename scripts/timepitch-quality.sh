#!/usr/bin/env bash
# Round-trip speech quality of our time stretcher beside SoundTouch (soundstretch), Sonic and Rubber Band R3:
# speech from espeak-ng is played at tempo r and then 1/r (r = 0.5, 1.5, 2) and compared with the original
# by STOI and wide-band PESQ. Installs its own tools (Debian and PyPI packages), builds ours in release.
# Arguments are passed to the `timestretch` tool (e.g. --frame 15 --overlap 3 to try settings).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
missing=()
for p in espeak-ng sox soundstretch rubberband-cli sonic python3-pip; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -c "import numpy, scipy, pystoi, pesq" 2>/dev/null \
    || python3 -m pip install -q numpy scipy pystoi pesq 2>/dev/null \
    || python3 -m pip install -q --break-system-packages numpy scipy pystoi pesq
(cd Benchmarks && swift build -c release --product timestretch >/dev/null)
python3 scripts/timepitch_quality.py "$@"
