import Foundation
import Testing
@testable import AudioToolbox

/// Whether the tests were built with optimization (speed numbers mean something only then).
let isOptimizedBuild: Bool = {
    #if DEBUG
    return false
    #else
    return true
    #endif
}()

/// Compression against `flac` at the same level (speed is measured in Benchmarks/, never in tests).
@Suite(.serialized) struct FLACCompressionTests {
    /// Wall-clock seconds of `body`, best of `runs`.
    static func time(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    struct Signal: CustomStringConvertible, Sendable {
        let name: String
        let rate: Int, channels: Int, bits: Int
        let synth: [String]
        let effects: [String]
        var description: String { name }
    }

    static let signals: [Signal] = [
        Signal(name: "music-like stereo 44.1 kHz", rate: 44100, channels: 2, bits: 16,
               synth: ["6", "pluck", "C3", "pluck", "E3", "pluck", "G3", "pluck", "C4", "pinknoise"],
               effects: ["remix", "1,2v0.4,5v0.05", "2,3,4v0.5,5v0.05", "reverb", "40", "vol", "0.5"]),
        Signal(name: "speech-like mono 16 kHz", rate: 16000, channels: 1, bits: 16,
               synth: ["6", "sawtooth", "110-180", "brownnoise"],
               effects: ["remix", "1v0.6,2v0.2", "bandpass", "900", "1.2q", "tremolo", "3.5", "90", "vol", "0.8"]),
        Signal(name: "dense mix stereo 48 kHz", rate: 48000, channels: 2, bits: 16,
               synth: ["5", "sawtooth", "80-800", "square", "110", "pluck", "E2", "whitenoise"],
               effects: ["remix", "1v0.3,3v0.5,4v0.02", "2v0.3,3v0.4,4v0.02", "overdrive", "10", "chorus", "0.7", "0.9", "55", "0.4", "0.25", "2", "-t",
                         "reverb", "60", "vol", "0.4"]),
        Signal(name: "tonal 24-bit stereo 48 kHz", rate: 48000, channels: 2, bits: 24,
               synth: ["4", "sine", "220", "sine", "330", "pinknoise"],
               effects: ["remix", "1,3v0.01", "2,3v0.01", "vol", "0.6"]),
    ]

    /// Our file sizes at levels 0, 5 and 8 beside `flac`'s on the same input (printed); level 5 within 3%.
    @Test(arguments: signals)
    func compressionAtLevel5NearReference(_ s: Signal) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path, ref = dir.appendingPathComponent("ref.flac").path
        try TestSupport.sox(wav, rate: s.rate, bits: s.bits, channels: s.channels, synth: s.synth, effects: s.effects)
        let source = try TestSupport.readWAV(wav)
        var line = "\(s.name):"
        for level in [0, 5, 8] {
            try TestSupport.run("flac", ["-s", "-f", "-\(level)", "--no-padding", "--no-seektable", "-o", ref, wav])
            let refSize = try TestSupport.bytes(ref).count
            let ours = source.samples.withUnsafeBufferPointer {
                FLACStreamWriter.encodeFile($0, channels: s.channels, bitsPerSample: s.bits, sampleRate: s.rate,
                                            blockSize: level <= 2 ? 1152 : 4096, level: level, padding: 0)
            }
            let pcmBytes = source.samples.count * (s.bits / 8)
            let ratio = Double(ours.count) / Double(refSize)
            line += String(format: " -%d ours %.4f flac %.4f (%+.2f%%);", level, Double(ours.count) / Double(pcmBytes),
                           Double(refSize) / Double(pcmBytes), (ratio - 1) * 100)
            if level == 5 { #expect(ratio < 1.03, "level 5 within 3% of flac -5") }
            #expect(try TestSupport.decodeFile(ours).samples == source.samples)
        }
        print(line)
    }
}
