// auval: Apple's audio unit validation tool. `-a` lists every registered unit with its four-char codes;
// `-v TYPE SUBT MANU` validates one (AUValidator's steps and report layout); `-strict` turns warnings into
// failures, `-q` prints only the result, `-r N` repeats, `-w` waits for a key after validating (to attach a
// profiler, as Apple's does). Exit status 0 when every validation passed.
@_spi(OCATools) import AudioToolbox
import Foundation
import ToolSupport

func usage() -> String {
    """
    Usage:
    auval [-h] [-a] [-s TYPE] [-v TYPE SUBT MANU] [-strict] [-q] [-r N] [-w]

        -h, -help  print help
        -a         list every available audio unit (TYPE SUBT MANU  -  Manufacturer: Name)
        -s TYPE    list the units of one type
        -v TYPE SUBT MANU
                   validate the audio unit these four-char codes name
        -strict    warnings are failures
        -q         quiet: print only the result of each validation
        -r N       repeat the validation N times
        -w         wait for a key press after the validation
    """
}

func banner() {
    print("""

        AU Validation Tool (OpenCoreAudio)
        Version: 1.10.0
        Specify -h (-help) for command options

    """)
}

/// A four-char code argument; shorter ones are padded with spaces ('dls' is 'dls ').
func code(_ s: String) -> OSType {
    guard let c = fourCharCode(s.count < 4 ? s.padding(toLength: 4, withPad: " ", startingAt: 0) : s) else {
        warn("auval: not a four-char code: \(s)")
        exit(1)
    }
    return c
}

var list = false
var listType: OSType?
var validate: AudioComponentDescription?
var strict = false
var quiet = false
var repeats = 1
var wait = false
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "-h", "-help", "--help": print(usage()); exit(0)
    case "-a": list = true
    case "-s":
        guard !args.isEmpty else { warn(usage()); exit(1) }
        listType = code(args.removeFirst())
    case "-v":
        guard args.count >= 3 else { warn(usage()); exit(1) }
        validate = AudioComponentDescription(componentType: code(args[0]), componentSubType: code(args[1]),
                                             componentManufacturer: code(args[2]), componentFlags: 0, componentFlagsMask: 0)
        args.removeFirst(3)
    case "-strict": strict = true
    case "-q": quiet = true
    case "-r":
        guard let n = args.first.flatMap({ Int($0) }), n > 0 else { warn(usage()); exit(1) }
        repeats = n
        args.removeFirst()
    case "-w": wait = true
    default:
        warn("auval: unknown option: \(a)")
        warn(usage())
        exit(1)
    }
}
if !list && listType == nil && validate == nil { print(usage()); exit(1) }
if !quiet { banner() }

if list || listType != nil {
    var any = AudioComponentDescription(componentType: listType ?? 0, componentSubType: 0, componentManufacturer: 0,
                                        componentFlags: 0, componentFlagsMask: 0)
    var component: AudioComponent? = nil
    while let c = AudioComponentFindNext(component, &any) {
        component = c
        var d = AudioComponentDescription()
        AudioComponentGetDescription(c, &d)
        // Audio units only (the registry also holds codecs).
        guard AUValidator.audioUnitTypes.contains(d.componentType) else { continue }
        var name: Unmanaged<CFString>?
        AudioComponentCopyName(c, &name)
        let text = [d.componentType, d.componentSubType, d.componentManufacturer].map { fourCharacters($0) ?? "????" }.joined(separator: " ")
        print("\(text)  -  \((name?.takeRetainedValue() as String?) ?? "")")
    }
}

var passed = true
if let validate {
    for _ in 0..<repeats {
        let validator = AUValidator(description: validate, strict: strict, describeFormat: describe) { line in if !quiet { print(line) } }
        let ok = validator.run()
        if quiet { print("\(AUValidator.codes(validate)): \(ok ? "PASS" : "FAIL")") }
        passed = passed && ok
    }
}
if wait {
    print("Press return to exit.")
    _ = readLine()
}
exit(passed ? 0 : 1)
