#!/usr/bin/env bash
# Installs what OpenCoreAudio's build, tests and tools need on a fresh Debian/Ubuntu machine that has
# the Swift toolchain. Idempotent; quiet when everything is present.
set -euo pipefail

packages=(sox ffmpeg)  # independent readers and writers that check our files
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.0 or later) must be on PATH" >&2; exit 1; }
