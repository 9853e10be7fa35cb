#!/usr/bin/env bash
# Installs what OpenCoreAudio's build, tests and tools need on a fresh Debian/Ubuntu machine that has
# the Swift toolchain. Idempotent; quiet when everything is present.
set -euo pipefail

# sox, ffmpeg: independent readers and writers that check our files. libasound2-dev: the HAL's ALSA
# backend. pulseaudio (+ utils, + the ALSA plugin): a sound server with null sinks for the device tests
# and for machines without a sound card.
# libspeexdsp-dev: VoiceProcessingIO's echo canceller. espeak-ng: real speech for the voice tests.
packages=(sox ffmpeg libasound2-dev pulseaudio pulseaudio-utils libasound2-plugins libspeexdsp-dev espeak-ng)
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
# A sound server to play to: the running one, else PulseAudio with null sinks.
"$(dirname "$0")/pulse-server.sh"
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.0 or later) must be on PATH" >&2; exit 1; }
