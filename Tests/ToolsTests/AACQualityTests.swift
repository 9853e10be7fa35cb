import Foundation
import Testing

/// Our AAC encoder beside FFmpeg's at the same bit rate (scripts/aac-quality.py): espeak-ng speech encoded by
/// `afconvert -f m4af -d aac -b RATE` and by `ffmpeg -c:a aac -b:a RATE`, both decoded by ffmpeg and scored by PESQ
/// wideband against the source. Every tool (python3 with pesq, espeak-ng, ffmpeg, ffprobe) is required: a missing one
/// fails the test.
@Suite struct AACQualityTests {
    struct Side: Decodable { var frames: Int; var bytes: Int; var duration: Double; var pesq_wb: Double }
    struct Row: Decodable { var bit_rate: Int; var ours: Side; var ffmpeg: Side }
    struct Result: Decodable { var source_frames: Int; var rates: [Row] }

    /// At 64 and 128 kbit/s: our file's duration (ffprobe, from its edit list) is the source's to the frame; ffmpeg
    /// decodes the source's frames plus at most the last packet's remainder (its MP4 demuxer trims the priming but not
    /// the end); PESQ within 0.1 MOS of ffmpeg's own encoder, and at least 3.0 at 64 kbit/s (3.44 measured for both).
    @Test func oursScoresBesideFFmpegsEncoder() throws {
        let script = SoundCheckTests.root.appendingPathComponent("scripts/aac-quality.py").path
        let out = try SoundCheckTests.python([script, "--afconvert", try Tools.path("afconvert"), "--rates", "64000,128000", "--json"])
        let result = try JSONDecoder().decode(Result.self, from: Data(out.utf8))
        try #require(result.rates.count == 2)
        let sourceSeconds = Double(result.source_frames) / 44100
        for row in result.rates {
            #expect(abs(row.ours.duration - sourceSeconds) < 0.5 / 44100 + 1e-6, "\(row.bit_rate): \(row.ours.duration) s, source \(sourceSeconds) s")
            #expect(row.ours.frames >= result.source_frames && row.ours.frames < result.source_frames + 1024, "\(row.bit_rate): \(row.ours.frames) frames")
            #expect(row.ours.pesq_wb >= row.ffmpeg.pesq_wb - 0.1, "\(row.bit_rate): ours \(row.ours.pesq_wb), ffmpeg \(row.ffmpeg.pesq_wb)")
            // The bit rate asked for: within 10% of the payload over the duration plus the container's fixed overhead.
            #expect(Double(row.ours.bytes) < Double(row.bit_rate) * sourceSeconds / 8 * 1.1 + 40_000, "\(row.bit_rate): \(row.ours.bytes) bytes")
        }
        #expect(result.rates[0].ours.pesq_wb >= 3.0, "64 kbit/s: \(result.rates[0].ours.pesq_wb)")
    }
}
