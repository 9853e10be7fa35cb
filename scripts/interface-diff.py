#!/usr/bin/env python3
"""Apple's public C interface against ours: for each module, the names Apple declares that we have, lack,
or have with another value (constants) or parameter count (functions).

    scripts/interface-diff.py                 the counts per module (the README shows them)
    scripts/interface-diff.py --list lack     also every missing name, as a declaration (module, kind, value)
    scripts/interface-diff.py --list differ   also every name whose value or parameter count differs
    scripts/interface-diff.py --extract SDK   rebuild scripts/interface/apple.tsv from an SDK's Frameworks
                                              folder (a public copy of Apple's headers), then compare

Apple's side is scripts/interface/apple.tsv: facts (module, kind, name, value or parameter count, C type)
read out of the macOS SDK headers by --extract (what a 64-bit build sees: `#if !__LP64__` and `#if !TARGET_RT_64_BIT` blocks are left out, as
Apple's Swift interfaces leave them out); headers of Objective-C classes (AUAudioUnit, AVFAudio),
driver plug-in headers and Carbon views are not read. Our side is read from our C module headers (clang's
AST: every enum constant with its value, typedef, struct and function) and our Swift sources (`public`
declarations; a function's parameter count from its signature).
Not compared: types' layouts, Swift signatures beyond the parameter count, Objective-C and Swift-only API."""
import collections, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
TABLE = os.path.join(HERE, "interface", "apple.tsv")

# Apple's headers read per module (relative to the SDK's Frameworks folder), and those left out.
APPLE = {
    "CoreAudioTypes": ["CoreAudioTypes.framework/Headers/CoreAudioBaseTypes.h",
                       "CoreAudioTypes.framework/Headers/AudioSessionTypes.h"],
    "CoreAudio": ["CoreAudio.framework/Headers/AudioHardwareBase.h", "CoreAudio.framework/Headers/AudioHardware.h",
                  "CoreAudio.framework/Headers/AudioHardwareDeprecated.h", "CoreAudio.framework/Headers/HostTime.h"],
    "AudioToolbox": [f"AudioToolbox.framework/Headers/{h}.h" for h in [
        "AUComponent", "AUGraph", "AUMIDIController", "AudioCodec", "AudioComponent", "AudioConverter", "AudioFile",
        "AudioFileComponent", "AudioFileStream", "AudioFormat", "AudioHardwareService", "AudioOutputUnit", "AudioQueue",
        "AudioServices", "AudioSession", "AudioUnitParameters", "AudioUnitProperties", "AudioUnitUtilities",
        "AudioWorkInterval", "CAFFile", "CAShow", "CoreAudioClock", "DefaultAudioOutput", "ExtendedAudioFile",
        "MusicDevice", "MusicPlayer"]],
    "CoreMIDI": [f"CoreMIDI.framework/Headers/{h}.h" for h in [
        "MIDIServices", "MIDISetup", "MIDIThruConnection", "MIDIMessages", "MIDIBluetoothConnection", "MIDIDriver"]],
}
OURS_C = {"CoreAudioTypes": "CCoreAudioTypes", "CoreAudio": "CCoreAudio", "AudioToolbox": "CAudioToolbox", "CoreMIDI": "CCoreMIDI"}
OURS_SWIFT = ["CoreAudioTypes", "CoreAudio", "AudioToolbox", "AudioUnit", "AVFoundation", "CoreMIDI"]


# MARK: Reading C headers without a compiler (Apple's: they need the SDK's own includes)

def strip_comments(text):
    text = re.sub(r"/\*[\s\S]*?\*/", " ", text)
    return re.sub(r"//[^\n]*", "", text)


MACRO = re.compile(r"\b(?:API_\w+|SPI_\w+|CF_\w+|NS_\w+|MIDI_\w+|AVAILABLE\w*|AUDIO_\w+|__\w+|DEPRECATED\w*)\b")


def strip_macros(s):
    """Removes availability and attribute macros with their (nested) arguments."""
    out, i = [], 0
    while True:
        m = MACRO.search(s, i)
        if not m:
            out.append(s[i:])
            return "".join(out)
        out.append(s[i:m.start()])
        j = m.end()
        while j < len(s) and s[j].isspace():
            j += 1
        if j < len(s) and s[j] == "(":
            depth = 0
            while j < len(s):
                depth += s[j] == "("
                depth -= s[j] == ")"
                j += 1
                if depth == 0:
                    break
        i = j


