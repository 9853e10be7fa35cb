#!/usr/bin/env bash
# The test suite: everything but the device tests in parallel, then the device tests (HAL, I/O units,
# the book's device programs, afplay/afrecord) on their own against the PulseAudio server. The device tests
# measure real-time playback and recording; sharing two cores with the DSP tests would starve the audio
# threads and the server, and they would hear dropouts that are the test run's, not the code's.
set -euo pipefail
cd "$(dirname "$0")/.."
devices='HALTests|IOUnitTests|IOUnitAllocationTests|DeviceScenarioTests|PlayRecordToolTests|VoiceProcessingTests'
swift build --build-tests
swift test --skip-build --skip "$devices"
scripts/pulse-server.sh
swift test --skip-build --filter "$devices"
