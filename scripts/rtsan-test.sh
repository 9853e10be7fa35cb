#!/usr/bin/env bash
# Runs the real-time tests under RealtimeSanitizer: inside the render loops they mark as real-time,
# any lock, sleep or blocking system call aborts with a stack trace. (Allocations are counted by the
# tests' own malloc override, which RTSan's malloc interceptor does not see.)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests --scratch-path .build-rtsan -Xswiftc -Xclang-linker -Xswiftc -fsanitize=realtime
SWIFT_BACKTRACE=enable=no swift test --skip-build --scratch-path .build-rtsan --filter "RealTimeAllocationTests|ExtAudioFileAsyncTests|EffectAllocationTests|InstrumentAllocationTests|SpatialMixerHRTFTests|EngineAllocationTests|AUAudioUnitTests|JACKMIDITests"
