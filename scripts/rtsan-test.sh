#!/usr/bin/env bash
# Runs the real-time tests under RealtimeSanitizer: inside the render loops they mark as real-time,
# any lock, sleep or blocking system call aborts with a stack trace. (Allocations are counted by the
# tests' own malloc override, which RTSan's malloc interceptor does not see.)
#
# RTSan needs only a different link: the region markers (COCASupport, CJack) are weak symbols that the
# sanitizer's runtime defines, and Swift code is not instrumented for it. So the debug build's objects
# (test.sh built them) are linked a second time into their own test bundle with the runtime, instead of
# building the whole package again under another scratch path (that took about 8 minutes of CI).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
bin=$(swift build --show-bin-path)
bundle="$bin/OpenCoreAudioPackageTests-rtsan.xctest"
# The test bundle's link command as SwiftPM wrote it into its build manifest, with the runtime added.
mapfile -t link < <(python3 - "$bin" "$bundle" <<'EOF'
import json, re, sys
bin_path, bundle = sys.argv[1], sys.argv[2]
manifest = open(f"{bin_path.rsplit('/', 2)[0]}/debug.yaml").read()  # .build/debug.yaml beside .build/<triple>/debug
target = f'{bin_path}/OpenCoreAudioPackageTests.xctest'
for m in re.finditer(r'\n  "C\.[^"]*":\n((?:    .*\n)+)', manifest):
    body = m.group(1)
    outputs = re.search(r'^    outputs: (\[.*\])$', body, re.M)
    args = re.search(r'^    args: (\[.*\])$', body, re.M)
    if outputs and args and json.loads(outputs.group(1)) == [target]:
        command = json.loads(args.group(1))
        command[command.index("-o") + 1] = bundle
        print("\n".join(command + ["-Xclang-linker", "-fsanitize=realtime"]))
        sys.exit(0)
sys.exit("rtsan-test.sh: the test bundle's link command is not in the build manifest")
EOF
)
"${link[@]}"
SWIFT_BACKTRACE=enable=no NO_COLOR=1 "$bundle" --testing-library swift-testing \
    --filter "RealTimeAllocationTests|ExtAudioFileAsyncTests|EffectAllocationTests|InstrumentAllocationTests|SpatialMixerHRTFTests|EngineAllocationTests|AUAudioUnitTests|JACKMIDITests"
