#!/usr/bin/env python3
"""Checks the layers inside AudioToolbox: a file may name the types and top-level functions of its own
folder and of the folders below it, never of a folder above. The order, lowest first, is LAYERS.

    scripts/check-layers.py            check Sources/AudioToolbox; exit 1 and list every upward reference
    scripts/check-layers.py --self-test   plant an upward reference in a copy and require that it is caught

What is matched: names declared at the top level of a file (class, struct, enum, protocol, typealias,
actor, func, let, var) and the types those files extend. Members added by an extension to a lower type
are not attributed (a method call on a lower type is not seen); comments and strings are ignored.
Apple's public API functions (AudioComponentInstanceNew, AudioUnitRender, ...) may be called from any
layer: they are the module's front door and reach the object behind a handle at run time, as a client's
call would. Everything else, types above all, obeys the order."""
import os, re, shutil, subprocess, sys, tempfile

# Lowest first. Folders on one line share a layer (they may use each other).
LAYERS = [
    ["Support"],
    ["Utility"],
    ["Component", "AudioUnit"],
    ["Codec"],
    ["Converter"],
    ["File"],
    ["AUBase"],
    ["Units"],
    ["Graph"],
    ["Sequence"],
    ["Registry"],
    ["AUAudioUnit"],
    ["Queue"],
    ["Services"],
]
ROOT_FILES_LAYER = len(LAYERS)  # files directly in Sources/AudioToolbox (Exports.swift) may use everything

DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|nonisolated|static|indirect)\s+)*"
                  r"(?:class|struct|enum|protocol|typealias|actor|func|let|var)\s+`?([A-Za-z_]\w*)")
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """Source without comments and string literals (so prose never counts as a reference)."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", "", text)
    return re.sub(r"//[^\n]*", "", text)


def layer_of(folder):
    for i, names in enumerate(LAYERS):
        if folder in names:
            return i
    return None


def check(src):
    files = []
    for dirpath, _, names in os.walk(src):
        for n in names:
            if n.endswith(".swift"):
                path = os.path.join(dirpath, n)
                rel = os.path.relpath(path, src)
                folder = rel.split(os.sep)[0] if os.sep in rel else None
                files.append((path, rel, folder))
    problems = []
    declared = {}  # name -> (layer, file)
    for path, rel, folder in files:
        if folder is None:
            continue
        layer = layer_of(folder)
        if layer is None:
            problems.append(f"{rel}: folder {folder} is in no layer (add it to LAYERS in scripts/check-layers.py)")
            continue
        for line in strip(open(path, encoding="utf-8").read()).split("\n"):
            if line[:1].isspace():
                continue  # members, not top-level declarations
            m = DECL.match(line)
            if m and re.match(r"(?:@\w+\s+)*(?:private|fileprivate)\b", line):
                continue  # file-local: nobody else can name it
            if m and re.match(r"(?:@\w+(?:\([^)]*\))?\s+)*public\s+func\b", line):
                continue  # Apple's C API: the front door, callable from any layer (it dispatches on a handle)
            if m and m.group(1) not in declared:
                declared[m.group(1)] = (layer, rel)
    for path, rel, folder in files:
        layer = ROOT_FILES_LAYER if folder is None else layer_of(folder)
        if layer is None:
            continue
        seen = set()
        for number, line in enumerate(strip(open(path, encoding="utf-8").read()).split("\n"), 1):
            for match in IDENT.finditer(line):
                name = match.group(0)
                if match.start() > 0 and line[match.start() - 1] == ".":
                    continue  # a member (x.register), not the top-level name
                owner = declared.get(name)
                if owner and owner[0] > layer and (name, owner[1]) not in seen:
                    seen.add((name, owner[1]))
                    problems.append(f"{rel}:{number}: {folder} (layer {layer}) names {name} from {owner[1]} "
                                    f"(layer {owner[0]}: {'/'.join(LAYERS[owner[0]])})")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "..", "Sources", "AudioToolbox")
    if "--self-test" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "AudioToolbox")
            shutil.copytree(src, copy)
            if check(copy):
                print("self-test: the tree has upward references before planting one"); return 1
            with open(os.path.join(copy, "Support", "Planted.swift"), "w") as f:
                f.write("func planted() -> AUGraphObject? { nil }\n")
            found = check(copy)
            if not any("Planted.swift" in p and "AUGraphObject" in p for p in found):
                print("self-test: a planted upward reference (Support -> Graph) was not caught"); return 1
            print("self-test: the planted upward reference was caught:\n  " + "\n  ".join(found))
            return 0
    problems = check(src)
    for p in problems:
        print(p)
    print(f"check-layers: {len(problems)} upward reference(s) in {len(LAYERS)} layers: "
          + " < ".join("/".join(l) for l in LAYERS))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
