#!/usr/bin/env bash
# Fuzzes the parsers of hostile input with libFuzzer + AddressSanitizer for a bounded time: one target per
# container (WAVE/RF64, AIFF/AIFC, CAF, MP3, FLAC, MP4, ADTS AAC, Ogg, AMR, through AudioFileOpenWithCallbacks), AudioFileStream, ExtAudioFile
# reading with a client format (the converter and resampler behind it), afinfo's report, and network MIDI's
# RTP-MIDI/AppleMIDI packet parser (FuzzRTPMIDI, whose corpus is Corpus/rtpmidi: seeds and regressions alike).
# Core MIDI's MIDI 1.0 byte parser with UMP conversion (FuzzMIDIBytes) has its own corpus in FuzzTesting/MIDICorpus.
# Standard MIDI Files (FuzzMIDIFile, MusicSequenceFileLoadData) start from the .mid files kept in Corpus/regressions.
# SoundFont 2 and DLS banks (FuzzSoundFont, FuzzDLS) keep their corpora in Corpus/soundfont and Corpus/dls.
# Usage: FuzzTesting/run.sh [seconds-per-target] [target...]
# Each target starts from the kept corpus (FuzzTesting/Corpus: regression inputs and a minimised corpus)
# plus seeds generated with sox. Crashes are written to FuzzTesting/crashes/ and fail the run; a crash's
# input belongs in Corpus/regressions/ once fixed (the replay tests run it on every test run).
# To grow the kept corpus: FUZZ_MERGE=1 FuzzTesting/run.sh 300 (merges new coverage into Corpus/minimized).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzWAVE FuzzAIFF FuzzCAF FuzzMP3 FuzzFLAC FuzzMP4 FuzzADTS FuzzOgg FuzzAMR FuzzAudioFileStream FuzzExtAudioFile FuzzAFInfo FuzzRTPMIDI FuzzSoundFont FuzzDLS FuzzMIDIBytes FuzzMIDIFile)
# Instrument every module (the library included) and link libFuzzer's main.
swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 | tail -1
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir -p crashes Corpus/minimized MIDICorpus/minimized
for spec in "wav -b 16 -c 1" "wav -b 24 -c 2" "wav -e floating-point -b 32 -c 1" "wav -b 8 -c 1" "aiff -b 16 -c 2" \
            "aifc -b 16 -c 1" "caf -b 16 -c 2" "caf -e floating-point -b 32 -c 1"; do
    set -- $spec
    ext=$1; shift
    sox -n -r 8000 "$@" "$seeds/seed-$RANDOM.$ext" synth 0.005 sine 440
done
# Compressed seeds: the codecs' bitstreams behind the containers (MP3 with ID3 and a LAME tag, IMA4, G.711, FLAC).
for spec in "mp3 libmp3lame" "aiff adpcm_ima_qt" "caf adpcm_ima_qt" "wav pcm_mulaw" "caf pcm_alaw" "flac flac" "m4a aac" "m4a alac" "aac aac" "opus libopus" "oga flac"; do
    set -- $spec
    ffmpeg -v error -f lavfi -i "sine=f=440:d=0.1:sample_rate=8000" -c:a "$2" -metadata title=seed "$seeds/seed-$RANDOM.$1"
done
# AMR seeds (no Debian tool writes .amr): narrowband and wideband through scripts/amr-encode.py, and 3GP from them.
sox -n -r 8000 -b 16 -c 1 "$seeds/amr-nb.wav" synth 0.1 sine 440 && python3 ../scripts/amr-encode.py "$seeds/amr-nb.wav" "$seeds/seed-nb.amr"
sox -n -r 16000 -b 16 -c 1 "$seeds/amr-wb.wav" synth 0.1 sine 440 && python3 ../scripts/amr-encode.py "$seeds/amr-wb.wav" "$seeds/seed-wb.amr" --wb
rm -f "$seeds"/amr-*.wav
ffmpeg -v error -i "$seeds/seed-nb.amr" -c copy "$seeds/seed-nb.3gp"
for target in "${targets[@]}"; do
    echo "== $target"
    work=$(mktemp -d)
    kept=Corpus/minimized dict=(-dict=chunks.dict)
    if [ "$target" = FuzzRTPMIDI ]; then kept=Corpus/rtpmidi
    # Byte streams, not files: the MIDI target has seeds and a minimised corpus of its own and no chunk dictionary.
    elif [ "$target" = FuzzMIDIBytes ]; then kept=MIDICorpus/minimized dict=(); cp MIDICorpus/seeds/* "$work"/
    elif [ "$target" = FuzzSoundFont ]; then kept=Corpus/soundfont; python3 make-soundfont-seed.py "$work/seed-generated.sf2"
    elif [ "$target" = FuzzDLS ]; then kept=Corpus/dls; python3 make-dls-seed.py "$work/seed-generated.dls"
    else cp "$seeds"/* Corpus/regressions/* "$work"/ 2>/dev/null || true; fi
    cp "$kept"/* "$work"/ 2>/dev/null || true
    # libFuzzer separates its status fields with tabs or spaces: match either.
    SWIFT_BACKTRACE=enable=no .build/debug/$target "$work" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        "${dict[@]}" -artifact_prefix=crashes/$target- -print_final_stats=1 2>&1 |
        grep -E "^(#[0-9]+[[:space:]]+DONE|Done|==[0-9]+==ERROR|SUMMARY|stat::number_of_executed_units|stat::peak_rss_mb)" || true
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
        SWIFT_BACKTRACE=enable=no .build/debug/$target -merge=1 "$kept" "$work" 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" || true
    fi
    rm -rf "$work"
done
if ls crashes/* >/dev/null 2>&1; then echo "fuzzing found crashes in FuzzTesting/crashes/"; exit 1; fi
echo "fuzzing: no crash in ${seconds}s per target (${targets[*]})"