def c_value(expr, known):
    """An enum initialiser's value: integers, four-character codes, shifts, or, not, casts, earlier names."""
    e = strip_macros(expr)
    e = re.sub(r"'(.{4})'", lambda m: str(int.from_bytes(m.group(1).encode("latin-1"), "big")), e)
    e = re.sub(r"'(.)'", lambda m: str(ord(m.group(1))), e)
    e = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU]?)\b", r"\1", e)
    e = re.sub(r"\(\s*(?:unsigned\s+|signed\s+)?(?:UInt\d+|SInt\d+|Int\d+|int|long|OSStatus|AudioObjectID|\w+ID|\w+Type|\w+Flags)\s*\)", "", e)
    e = e.replace("~", " ~").replace("&&", " and ").replace("||", " or ")
    e = e.strip()
    if not e:
        return None
    try:
        return int(eval(e, {"__builtins__": {}}, dict(known)))
    except Exception:
        return None


def statements(text):
    """Top-level statements (split on ; at brace depth 0), with their brace blocks inside."""
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            yield text[start:i]
            start = i + 1


def lp64_only(text):
    """The text a 64-bit build compiles: branches under `#if !__LP64__` (and the #else of `#if __LP64__`) are
    dropped (and those of `#if !TARGET_RT_64_BIT`), since Apple's Swift interfaces (64-bit only) never had those names; other conditions keep every branch."""
    out, stack = [], []  # stack: for each open #if, whether its current branch is dropped (None: not an LP64 test)
    for line in text.split("\n"):
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(.*)", line)
        if d:
            kind, cond = d.group(1), re.sub(r"/\*.*?\*/|//.*", "", d.group(2)).strip()
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(True if kind == "if" and cond in ("!__LP64__", "!TARGET_RT_64_BIT")
                             else False if kind == "if" and cond in ("__LP64__", "TARGET_RT_64_BIT") else None)
            elif kind == "else" and stack and stack[-1] is not None:
                stack[-1] = not stack[-1]
            elif kind == "elif" and stack:
                stack[-1] = None
            elif kind == "endif" and stack:
                stack.pop()
            out.append(line)
            continue
        out.append("" if any(stack) else line)
    return "\n".join(out)


def read_apple_header(path, module, rows, known):
    text = lp64_only(open(path, encoding="utf-8", errors="replace").read())
    for m in re.finditer(r"^\s*#\s*define\s+(k[A-Z]\w*)\s+(.+)$", text, re.M):
        v = c_value(strip_comments(m.group(2)), known)
        rows.append((module, "const", m.group(1), "" if v is None else str(v), "define"))
        if v is not None:
            known[m.group(1)] = v
    text = "\n".join(l for l in strip_comments(text).split("\n") if not l.lstrip().startswith("#"))
    text = re.sub(r"\bextern\s+\"C\"\s*\{", " ", text)
    for st in statements(text):
        s = " ".join(st.split())
        if "@interface" in s or "@protocol" in s:
            continue
        enum = re.match(r"(?:typedef\s+)?(?:CF_ENUM|CF_OPTIONS|CF_CLOSED_ENUM|NS_ENUM|NS_OPTIONS)\s*\(\s*([\w ]+?)\s*(?:,\s*(\w+))?\s*\)\s*\{(.*)\}\s*(\w*)", s) \
            or re.match(r"(?:typedef\s+)?enum\s*(\w*)\s*(?::\s*(\w+))?\s*\{(.*)\}\s*(\w*)", s)
        if enum:
            ctype = enum.group(1) or "UInt32"
            # The word after the braces names the type, unless it is an availability macro (`} API_AVAILABLE(...)`).
            if enum.group(4) and not re.match(r"(?:API_|__|CF_|NS_|AVAILABLE_|DEPRECATED_)", enum.group(4)):
                rows.append((module, "type", enum.group(4), "", "enum"))
            if enum.group(2) and re.match(r"[A-Z]", enum.group(2)):
                rows.append((module, "type", enum.group(2), "", "enum"))
            previous = -1
            for item in re.split(r",(?![^()]*\))", strip_macros(enum.group(3))):
                im = re.match(r"\s*([A-Za-z_]\w*)\s*(?:=\s*(.+))?$", item.strip())
                if not im or not item.strip():
                    continue
                v = c_value(im.group(2), known) if im.group(2) else previous + 1
                if v is not None:
                    known[im.group(1)] = v
                    previous = v
                rows.append((module, "const", im.group(1), "" if v is None else str(v), ctype.strip()))
            continue
        if s.startswith("typedef"):
            rec = re.match(r"typedef\s+(?:struct|union)\s+(\w*)\s*\{.*\}\s*(\w+)", s)
            if rec:
                rows.append((module, "type", rec.group(2), "", "struct"))
                continue
            fp = re.search(r"\(\s*[\^*]\s*(\w+)\s*\)\s*\(", s)
            name = fp.group(1) if fp else (re.findall(r"(\w+)\s*(?:API_\w+\s*\([^)]*\)\s*|CF_\w+\s*)*$", s) or [""])[0]
            if name:
                rows.append((module, "type", name, "", "typedef"))
            continue
        rec = re.match(r"struct\s+(\w+)\s*\{", s)
        if rec:
            rows.append((module, "type", rec.group(1), "", "struct"))
            continue
        const = re.match(r"(?:extern\s+)?(?:const\s+)?\w+\s+const\s+(k\w+)|extern\s+(?:const\s+)?CFStringRef\s+(?:const\s+)?(k\w+)", s)
        if const:
            rows.append((module, "const", const.group(1) or const.group(2), "", "extern"))
            continue
        fn = re.search(r"\b([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?:(?:API|SPI|CF|MIDI|AVAILABLE|__)\w*\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*)*$", s)
        if fn and not s.startswith(("struct", "union")) and not re.search(r"\(\s*[\^*]", s):
            params = fn.group(2).strip()
            arity = 0 if params in ("", "void") else len(re.split(r",(?![^()]*\))", params))
            rows.append((module, "func", fn.group(1), str(arity), ""))


