import FileExercises
import Foundation
import Testing

/// The fuzz corpus kept in FuzzTesting/Corpus (the regression inputs of every crash found, by libFuzzer
/// or by scripts/mutate-files.py, and a minimised corpus of interesting inputs), replayed through every
/// fuzz target's exercise: containers, ExtAudioFile with client formats, afinfo's report, AudioFileStream.
/// A regression shows up as a crash of the test process.
@Suite struct FuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus")

    static func files() -> [URL] {
        let e = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: [.isRegularFileKey])
        return (e?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    @Test func corpusIsThere() {
        let files = Self.files()
        #expect(files.filter { $0.path.contains("/regressions/") }.count >= 10, "the regression inputs are missing")
    }

    @Test(arguments: files()) func replay(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        data.withUnsafeBytes { exerciseAll($0) }
    }
}
