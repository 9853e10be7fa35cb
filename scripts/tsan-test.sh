#!/usr/bin/env bash
# Runs the concurrent tests (live graph and engine edits while rendering, CARingBuffer's writer and reader, the Audio
# Queue's offline render) under ThreadSanitizer. They build in their own package, Sanitizers/ (symlinks to the main
# package's test files, linked to its libraries), so that only the libraries and these suites are compiled with
# -sanitize=thread: the whole main package (every test target and tool) took about 8-9 minutes of CI's run.
# Extra arguments go to `swift test` (e.g. --filter EngineLiveEditTests).
set -euo pipefail
cd "$(dirname "$0")/../Sanitizers"
SWIFT_BACKTRACE=enable=no swift test --sanitize=thread "$@"
