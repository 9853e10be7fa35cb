// Sample-rate conversion: OpenCoreAudio's resampler against libsoxr and libsamplerate, in one run.
// Throughput converting 44100 -> 48000 Hz stereo Float32 (10 s of audio) as a multiple of real time
// and as a ratio to libsoxr at comparable quality; quality as THD+N of a 1 kHz sine (44.1 -> 48 kHz)
// and the level left of a 23 kHz sine when converting 48 -> 44.1 kHz (it must be filtered out).
import AudioDSP
import CSampleRate
import CSoxr
import Foundation

let channels = 2
let seconds = 10.0

/// One implementation set up for one conversion: `run` converts (the timed part: nothing but the library's
/// calls over buffers laid out as the library takes them), `output` then gives planar Floats (not timed).
/// Each peer gets its native layout outside the timing: planar for ours and soxr (its split I/O),
/// interleaved for libsamplerate (it has no planar interface).
struct PreparedConversion {
    let run: () -> Void
    let output: () -> [[Float]]
}

/// Prepares converting planar `input` from `inRate` to `outRate`.
typealias Converter = (_ input: [[Float]], _ inRate: Double, _ outRate: Double) -> PreparedConversion

/// Planar Float storage that the closures own (freed when the last closure goes).
final class Planar {
    let channels: [UnsafeMutablePointer<Float>]
    let frames: Int
    init(_ data: [[Float]], frames: Int) {
        self.frames = frames
        channels = data.map { a in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(repeating: 0, count: frames)
            for i in 0..<min(a.count, frames) { p[i] = a[i] }
            return p
        }
    }
    convenience init(channels: Int, frames: Int) { self.init(Array(repeating: [], count: channels), frames: frames) }
    deinit { channels.forEach { $0.deallocate() } }
}

func oursConverter(_ quality: SampleRateConverterQuality, _ algorithm: SampleRateConverterAlgorithm = .sinc) -> Converter {
    { input, inRate, outRate in
        let frames = input[0].count, count = input.count
        let expected = Int((Double(frames) * outRate / inRate).rounded())
        let inp = Planar(input, frames: frames), out = Planar(channels: count, frames: expected + 16)
        let inPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: count)
        let outPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: count)
        var produced = 0
        let src = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: count, quality: quality, algorithm: algorithm)
        return PreparedConversion(run: {
            src.reset()
            var consumed = 0
            produced = 0
            let block = 4096
            while !src.isFinished {
                let n = min(block, frames - consumed)
                for c in 0..<count {
                    inPointers[c] = UnsafePointer(inp.channels[c] + consumed)
                    outPointers[c] = out.channels[c] + produced
                }
                let room = min(expected + 16 - produced, block * 2)
                let (used, made) = src.process(input: n > 0 ? UnsafePointer(inPointers) : nil, inputFrames: n, endOfInput: consumed + n >= frames,
                                               output: UnsafePointer(outPointers), outputCapacity: room)
                consumed += used
                produced += made
                if used == 0 && made == 0 && room == 0 { break }
            }
        }, output: {
            withExtendedLifetime((inPointers, outPointers)) {}
            return out.channels.map { Array(UnsafeBufferPointer(start: $0, count: produced)) }
        })
    }
}

func soxrConverter(_ recipe: UInt) -> Converter {
    { input, inRate, outRate in
        let frames = input[0].count, count = input.count
        let expected = Int((Double(frames) * outRate / inRate).rounded())
        let capacity = expected + 64
        let inp = Planar(input, frames: frames), out = Planar(channels: count, frames: capacity)
        let inPointers = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: count)
        let outPointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
        var produced = 0
        return PreparedConversion(run: {
            var error: soxr_error_t?
            var io = soxr_io_spec(SOXR_FLOAT32_S, SOXR_FLOAT32_S)
            var quality = soxr_quality_spec(UInt(recipe), 0)
            let s = soxr_create(inRate, outRate, UInt32(count), &error, &io, &quality, nil)
            if let error { fatalError("soxr_create: \(String(cString: error))") }
            defer { soxr_delete(s) }
            var consumed = 0
            produced = 0
            let block = 4096
            while produced < capacity {
                let n = min(block, frames - consumed)
                for c in 0..<count {
                    inPointers[c] = UnsafeRawPointer(inp.channels[c] + consumed)
                    outPointers[c] = UnsafeMutableRawPointer(out.channels[c] + produced)
                }
                var idone = 0, odone = 0
                // Split I/O: `in` and `out` are arrays of channel pointers; nil input flushes.
                _ = soxr_process(s, n > 0 ? UnsafeRawPointer(inPointers) : nil, n, &idone,
                                 UnsafeMutableRawPointer(outPointers), capacity - produced, &odone)
                consumed += idone
                produced += odone
                if n == 0 && odone == 0 { break }
            }
        }, output: {
            withExtendedLifetime((inPointers, outPointers)) {}
            return out.channels.map { Array(UnsafeBufferPointer(start: $0, count: produced)) }
        })
    }
}

