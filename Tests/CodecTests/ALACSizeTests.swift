import Foundation
import Testing
@testable import AudioToolbox

/// Speed and size against FFmpeg on 60 s of 16-bit stereo (pink noise with tones, channels correlated).
/// Numbers are printed; meaningful in release builds (`swift test -c release --filter Benchmark`).
@Suite(.serialized) struct ALACSizeTests {
    static let seconds = 60.0

    /// Best wall-clock time of `runs` runs of `body`.
    private func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs { best = min(best, try ALACTestSupport.time(body)) }
        return best
    }

    @Test func sizesAgainstFFmpeg() throws {
        var lines = ["ALAC sizes, ours / FFmpeg's (bytes of packets):"]
        for signal in ALACTestSupport.interopSignals {
            let dir = try ALACTestSupport.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let (wav, source) = try ALACTestSupport.generate(signal, in: dir)
            let caf = dir.appendingPathComponent("ffmpeg.caf").path
            try ALACTestSupport.run("ffmpeg", ["-v", "error", "-y", "-i", wav] + ALACTestSupport.ffmpegLayoutFilter(signal.channels) + ["-c:a", "alac", caf])
            let theirs = try ALACCAFFile.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: caf)))).packets.reduce(0) { $0 + $1.count }
            let ours = try ALACTestSupport.encodeAll(ALACTestSupport.alacOrder(source)).packets.reduce(0) { $0 + $1.count }
            lines.append("  \(signal.name): \(ours) / \(theirs) = \(String(format: "%.4f", Double(ours) / Double(theirs)))")
            #expect(Double(ours) < Double(theirs) * 1.03, "\(signal.name): within 3% of FFmpeg")
        }
        print(lines.joined(separator: "\n"))
    }
}
