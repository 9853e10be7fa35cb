import AudioDSP
import Foundation
import Testing

/// What the SoundFont and sampler tests share: the small GM bank (Debian's timgm6mb-soundfont), the `fluidsynth`
/// command (Debian's fluidsynth), rendering helpers and signal measurements written independently of the engine.
enum SamplerTestSupport {
    static let bankPath = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    static let rate = 44100.0

    /// The bank, parsed once; the tests fail with a clear message when the package is missing.
    static let bank: SoundFont? = try? SoundFont(contentsOf: bankPath)

    static func requireBank() throws -> SoundFont {
        guard let bank else {
            Issue.record("\(bankPath) is missing: install the timgm6mb-soundfont package (scripts/setup.sh)")
            throw CancellationError()
        }
        return bank
    }

    /// The `fluidsynth` executable, or a recorded failure.
    static func requireFluidSynth() throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/fluidsynth") {
            return dir + "/fluidsynth"
        }
        Issue.record("the fluidsynth command is missing: install the fluidsynth package (scripts/setup.sh)")
        throw CancellationError()
    }

    /// Runs a command, feeding `input` to its standard input; returns its standard output.
    static func run(_ path: String, _ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // fluidsynth's file driver opens fluidsynth.wav in its working directory before reading -o settings.
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// An engine on the bank.
    static func engine(voices: Int = 64) throws -> SamplerEngine {
        let engine = SamplerEngine(sampleRate: rate, maximumVoices: voices)
        engine.load(try requireBank())
        return engine
    }

    /// Renders `frames` frames in slices of `slice`; returns (left, right).
    static func render(_ engine: SamplerEngine, frames: Int, slice: Int = 512) -> ([Float], [Float]) {
        var left = [Float](repeating: 0, count: frames), right = [Float](repeating: 0, count: frames)
        var done = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                while done < frames {
                    let n = min(slice, frames - done)
                    engine.render(frameCount: n, left: l.baseAddress! + done, right: r.baseAddress! + done)
                    done += n
                }
            }
        }
        return (left, right)
    }

    static func mono(_ s: ([Float], [Float])) -> [Float] { zip(s.0, s.1).map { ($0 + $1) * 0.5 } }

    static func rms(_ x: ArraySlice<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
    }

    static func dB(_ x: Double) -> Double { 20 * log10(max(x, 1e-30)) }

    /// A Hann-windowed copy of `x`, for `magnitude(windowed:at:)`.
    static func windowed(_ x: ArraySlice<Float>) -> [Double] {
        let n = x.count
        return x.enumerated().map { k, v in Double(v) * (0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n - 1))) }
    }

    /// Magnitude of the DFT of an already windowed block at frequency `f` (Goertzel), divided by the length.
    static func magnitude(windowed x: [Double], at f: Double, rate: Double = rate) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * f / rate)
        var s1 = 0.0, s2 = 0.0
        x.withUnsafeBufferPointer { p in
            for v in p { let s0 = v + coefficient * s1 - s2; s2 = s1; s1 = s0 }
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return max(power, 0).squareRoot() / Double(x.count)
    }

    /// Magnitude of the Hann-windowed DFT of `x` at frequency `f`.
    static func magnitude(_ x: ArraySlice<Float>, at f: Double, rate: Double = rate) -> Double {
        magnitude(windowed: windowed(x), at: f, rate: rate)
    }

    /// The frequency in [low, high] with the largest windowed DFT magnitude: a coarse scan, then golden-section
    /// refinement of the peak (accurate to well under 0.1 Hz for a steady partial over half a second).
    static func peakFrequency(_ segment: ArraySlice<Float>, low: Double, high: Double) -> Double {
        let x = windowed(segment)
        var best = low, bestMagnitude = -1.0
        var f = low
        while f <= high {
            let m = magnitude(windowed: x, at: f)
            if m > bestMagnitude { bestMagnitude = m; best = f }
            f += 0.5
        }
        var a = best - 0.5, b = best + 0.5
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0 ..< 30 {
            let c = b - ratio * (b - a), d = a + ratio * (b - a)
            if magnitude(windowed: x, at: c) > magnitude(windowed: x, at: d) { b = d } else { a = c }
        }
        return (a + b) / 2
    }

    /// Index of the first sample whose magnitude exceeds `threshold`, from `from`.
    static func onset(_ x: [Float], threshold: Float, from: Int = 0) -> Int? {
        var k = from
        while k < x.count { if abs(x[k]) > threshold { return k }; k += 1 }
        return nil
    }
}
