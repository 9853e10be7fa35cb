// timestretch: raw Float32 interleaved audio from stdin, time-stretched (and optionally pitch-shifted) by
// AudioDSP's TimeStretcher / TimePitchProcessor, to stdout. Used by scripts/timepitch-quality.sh.
//   timestretch -r RATE [-c CHANNELS] [-s SAMPLERATE] [-p CENTS] [--music]
//               [--frame MS] [--overlap N] [--tolerance MS] [--search-rate HZ]
// RATE is input time per output time (2 plays twice as fast).
import AudioDSP
import Foundation

var rate = 1.0, channels = 1, sampleRate = 44100.0, cents = 0.0
var settings = TimeStretcherSettings.standard
var args = CommandLine.arguments.dropFirst()
@MainActor func value() -> String {
    guard let v = args.popFirst() else { FileHandle.standardError.write("missing value\n".data(using: .utf8)!); exit(2) }
    return v
}
while let a = args.popFirst() {
    switch a {
    case "-r": rate = Double(value())!
    case "-c": channels = Int(value())!
    case "-s": sampleRate = Double(value())!
    case "-p": cents = Double(value())!
    case "--music": settings = .music
    case "--frame": settings.frameDuration = Double(value())! / 1000
    case "--overlap": settings.overlap = Int(value())!
    case "--tolerance": settings.tolerance = Double(value())! / 1000
    case "--search-rate": settings.searchRate = Double(value())!
    case "--proximity": settings.proximityWeight = Double(value())!
    default: FileHandle.standardError.write("unknown option \(a)\n".data(using: .utf8)!); exit(2)
    }
}

let data = FileHandle.standardInput.readDataToEndOfFile()
let frames = data.count / (4 * channels)
var planes = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1)) }
data.withUnsafeBytes { raw in
    let f = raw.bindMemory(to: Float.self)
    for n in 0..<frames { for c in 0..<channels { planes[c][n] = f[n * channels + c] } }
}

typealias Process = (UnsafePointer<UnsafePointer<Float>>?, Int, Bool, UnsafePointer<UnsafeMutablePointer<Float>>, Int)
    -> (inputConsumed: Int, outputProduced: Int)
let process: Process
let finished: () -> Bool
if cents == 0 {
    let s = TimeStretcher(sampleRate: sampleRate, channels: channels, settings: settings,
                          minimumRate: min(rate, 1), maximumRate: max(rate, 1))
    s.rate = rate
    process = s.process
    finished = { s.isFinished }
} else {
    let p = TimePitchProcessor(sampleRate: sampleRate, channels: channels, settings: settings)
    p.rate = rate
    p.pitch = pow(2, cents / 1200)
    process = p.process
    finished = { p.isFinished }
}

let block = 4096
let outPlanes = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
let inPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels)
let outPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
for c in 0..<channels { outPointers[c] = outPlanes[c] }
var output = [Float]()
output.reserveCapacity(Int(Double(frames) / rate) * channels + block)
var consumed = 0
while !finished() {
    let n = min(block, frames - consumed)
    for c in 0..<channels { inPointers[c] = UnsafePointer(planes[c] + consumed) }
    let r = process(UnsafePointer(inPointers), n, consumed + n == frames, UnsafePointer(outPointers), block)
    consumed += r.inputConsumed
    for i in 0..<r.outputProduced { for c in 0..<channels { output.append(outPlanes[c][i]) } }
    if r.inputConsumed == 0 && r.outputProduced == 0 && n == 0 { break }
}
output.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