def extract(sdk):
    rows, known = [], {}
    for module, headers in APPLE.items():
        for h in headers:
            read_apple_header(os.path.join(sdk, h), module, rows, known)
    # A name declared twice with different values (per platform or byte order, under #if) is not compared.
    values = collections.defaultdict(set)
    for r in rows:
        if r[3]:
            values[r[2]].add(r[3])
    seen, unique = set(), []
    for r in rows:
        if r[2] not in seen:
            seen.add(r[2])
            unique.append(r if len(values[r[2]]) <= 1 else r[:3] + ("",) + r[4:])
    os.makedirs(os.path.dirname(TABLE), exist_ok=True)
    with open(TABLE, "w") as f:
        f.write("# module\tkind\tname\tvalue or parameter count\tC type (facts read from Apple's macOS SDK headers by scripts/interface-diff.py --extract)\n")
        for r in sorted(unique, key=lambda r: (list(APPLE).index(r[0]), r[1], r[2])):
            f.write("\t".join(r) + "\n")
    print(f"interface-diff: {len(unique)} names read into {os.path.relpath(TABLE, ROOT)}")


# MARK: Ours

def constant(node):
    """The value clang computed for an enum constant's initialiser (None when it has none)."""
    for child in node.get("inner", []):
        if child.get("kind") == "ConstantExpr" and child.get("value") is not None:
            return child["value"]
        found = constant(child)
        if found is not None:
            return found
    return None