func libsamplerateConverter(_ type: Int32) -> Converter {
    { input, inRate, outRate in
        let frames = input[0].count, count = input.count
        let expected = Int((Double(frames) * outRate / inRate).rounded())
        var interleavedIn = [Float](repeating: 0, count: frames * count)
        for n in 0..<frames { for c in 0..<count { interleavedIn[n * count + c] = input[c][n] } }
        var interleavedOut = [Float](repeating: 0, count: (expected + 64) * count)
        var used = 0
        return PreparedConversion(run: {
            interleavedIn.withUnsafeMutableBufferPointer { inp in
                interleavedOut.withUnsafeMutableBufferPointer { out in
                    var data = SRC_DATA(data_in: inp.baseAddress, data_out: out.baseAddress, input_frames: frames,
                                        output_frames: expected + 64, input_frames_used: 0, output_frames_gen: 0, end_of_input: 1,
                                        src_ratio: outRate / inRate)
                    _ = src_simple(&data, type, Int32(count))
                    used = data.output_frames_gen
                }
            }
        }, output: {
            (0..<count).map { c in (0..<used).map { interleavedOut[$0 * count + c] } }
        })
    }
}

/// Prepares, runs once, and returns the output (for the quality measurements).
func convert(_ converter: Converter, _ input: [[Float]], _ inRate: Double, _ outRate: Double) -> [[Float]] {
    let prepared = converter(input, inRate, outRate)
    prepared.run()
    return prepared.output()
}

func sine(_ f: Double, rate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
    (0..<frames).map { Float(amplitude * sin(2 * Double.pi * f * Double($0) / rate)) }
}

/// THD+N in dB: the residual after a least-squares fit of the 1 kHz sine (middle of the signal).
func thdN(_ y: [Float], f: Double, rate: Double) -> Double {
    let start = y.count / 4, end = 3 * y.count / 4
    var ss = 0.0, cc = 0.0, sc = 0.0, ys = 0.0, yc = 0.0
    for n in start..<end {
        let s = sin(2 * Double.pi * f * Double(n) / rate), c = cos(2 * Double.pi * f * Double(n) / rate)
        ss += s * s; cc += c * c; sc += s * c; ys += Double(y[n]) * s; yc += Double(y[n]) * c
    }
    let det = ss * cc - sc * sc
    let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
    var signal = 0.0, noise = 0.0
    for n in start..<end {
        let fit = a * sin(2 * Double.pi * f * Double(n) / rate) + b * cos(2 * Double.pi * f * Double(n) / rate)
        signal += fit * fit
        noise += (Double(y[n]) - fit) * (Double(y[n]) - fit)
    }
    return 10 * log10(noise / signal)
}

