// SoundFont sampler speed: AudioDSP's SamplerEngine against the `fluidsynth` command (Debian: fluidsynth,
// timgm6mb-soundfont), in one run, on the same notes: a chord of held string-ensemble notes (looping samples,
// filter and envelopes running) for 10 s at 44.1 kHz. Reported: voices sounding, CPU seconds per run (median of
// 3), x real time, and voices per core = voices × x real time. fluidsynth renders the same notes from a MIDI file
// with `-F` (one core: synth.cpu-cores=1, polyphony 256, reverb and chorus off); its CPU time is the child's
// rusage, minus a run of an empty file of the same length (loading the bank and writing silence).
import AudioDSP
import Foundation

let bankPath = "/usr/share/sounds/sf2/TimGM6mb.sf2"
let rate = 44100.0
let seconds = 10.0
let noteCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 64
let program = 48
let runs = 3

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func childCPUSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

func median(_ x: [Double]) -> Double { x.sorted()[x.count / 2] }

/// Notes spread over channels 0...7 (no drum channel), keys 36 upwards, all held for the whole file.
func notes() -> [(channel: Int, key: Int)] { (0 ..< noteCount).map { (channel: $0 % 8, key: 36 + $0 % 60) } }

func midiFile(empty: Bool) -> [UInt8] {
    var track: [UInt8] = []
    if !empty {
        for c in 0 ..< 8 { track += [0, 0xC0 | UInt8(c), UInt8(program)] }
        for n in notes() { track += [0, 0x90 | UInt8(n.channel), UInt8(n.key), 100] }
    }
    // After 10 s (9600 ticks at 960 ticks per second: 480 per quarter, 120 bpm) all sound off on every channel
    // (fluidsynth -F renders on while voices sound), then the end of the track.
    let ticks = Int(seconds * 960)
    track += [UInt8(0x80 | (ticks >> 7) & 0x7F), UInt8(ticks & 0x7F), 0xB0, 120, 0]
    for c in 1 ..< 8 { track += [0, 0xB0 | UInt8(c), 120, 0] }
    track += [0, 0xFF, 0x2F, 0]
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    return Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + be32(track.count) + track
}

guard let font = try? SoundFont(contentsOf: bankPath) else {
    print("SamplerBench: \(bankPath) is missing (Debian package timgm6mb-soundfont)")
    exit(1)
}

// Ours.
var ourTimes: [Double] = []
var voices = 0
let left = UnsafeMutablePointer<Float>.allocate(capacity: 512), right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
for _ in 0 ..< runs {
    let engine = SamplerEngine(sampleRate: rate, maximumVoices: 256)
    engine.load(font)
    for c in 0 ..< 8 { engine.handle(status: 0xC0 | UInt8(c), data1: UInt8(program), data2: 0) }
    for n in notes() { engine.handle(status: 0x90 | UInt8(n.channel), data1: UInt8(n.key), data2: 100) }
    let frames = Int(seconds * rate)
    let start = cpuSeconds()
    var done = 0
    while done < frames {
        engine.render(frameCount: 512, left: left, right: right)
        done += 512
        if done == 512 * 86 { voices = engine.activeVoiceCount }  // about 1 s in
    }
    ourTimes.append(cpuSeconds() - start)
}
let ours = median(ourTimes)
print("notes \(noteCount), voices sounding (engine, at 1 s): \(voices)")
print(String(format: "SamplerEngine: %.3f s CPU for %.0f s, %.1fx real time, %.0f voices per core", ours, seconds, seconds / ours, Double(voices) * seconds / ours))

// fluidsynth.
let fluidsynth = ["/usr/bin/fluidsynth", "/usr/local/bin/fluidsynth"].first { FileManager.default.isExecutableFile(atPath: $0) }
guard let fluidsynth else { print("fluidsynth: missing (Debian package fluidsynth)"); exit(0) }
let dir = NSTemporaryDirectory() + "samplerbench-\(getpid())"
try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: dir) }
func fluidRun(empty: Bool) -> Double {
    let mid = dir + (empty ? "/empty.mid" : "/notes.mid")
    FileManager.default.createFile(atPath: mid, contents: Data(midiFile(empty: empty)))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: fluidsynth)
    p.arguments = ["-ni", "-q", "-g", "1", "-R", "0", "-C", "0", "-r", "44100", "-o", "synth.polyphony=256", "-o", "synth.cpu-cores=1",
                   "-T", "raw", "-F", dir + "/out.raw", bankPath, mid]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let before = childCPUSeconds()
    try? p.run()
    p.waitUntilExit()
    return childCPUSeconds() - before
}
var fsTimes: [Double] = [], fsEmpty: [Double] = []
for _ in 0 ..< runs { fsTimes.append(fluidRun(empty: false)); fsEmpty.append(fluidRun(empty: true)) }
let fs = median(fsTimes) - median(fsEmpty)
print(String(format: "fluidsynth: %.3f s CPU (%.3f s with notes, %.3f s empty file), %.1fx real time, %.0f voices per core (same notes)",
             fs, median(fsTimes), median(fsEmpty), seconds / fs, Double(voices) * seconds / fs))
print(String(format: "ratio ours / fluidsynth (voices per core): %.2f", fs / ours))
print(String(format: "summary: Sampler voices per core vs fluidsynth | %.2fx | -", fs / ours))
