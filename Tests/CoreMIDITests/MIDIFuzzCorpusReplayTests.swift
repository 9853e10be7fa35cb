@_spi(Exercises) import CoreMIDI
import Foundation
import Testing

/// The MIDI fuzz target's kept corpus (FuzzTesting/MIDICorpus: seeds, and regressions and minimised inputs
/// when fuzzing finds them) replayed through the same exercise as FuzzMIDIBytes; a regression crashes the
/// test process.
@Suite struct MIDIFuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzTesting/MIDICorpus")

    static func files() -> [URL] {
        let e = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: [.isRegularFileKey])
        return (e?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    @Test func corpusIsThere() {
        #expect(Self.files().count >= 6, "the MIDI seed corpus is missing")
    }

    @Test(arguments: files()) func replay(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        data.withUnsafeBytes { _ = MIDIExerciseByteStream($0) }
    }
}
