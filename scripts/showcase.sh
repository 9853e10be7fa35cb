#!/usr/bin/env bash
# The main job, end to end through our tools (each one a client of the public AudioToolbox API):
#   1. speech spoken by espeak-ng (the input material),
#   2. encoded to AAC in an .m4a with its loudness measured (afconvert --soundcheck-generate: BS.1770 / R 128),
#   3. time-stretched 1.5x, pitch kept, through Technical Q&A QA1717's graph (qa1717-demo --input),
#   4. level-normalised to -16 LUFS by the measured loudness, with AUPeakLimiter keeping the peaks below full scale
#      (afplay -v GAIN --limit -o),
#   5. its picture drawn (afinfo --plot, waveform and spectrogram) when afinfo has it,
#   6. played on the default output: the user's sound server, or a private null sink when none runs (then it is heard
#      by nobody, but the device path runs for real).
#   scripts/showcase.sh [--no-play] [--out=DIR] [--tools=DIR] ["text to speak"]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=showcase play=1 tools="" text="Core Audio on Linux. This sentence was spoken, encoded to A A C, stretched by half again through the Q A seventeen seventeen graph, and normalised."
for a in "$@"; do
    case $a in
        --no-play) play=0 ;;
        --out=*) out=${a#--out=} ;;
        --tools=*) tools=${a#--tools=} ;;
        -*) echo "usage: $0 [--no-play] [--out=DIR] [--tools=DIR] [\"text\"]" >&2; exit 2 ;;
        *) text=$a ;;
    esac
done
if [ -z "$tools" ]; then
    (cd "$root" && swift build >/dev/null)
    tools=$(cd "$root" && swift build --show-bin-path)
fi
mkdir -p "$out"
step() { printf '\n== %s\n' "$*"; }
loudness() { "$tools/afinfo" -i "$1" | awk '$1 == "loudness" && $2 != "range" { print $2 }'; }

step "1. speech (espeak-ng)"
espeak-ng -w "$out/speech.wav" "$text"
"$tools/afinfo" -b "$out/speech.wav" | tail -1

step "2. AAC in .m4a with Sound Check (afconvert -d aac -b 96000 --soundcheck-generate)"
"$tools/afconvert" -f m4af -d aac -b 96000 --soundcheck-generate "$out/speech.wav" "$out/speech.m4a"
"$tools/afinfo" -b "$out/speech.m4a" | tail -1
echo "loudness $(loudness "$out/speech.m4a") LUFS"

step "3. time-stretched 1.5x, pitch kept (QA1717's graph: AUConverter -> AUMultiChannelMixer -> AUiPodTime)"
"$tools/qa1717-demo" --input "$out/speech.m4a" 1.5 - "$out/stretched.wav" | tail -1

step "4. normalised to -16 LUFS (afplay -v GAIN --limit -o)"
"$tools/afconvert" --soundcheck-generate -f caff -d 0 "$out/stretched.wav" "$out/stretched.caf"
before=$(loudness "$out/stretched.caf")
gain=$(awk -v l="$before" 'BEGIN { g = 10 ^ ((-16 - l) / 20); if (g > 16) g = 16; printf "%.6f", g }')
"$tools/afplay" -v "$gain" --limit -o "$out/normalised.wav" "$out/stretched.caf"
"$tools/afconvert" --soundcheck-generate -f caff -d 0 "$out/normalised.wav" "$out/normalised.caf"
echo "loudness $before LUFS x $gain -> $(loudness "$out/normalised.caf") LUFS"

if "$tools/afinfo" -h 2>&1 | grep -q -- --plot; then
    step "5. picture (afinfo --plot)"
    "$tools/afinfo" --plot "$out/showcase.png" "$out/normalised.wav" >/dev/null
    echo "$out/showcase.png"
fi

if [ "$play" = 1 ]; then
    step "6. played (afplay)"
    if [ -z "${PULSE_SERVER:-}" ] && ! pactl info >/dev/null 2>&1; then
        private=$(mktemp -d)
        trap '"$root/scripts/pulse-server.sh" stop "$private" >/dev/null 2>&1 || true; rm -rf "$private"' EXIT
        "$root/scripts/pulse-server.sh" start "$private" >/dev/null
        export PULSE_SERVER="unix:$private/native"
        echo "(no sound server: playing on a private null sink)"
    fi
    "$tools/afplay" "$out/normalised.wav"
fi
printf '\nfiles in %s/\n' "$out"
