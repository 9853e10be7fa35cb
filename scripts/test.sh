#!/usr/bin/env bash
# The test suite: everything but the device tests in parallel, then the device tests (HAL, I/O units, the
# book's device programs, afplay/afrecord) on their own. The device tests measure real-time playback and
# recording; sharing two cores with the DSP tests would starve the audio threads and the server, and they
# would hear dropouts that are the test run's, not the code's.
# Every test talks to a private PulseAudio server started here (own runtime directory and socket, reached
# through PULSE_SERVER) and stopped at the end, whatever happened: a server the user runs is never touched.
# Each phase is reported, even after an earlier one failed; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
devices='AudioQueueChannelAssignmentTests|AVAudioPlayerDeviceTests|AVAudioRecorderDeviceTests|AVAudioSessionDeviceTests|IOUnitTests|IOUnitAllocationTests|DeviceScenarioTests|PlayRecordToolTests|AudioQueueDeviceTests|AudioQueueAllocationTests|SystemSoundTests|EngineDeviceTests|BookChapter7DeviceTests|OpenALDeviceTests|AVMIDIPlayerDeviceTests|JACKMIDITests|ALSASequencerTests'
# The echo canceller is measured alone: its adaptive filter needs an unbroken far-end signal, and with the other
# device suites sharing the two cores its IO thread misses cycles (CI measured 5.8 dB of echo reduction that way
# against 24-25 dB alone).
voice='VoiceProcessingTests'
# Tests that change the private server's sink and source volumes run on their own and one at a time (they share the
# sink), after the other device tests,
# which measure levels on the same sink.
volume='HALTests|HALVolumeTests|AudioHardwareServiceTests'
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
    else
        results+=("$name: FAILED ($((SECONDS - t0)) s)")
        failed=1
        while IFS= read -r line; do results+=("    $line"); done \
            < <(grep -E 'recorded an issue|Expectation failed|error:|failed:|Fatal error|Crash' "$log" | grep -v '^✔' | head -40)
    fi
}
skip() { results+=("$1: skipped (the build failed)"); }

phase "build" swift build --build-tests
if [ "$failed" = 0 ]; then
    phase "private sound server" scripts/pulse-server.sh start "$server_dir"
    phase "tests (parallel)" swift test --skip-build --skip "$devices|$voice|$volume"
    phase "device tests" swift test --skip-build --filter "$devices"
    phase "voice processing" swift test --skip-build --filter "$voice"
    phase "device volume" swift test --skip-build --no-parallel --filter "$volume"
else
    skip "private sound server"; skip "tests (parallel)"; skip "device tests"; skip "voice processing"; skip "device volume"
fi
echo "== summary"
printf '%s\n' "${results[@]}"
exit $failed
