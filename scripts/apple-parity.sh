#!/usr/bin/env bash
# The Apple-parity set: Tests/ClientFidelityTests, tests written against Apple's API alone, built with
# APPLE_PARITY defined (OCA_APPLE_PARITY=1, see the end of Package.swift). On a Mac they build and run
# against Apple's own frameworks, so a behaviour they assert is Apple's; here they build and run against
# ours. First it checks that no file of the set reaches past Apple's API (our helpers, @testable, our
# C modules), then it lists the set, then builds and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
set_dir=Tests/ClientFidelityTests
forbidden='@testable|\bOCA[A-Z_]|\bFixture\b|\bTestSupport\b|\bTools\.|_AudioHardware|import +(AudioDSP|DeviceTestSupport|AllocationCounter|COCASupport|FileExercises|ToolSupport|CCoreAudio|CCoreAudioTypes|CAudioToolbox)\b'
if grep -nE "$forbidden" "$set_dir"/*.swift; then
    echo "apple-parity: the lines above use more than Apple's API; move the test out of $set_dir or rewrite it" >&2
    exit 1
fi
echo "== the Apple-parity set ($set_dir)"
for f in "$set_dir"/*.swift; do
    printf '%s:' "$(basename "$f" .swift)"
    grep -oE '@Test(\([^)]*\))? +func +[A-Za-z0-9_]+' "$f" | sed -E 's/.*func +/ /' | tr -d '\n'
    echo
done
echo "== build and run with APPLE_PARITY ($(uname -s): $([ "$(uname -s)" = Darwin ] && echo "Apple's frameworks" || echo "our modules"))"
OCA_APPLE_PARITY=1 swift build --build-tests
OCA_APPLE_PARITY=1 swift test --skip-build --filter 'ClientFidelityTests|AVFoundationUmbrellaTests|SubmoduleImportTests|TimePitchParameterTests'
