import AudioToolbox
import Foundation
import Testing

/// afconvert into MPEG-4 and ADTS (`-f m4af`, `-f mp4f`, `-f adts`, `-d aac`, `-d alac`, and no -d into an .m4a),
/// checked by ffprobe (codec, rate, channels, duration) and, for ALAC, by ffmpeg decoding the source's samples.
@Suite struct AfconvertMP4Tests {
    static func ffprobe(_ url: URL) throws -> String {
        let tool = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let r = try Tools.run(executable: tool, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels:format=duration",
                                                 "-of", "csv=p=0", url.path])
        try #require(r.status == 0, "ffprobe: \(r.stderr)")
        return r.stdout.split(separator: "\n").joined(separator: ";")
    }

    /// The samples ffmpeg decodes, as 16-bit integers.
    static func ffmpegInt16(_ url: URL) throws -> [Int16] {
        let tool = try #require(["/usr/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffmpeg is missing")
        let raw = Fixture.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let r = try Tools.run(executable: tool, ["-v", "error", "-y", "-i", url.path, "-f", "s16le", raw.path])
        try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func afconvertWritesM4AAndADTS() throws {
        let wav = Fixture.tempURL("wav")
        try Fixture.writeWAV(wav, frames: 88200)
        let outputs = ["aac.m4a", "alac.m4a", "aac.aac", "aac.mp4", "default.m4a"].map { Fixture.tempURL($0) }
        defer { ([wav] + outputs).forEach { try? FileManager.default.removeItem(at: $0) } }
        let cases: [([String], String)] = [
            (["-f", "m4af", "-d", "aac"], "aac,44100,2;2.000000"),
            (["-f", "m4af", "-d", "alac"], "alac,44100,2;2.000000"),
            (["-f", "adts", "-d", "aac"], "aac,44100,2"),
            (["-f", "mp4f", "-d", "aac@22050"], "aac,22050,2;2.000000"),
            ([], "aac,44100,2;2.000000"),
        ]
        for ((arguments, expected), output) in zip(cases, outputs) {
            let r = try Tools.run("afconvert", arguments + [wav.path, output.path])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let probed = try Self.ffprobe(output)
            // ADTS has no duration of its own: ffprobe estimates it from the bit rate.
            #expect(probed == expected || arguments.contains("adts") && probed.hasPrefix(expected + ";"), "\(arguments): \(probed)")
        }
        // ALAC: ffmpeg decodes the source's samples exactly.
        let source = try Self.ffmpegInt16(wav)
        #expect(source.count == 88200 * 2)
        #expect(try Self.ffmpegInt16(outputs[1]) == source)
        // IMA4 has no place in an M4A.
        let refused = try Tools.run("afconvert", ["-f", "m4af", "-d", "ima4", wav.path, Fixture.tempURL("m4a").path])
        #expect(refused.status != 0 && refused.stderr.contains("'fmt?'"), "\(refused.stderr)")
    }
}