def ours():
    """name -> (kind, value or arity) over our C module headers and public Swift declarations."""
    have = {}
    includes = sum((["-I", os.path.join(ROOT, "Sources", d, "include")] for d in OURS_C.values()), [])
    for module, cdir in OURS_C.items():
        umbrella = os.path.join(ROOT, "Sources", cdir, "include", cdir + ".h")
        out = subprocess.run(["clang", "-x", "c", "-fsyntax-only", "-fblocks", "-Xclang", "-ast-dump=json"] + includes + [umbrella],
                             capture_output=True, text=True, check=True).stdout
        for node in json.loads(out).get("inner", []):
            kind, name = node.get("kind"), node.get("name")
            if kind == "EnumDecl":
                previous = -1
                for c in node.get("inner", []):
                    if c.get("kind") != "EnumConstantDecl":
                        continue
                    value = constant(c)
                    v = int(value) if value is not None else previous + 1
                    previous = v
                    have[c["name"]] = ("const", v)
                if name:
                    have[name] = ("type", None)
            elif kind == "FunctionDecl" and name:
                have[name] = ("func", len([p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]))
            elif kind in ("TypedefDecl", "RecordDecl") and name:
                have.setdefault(name, ("type", None))
            elif kind == "VarDecl" and name:
                have.setdefault(name, ("const", None))
    # Object-like macros (string keys such as kAFInfoDictionary_Title, numeric defines): the AST dump leaves them
    # out, but Swift imports them as constants. Function-like macros do not import, so they are skipped.
    define = re.compile(r"^\s*#\s*define\s+(\w+)(?!\()\s*(.*)$")
    for cdir in OURS_C.values():
        for dirpath, _, names in os.walk(os.path.join(ROOT, "Sources", cdir, "include")):
            for n in names:
                if not n.endswith(".h"):
                    continue
                for line in strip_comments(open(os.path.join(dirpath, n), encoding="utf-8").read()).split("\n"):
                    m = define.match(line)
                    if not m or not m.group(2).strip():
                        continue  # include guards define no value
                    lit = re.fullmatch(r"\(?\s*(-?(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\s*\)?", m.group(2).strip())
                    have.setdefault(m.group(1), ("const", int(lit.group(1), 0) if lit else None))
    decl = re.compile(r"^\s*(?:(?:@\w+|nonisolated)(?:\([^)]*\))?\s+)*public\s+(?:(?:static|final|nonisolated)\s+)*(func|let|var|struct|class|enum|typealias|protocol)\s+`?(\w+)`?")
    for module in OURS_SWIFT:
        for dirpath, _, names in os.walk(os.path.join(ROOT, "Sources", module)):
            for n in names:
                if not n.endswith(".swift"):
                    continue
                lines = open(os.path.join(dirpath, n), encoding="utf-8").read().split("\n")
                for i, line in enumerate(lines):
                    m = decl.match(line)
                    if not m or line.startswith((" ", "\t")):
                        continue  # no declaration, or a member rather than a module-level name
                    kind, name = m.group(1), m.group(2)
                    if kind == "func":
                        sig = " ".join(lines[i:i + 12])
                        sig = sig[sig.index("(", sig.index(name)):]
                        depth, end = 0, 0
                        for j, ch in enumerate(sig):
                            depth += ch == "("
                            depth -= ch == ")"
                            if depth == 0:
                                end = j
                                break
                        params = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "()", sig[1:end]).strip()
                        params = re.sub(r"<[^<>]*>", "", params)
                        have.setdefault(name, ("func", 0 if not params else len(params.split(","))))
                    elif kind in ("let", "var"):
                        lit = re.search(r"=\s*(-?(?:0x[0-9a-fA-F_]+|\d[\d_]*))\s*$", line)
                        have.setdefault(name, ("const", int(lit.group(1).replace("_", ""), 0) if lit else None))
                    else:
                        have.setdefault(name, ("type", None))
    return have


def same_value(a, b):
    return (a - b) % (1 << 32) == 0 if -(1 << 32) < a < (1 << 32) and -(1 << 32) < b < (1 << 32) else a == b


def main():
    args = sys.argv[1:]
    if "--extract" in args:
        extract(args[args.index("--extract") + 1])
    listing = args[args.index("--list") + 1] if "--list" in args else None
    apple = [l.rstrip("\n").split("\t") for l in open(TABLE) if not l.startswith("#")]
    have = ours()
    counts = collections.OrderedDict((m, collections.Counter()) for m in APPLE)
    lines = []
    for module, kind, name, value, ctype in apple:
        c = counts[module]
        c["apple"] += 1
        mine = have.get(name)
        if mine is None:
            c["lack"] += 1
            if listing == "lack":
                if kind == "const":
                    lines.append(f"{module}: let {name}: {ctype or '?'}{' = ' + value if value else ''}")
                elif kind == "func":
                    lines.append(f"{module}: func {name}(/* {value} parameters */)")
                else:
                    lines.append(f"{module}: {ctype or 'type'} {name}")
            continue
        c["have"] += 1
        if kind == "const" and value and mine[0] == "const" and mine[1] is not None:
            c["values compared"] += 1
            if not same_value(int(value), mine[1]):
                c["differ"] += 1
                if listing == "differ":
                    lines.append(f"{module}: {name} is {mine[1]} here, {value} at Apple")
        elif kind == "func" and mine[0] == "func" and mine[1] is not None:
            c["arities compared"] += 1
            if mine[1] != int(value):
                c["differ"] += 1
                if listing == "differ":
                    lines.append(f"{module}: {name} takes {mine[1]} parameters here, {value} at Apple")
    for l in lines:
        print(l)
    print(f"{'module':15} {'Apple':>6} {'have':>6} {'lack':>6} {'differ':>6}  {'(values / parameter counts compared)'}")
    total = collections.Counter()
    for module, c in counts.items():
        total.update(c)
        print(f"{module:15} {c['apple']:6} {c['have']:6} {c['lack']:6} {c['differ']:6}  ({c['values compared']} / {c['arities compared']})")
    print(f"{'all':15} {total['apple']:6} {total['have']:6} {total['lack']:6} {total['differ']:6}  "
          f"({total['values compared']} / {total['arities compared']})")
    return 1 if total["differ"] and "--strict" in args else 0


if __name__ == "__main__":
    sys.exit(main())
