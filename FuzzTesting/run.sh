#!/usr/bin/env bash
# Fuzzes the audio file parsers with libFuzzer + AddressSanitizer for a bounded time, one target per
# container (WAVE/RF64, AIFF/AIFC, CAF, through AudioFileOpenWithCallbacks) and one for
# AudioFileStream. Usage: FuzzTesting/run.sh [seconds-per-target]
# Seeds are generated with sox; crashes are written to FuzzTesting/crashes/ and fail the run.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
# Instrument every module (the library included) and link libFuzzer's main.
swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 | tail -1
corpus=$(mktemp -d)
mkdir -p crashes
for spec in "wav -b 16 -c 1" "wav -b 24 -c 2" "wav -e floating-point -b 32 -c 1" "wav -b 8 -c 1" "aiff -b 16 -c 2" \
            "aifc -b 16 -c 1" "caf -b 16 -c 2" "caf -e floating-point -b 32 -c 1"; do
    set -- $spec
    ext=$1; shift
    sox -n -r 8000 "$@" "$corpus/seed-$RANDOM.$ext" synth 0.005 sine 440
done
for target in FuzzWAVE FuzzAIFF FuzzCAF FuzzAudioFileStream; do
    echo "== $target"
    SWIFT_BACKTRACE=enable=no .build/debug/$target "$corpus" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 \
        -dict=chunks.dict -artifact_prefix=crashes/$target- -print_final_stats=1 2>&1 | grep -E "^(#[0-9]+ *DONE|Done|==[0-9]+==ERROR|SUMMARY)" || true
done
rm -rf "$corpus"
if ls crashes/* >/dev/null 2>&1; then echo "fuzzing found crashes in FuzzTesting/crashes/"; exit 1; fi
echo "fuzzing: no crash in ${seconds}s per target"