/// Level (dB relative to the input's full-scale amplitude 0.5) of what remains of a 23 kHz tone.
func residualLevel(_ y: [Float]) -> Double {
    let start = y.count / 4, end = 3 * y.count / 4
    var power = 0.0
    for n in start..<end { power += Double(y[n]) * Double(y[n]) }
    let rms = (power / Double(end - start)).squareRoot()
    return 20 * log10(max(rms, 1e-20) / (0.5 / 2.0.squareRoot()))
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

let frames = Int(44100 * seconds)
let program = [sine(1000, rate: 44100, frames: frames), sine(1000, rate: 44100, frames: frames, amplitude: 0.25)]
let contenders: [(String, Converter, String)] = [
    ("ours Max", oursConverter(.max), "soxr VHQ"),
    ("ours High", oursConverter(.high), "soxr HQ"),
    ("ours Medium", oursConverter(.medium), "soxr MQ"),
    ("ours Low", oursConverter(.low), "soxr LQ"),
    ("ours Min", oursConverter(.min), "soxr QQ"),
    ("ours Linear", oursConverter(.min, .linear), "-"),
    ("soxr VHQ", soxrConverter(UInt(SOXR_VHQ)), ""),
    ("soxr HQ", soxrConverter(UInt(SOXR_HQ)), ""),
    ("soxr MQ", soxrConverter(UInt(SOXR_MQ)), ""),
    ("soxr LQ", soxrConverter(UInt(SOXR_LQ)), ""),
    ("soxr QQ", soxrConverter(UInt(SOXR_QQ)), ""),
    ("libsamplerate best", libsamplerateConverter(Int32(SRC_SINC_BEST_QUALITY)), ""),
    ("libsamplerate medium", libsamplerateConverter(Int32(SRC_SINC_MEDIUM_QUALITY)), ""),
    ("libsamplerate fastest", libsamplerateConverter(Int32(SRC_SINC_FASTEST)), ""),
]

let runs = 7
print("Resampling 44100 -> 48000 Hz, \(channels) ch Float32, \(Int(seconds)) s of audio; median of \(runs) rounds (each contender once a round), conversion only")
print("(ours: \(ProcessInfo.processInfo.environment["OCA_DSP_NO_AVX2"] == nil ? "AVX2 kernels where the CPU has them" : "portable kernels, OCA_DSP_NO_AVX2 set"))")
print("converter               x real time  vs soxr (same tier)  THD+N 1 kHz   23 kHz left (48k->44.1k)")
var speeds: [String: Double] = [:]
var rows: [(String, Double, String, Double, Double)] = []
let tone23k = [sine(23000, rate: 48000, frames: 48000)]
let tone1k = [sine(1000, rate: 44100, frames: 44100)]
// Every contender runs once per round, in turn, so that whatever else the machine does lands on all of them
// alike (the ratios are of medians over the same rounds).
let prepared = contenders.map { $0.1(program, 44100, 48000) }
var times = Array(repeating: [Double](), count: contenders.count)
for _ in 0..<runs {
    for (i, conversion) in prepared.enumerated() {
        let t0 = DispatchTime.now().uptimeNanoseconds
        conversion.run()
        times[i].append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
    }
}
for (i, (name, converter, _)) in contenders.enumerated() {
    let out = prepared[i].output()
    precondition(abs(out[0].count - Int(Double(frames) * 48000 / 44100)) < 200, "\(name) produced \(out[0].count) frames")
    let speed = seconds / median(times[i])
    speeds[name] = speed
    let thd = thdN(convert(converter, tone1k, 44100, 48000)[0], f: 1000, rate: 48000)
    let alias = residualLevel(convert(converter, tone23k, 48000, 44100)[0])
    rows.append((name, speed, "", thd, alias))
}
for (name, speed, _, thd, alias) in rows {
    let peer = contenders.first { $0.0 == name }!.2
    let ratio = speeds[peer].map { String(format: "%.2fx", speed / $0) } ?? ""
    func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
    func lpad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
    print(pad(name, 22) + "  " + lpad(String(format: "%.0f", speed), 11) + "  " + lpad(ratio, 19) + "  "
          + String(format: "%8.1f dB   %8.1f dB", thd, alias))
}
// Issue 17's resampler goals, for run.sh's summary table (THD+N printed as a positive margin in dB).
for (name, speed, _, thd, _) in rows where name == "ours High" || name == "ours Max" {
    let peer = contenders.first { $0.0 == name }!.2
    if let p = speeds[peer] {
        print(String(format: "summary: Resampler %@ vs %@ | %.2fx | %@", name, peer, speed / p, name == "ours High" ? ">= 0.9x" : "-"))
    }
    print(String(format: "summary: Resampler %@ THD+N | %.1f dB | %@", name, -thd, name == "ours High" ? ">= 130 dB" : ">= 145 dB"))
}
if let max = speeds["ours Max"], let best = speeds["libsamplerate best"] {
    print(String(format: "summary: Resampler ours Max vs libsamplerate best | %.2fx | >= 10x", max / best))
}
