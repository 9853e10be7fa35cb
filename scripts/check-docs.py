#!/usr/bin/env python3
"""Every public or package function (and initializer) in Sources has a `///` comment, and every module's top file
(Exports.swift, or the file named after the module) states its threading contract in a `Threading:`
paragraph. Prints what is missing; exit 1 if anything is.

    scripts/check-docs.py            check
    scripts/check-docs.py --count    only the numbers"""
import os, re, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PUBLIC = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|package)\s+(?:(?:static|final|override|nonisolated|mutating|convenience|class)\s+)*(func|init)\b")
ATTRIBUTE = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s*)+$")
# The modules and the file that states each one's threading contract.
TOP_FILES = {
    "CoreAudioTypes": "Sources/CoreAudioTypes/Exports.swift",
    "CoreAudio": "Sources/CoreAudio/Exports.swift",
    "AudioToolbox": "Sources/AudioToolbox/Exports.swift",
    "AudioUnit": "Sources/AudioUnit/Exports.swift",
    "AVFoundation": "Sources/AVFoundation/Exports.swift",
    "AVFAudio": "Sources/AVFAudio/Exports.swift",
    "ApplicationServices": "Sources/ApplicationServices/SpeechSynthesis.swift",
    "AudioDSP": "Sources/AudioDSP/StreamingProcessor.swift",
    "OpenAL": "Sources/OpenAL/OpenAL.swift",
    "CoreMIDI": "Sources/CoreMIDI/CoreMIDI.swift",
    "OCAProperty": "Sources/OCAProperty/ObjectPropertyTable.swift",
}


def main():
    missing = []
    total = 0
    for dirpath, _, names in os.walk(os.path.join(ROOT, "Sources")):
        for n in sorted(names):
            if not n.endswith(".swift"):
                continue
            path = os.path.join(dirpath, n)
            lines = open(path, encoding="utf-8").read().split("\n")
            for i, line in enumerate(lines):
                if not PUBLIC.match(line):
                    continue
                total += 1
                j = i - 1
                while j >= 0 and ATTRIBUTE.match(lines[j]):
                    j -= 1
                if j < 0 or not lines[j].strip().startswith("///"):
                    missing.append(f"{os.path.relpath(path, ROOT)}:{i + 1}: {line.strip()[:100]}")
    threading = []
    for module, top in TOP_FILES.items():
        p = os.path.join(ROOT, top)
        if not os.path.exists(p) or "Threading:" not in open(p, encoding="utf-8").read():
            threading.append(f"{top}: no `Threading:` paragraph for module {module}")
    if "--count" not in sys.argv:
        for m in missing + threading:
            print(m)
    print(f"check-docs: {total - len(missing)} of {total} public functions have ///; "
          f"{len(TOP_FILES) - len(threading)} of {len(TOP_FILES)} modules state their threading contract")
    return 1 if missing or threading else 0


if __name__ == "__main__":
    sys.exit(main())
