import Foundation
import Testing

/// The README's main job (scripts/showcase.sh, without playing): each step's file checked by tools that are not ours:
/// ffprobe finds AAC in the .m4a, sox the stretched file 1/1.5 as long as the speech, libebur128 the normalised file at
/// -16 LUFS with its peaks below full scale.
@Suite struct ShowcaseTests {
    @Test func mainJobRunsEndToEnd() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-showcase-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try Tools.directory.get().path
        let r = try Tools.run(executable: SoundCheckTests.root.appendingPathComponent("scripts/showcase.sh").path,
                              ["--no-play", "--out=\(dir.path)", "--tools=\(tools)"])
        print(r.stdout)
        try #require(r.status == 0, "showcase: \(r.stderr)")
        let file = { (name: String) in dir.appendingPathComponent(name).path }
        let codec = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file("speech.m4a")])
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "aac")
        let seconds = try ["speech.wav", "stretched.wav"].map {
            Double(try SoundCheckTests.require("/usr/bin/soxi", ["-D", file($0)]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        #expect(abs(seconds[1] - seconds[0] / 1.5) < 0.01 * seconds[0], "speech \(seconds[0]) s, stretched \(seconds[1]) s")
        let reference = try SoundCheckTests.reference([URL(fileURLWithPath: file("normalised.wav"))])
        let loudness = try #require(reference.first)
        #expect(abs(loudness[0] - -16) < 0.3, "normalised to \(loudness[0]) LUFS")
        #expect(loudness[3] < 0, "sample peak \(loudness[3]) dBFS")
    }
}
