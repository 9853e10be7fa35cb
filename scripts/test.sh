#!/usr/bin/env bash
# The test suite: everything but the device tests in parallel, then the device tests (HAL, I/O units, the
# book's device programs, afplay/afrecord) on their own. The device tests measure real-time playback and
# recording; sharing two cores with the DSP tests would starve the audio threads and the server, and they
# would hear dropouts that are the test run's, not the code's. Each device suite runs in its own test process with
# its own private server, a few at a time (they mostly wait on real-time playback), so none hears another.
# Every test talks to a private PulseAudio server started here (own runtime directory and socket, reached
# through PULSE_SERVER) and stopped at the end, whatever happened: a server the user runs is never touched.
# Each phase is reported, even after an earlier one failed; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
devices='AudioQueueChannelAssignmentTests|AVAudioPlayerDeviceTests|AVAudioRecorderDeviceTests|AVAudioSessionDeviceTests|IOUnitTests|AUAudioUnitIOTests|IOUnitAllocationTests|DeviceScenarioTests|PlayRecordToolTests|AudioQueueDeviceTests|AudioQueueAllocationTests|SystemSoundTests|EngineDeviceTests|BookChapter7DeviceTests|OpenALDeviceTests|AVMIDIPlayerDeviceTests|JACKMIDITests|ALSASequencerTests|SpeechSynthesizerDeviceTests'
# The echo canceller is measured alone, on a fresh private server of its own: its adaptive filter needs an unbroken
# far-end signal, and with the other device suites sharing the two cores its IO thread misses cycles (CI measured
# 5.8 dB of echo reduction that way against 24-25 dB alone; 4.2 dB once on the server the parallel phase had used).
voice='VoiceProcessingTests'
# Tests that change the server's sink and source volumes.
volume='HALTests|HALVolumeTests|AudioHardwareServiceTests'
# Device suites at once. Two keep the phase near three minutes; with four, the two cores were loaded enough for
# capture streams to drop frames (the run's fault, not the code's). A suite that fails among others is run again
# alone, and the summary names it.
device_jobs=${OCA_DEVICE_JOBS:-2}
server_dir=$(mktemp -d "${TMPDIR:-/tmp}/oca-pulse.XXXXXX")
trap 'scripts/pulse-server.sh stop "$server_dir"; rm -rf "$server_dir"' EXIT
export PULSE_SERVER="unix:$server_dir/native"
# CoreMIDI's JACK backend connects to the server JACK_DEFAULT_SERVER names ("default" without it): point it at a
# name no server has, so that no test registers a client with a JACK server the user runs (JACKMIDITests start
# private servers of their own and point it at those).
export JACK_DEFAULT_SERVER="oca-test-none-$$"

results=()
failed=0
log="$server_dir/phase.log"
# Runs a phase, keeping its output; a failed phase's failure lines are repeated in the summary, where a
# reader of only the end of the output (CI shows the tail) finds them. The server's phase is not piped:
# its daemons would hold the pipe open.
phase() {
    local name=$1 t0=$SECONDS; shift
    echo "== $name"
    if [ "$name" = "private sound server" ]; then "$@" > "$log" 2>&1; local s=$?; cat "$log"; else "$@" 2>&1 | tee "$log"; local s=$?; fi
    if [ "$s" = 0 ]; then
        results+=("$name: passed ($((SECONDS - t0)) s)")
        while IFS= read -r line; do results+=("    ${line#== }"); done < <(grep -E '^== device suites that failed among others' "$log")
    else
        results+=("$name: FAILED ($((SECONDS - t0)) s)")
        failed=1
        while IFS= read -r line; do results+=("    $line"); done \
            < <(grep -E 'recorded an issue|Expectation failed|error:|failed:|Fatal error|Crash' "$log" | grep -v '^✔' | head -40)
    fi
}
skip() { results+=("$1: skipped (the build failed)"); }

# One device suite in its own test process with its own private server: a suite measures what the server's sink
# plays and records, and changes its volumes, so two suites sharing a server hear (and turn down) each other.
# Within a suite the tests run one at a time (the suites are .serialized). Output is printed whole at the end.
device_suite() {
    local suite=$1 dir status
    test_bundle=${test_bundle:-"$(swift build --show-bin-path)/OpenCoreAudioPackageTests.xctest"}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/oca-pulse.XXXXXX")
    if scripts/pulse-server.sh start "$dir" > "$dir/suite.log" 2>&1; then
        # The test bundle itself: `swift test` holds a lock on .build that would run the suites one after another.
        PULSE_SERVER="unix:$dir/native" NO_COLOR=1 "$test_bundle" --testing-library swift-testing --filter "[./]$suite/" \
            >> "$dir/suite.log" 2>&1
        status=$?
    else
        status=1
        echo "$suite: its private sound server did not start" >> "$dir/suite.log"
    fi
    scripts/pulse-server.sh stop "$dir" > /dev/null 2>&1
    { flock 9; echo "== device suite $suite (exit $status)"; cat "$dir/suite.log"
      [ "$status" = 0 ] || echo "$suite" >> "$server_dir/failed-suites"; } 9> "$server_dir/print.lock"
    rm -rf "$dir"
    return $status
}
# Every device suite, $device_jobs at a time, then each that failed again alone; fails if any failed alone.
device_suites() {
    test_bundle="$(swift build --show-bin-path)/OpenCoreAudioPackageTests.xctest"
    export -f device_suite
    export server_dir test_bundle
    rm -f "$server_dir/failed-suites"
    tr '|' '\n' <<< "$devices|$volume" | xargs -P "$device_jobs" -I{} bash -c 'device_suite "$1"' _ {}
    [ -f "$server_dir/failed-suites" ] || return 0
    local first status=0 suite
    first=$(cat "$server_dir/failed-suites")
    rm -f "$server_dir/failed-suites"
    for suite in $first; do
        echo "== device suite $suite failed among others; run again alone"
        device_suite "$suite" || status=1
    done
    [ "$status" = 0 ] && echo "== device suites that failed among others and passed alone: $(echo $first)"
    return $status
}

phase "build" swift build --build-tests
if [ "$failed" = 0 ]; then
    phase "private sound server" scripts/pulse-server.sh start "$server_dir"
    phase "tests (parallel)" swift test --skip-build --skip "$devices|$voice|$volume"
    phase "device tests" device_suites
    phase "voice processing" device_suite "$voice"
else
    skip "private sound server"; skip "tests (parallel)"; skip "device tests"; skip "voice processing"
fi
echo "== summary"
printf '%s\n' "${results[@]}"
exit $failed
