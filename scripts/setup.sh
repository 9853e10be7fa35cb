#!/usr/bin/env bash
# Installs what OpenCoreAudio's build, tests and tools need on a fresh Debian/Ubuntu machine that has
# the Swift toolchain. Idempotent; quiet when everything is present.
set -euo pipefail

# sox, ffmpeg: independent readers and writers that check our files. libasound2-dev: the HAL's ALSA
# backend. pulseaudio (+ utils, + the ALSA plugin): the private server with null sinks the device tests
# start (scripts/pulse-server.sh), also usable on machines without a sound card.
# libspeexdsp-dev: VoiceProcessingIO's echo canceller. espeak-ng: real speech for the voice tests.
# libmpg123-dev: the MP3 decoder; libopus-dev: the Opus codec. flac: the reference FLAC tool the tests check against.
# libopencore-amrnb-dev, libopencore-amrwb-dev: the AMR decoders; libvo-amrwbenc0: the wideband encoder the tests make
# their .amr inputs with (scripts/amr-encode.py, through ctypes; the narrowband one is opencore-amrnb's).
# libespeak-ng-dev: the speech synthesizer behind AUSpeechSynthesis (espeak-ng, its tool, is what the tests compare with).
# libavcodec-dev: AAC, in the AudioToolboxAAC product (FFmpeg stays out of the core modules).
# timgm6mb-soundfont, fluidsynth: the SoundFont sampler's tests play the small GM bank (TimGM6mb.sf2) and compare
# with the fluidsynth command (preset list, rendered notes); they fail when either is missing.
# libjack-jackd2-dev: CoreMIDI's JACK MIDI backend; jackd2: the private jackd (dummy driver) the JACK MIDI tests
# start, and the tools they check against (jack_midi_dump, jack_midiseq, jack_lsp, jack_connect, jack_wait).
# libmysofa-dev: the 3D mixer's HRTF filters (SOFA files; libmysofa1 brings the MIT KEMAR set as default.sofa).
# libopenal1: openal-soft, the independent OpenAL the tests and the benchmark put ours beside (never linked by us).
# libebur128-1: libebur128, the reference loudness meter the Sound Check tests compare ours with (through ctypes).
# alsa-utils: aconnect, which the ALSA sequencer test checks our ports with (where /dev/snd/seq exists).
# graphviz: `dot`, which the graph picture tests require to parse OCAGraphDOT's text and which qa1717-demo --dot x.png runs.
# python3-pil: the independent PNG decoder the picture tests read our PNGs back with (afinfo --plot, PNGImage).
packages=(sox ffmpeg libasound2-dev pulseaudio pulseaudio-utils libasound2-plugins libspeexdsp-dev espeak-ng libespeak-ng-dev libavcodec-dev libmpg123-dev libopus-dev flac
          libopencore-amrnb-dev libopencore-amrwb-dev libvo-amrwbenc0
          timgm6mb-soundfont fluidsynth libjack-jackd2-dev jackd2 alsa-utils libmysofa-dev libopenal1 libebur128-1 python3-pil graphviz)
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
# pymidi (PyPI): an independent RTP-MIDI/AppleMIDI implementation the network MIDI tests talk to over loopback
# (scripts/rtpmidi-peer.py). Debian's Python refuses pip outside a venv unless told otherwise.
if ! python3 -c "import pymidi.packets" >/dev/null 2>&1; then
    if ! python3 -m pip --version >/dev/null 2>&1; then
        SUDO=""
        [ "$(id -u)" -ne 0 ] && SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-pip >/dev/null
    fi
    python3 -m pip install -q pymidi >/dev/null 2>&1 || python3 -m pip install -q --break-system-packages pymidi >/dev/null
fi
# No sound server is started or changed here: the tests start a private one (scripts/test.sh), and
# scripts/pulse-server.sh starts one for a machine without a sound card.
# pesq (PyPI): ITU-T P.862 speech quality, the objective score scripts/aac-quality.py (AACQualityTests) puts our AAC
# encoder's output beside FFmpeg's own AAC encoder with.
python3 -c "import pesq" 2>/dev/null || python3 -m pip install -q pesq 2>/dev/null || python3 -m pip install -q --break-system-packages pesq
# mido (PyPI): the outside reader and writer of Standard MIDI Files the MusicSequence tests compare against.
python3 -c "import mido" 2>/dev/null || python3 -m pip install -q mido 2>/dev/null || python3 -m pip install -q --break-system-packages mido
# ray (PyPI): the cluster scheduler batch/ray_batch.py fans catalogs out with (the batch tests start a local one);
# kubernetes (PyPI): its API models check batch/k8s/indexed-job.yaml field by field where no cluster is reachable.
for m in ray kubernetes; do
    python3 -c "import $m" 2>/dev/null || python3 -m pip install -q "$m" 2>/dev/null || python3 -m pip install -q --break-system-packages "$m"
done
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.0 or later) must be on PATH" >&2; exit 1; }
