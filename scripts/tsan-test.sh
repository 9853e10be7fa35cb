#!/usr/bin/env bash
# Runs the concurrent tests (live graph edits while rendering, CARingBuffer's writer and reader) under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT_BACKTRACE=enable=no swift test --sanitize=thread --scratch-path .build-tsan --filter "LiveGraphEditTests|AUGraphTests|RenderThreadGraphEditTests|CARingBufferTests|AudioQueueOfflineTests|EngineLiveEditTests" "$@"
