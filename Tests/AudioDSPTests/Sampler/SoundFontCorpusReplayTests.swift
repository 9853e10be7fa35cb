import AudioDSP
import Foundation
import Testing

/// The SoundFont fuzz corpus kept in FuzzTesting/Corpus/soundfont (the seed bank and every crash input found, once
/// fixed) through the parser and a short render, as ordinary tests; and the seed itself parsed as written.
@Suite struct SoundFontCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus/soundfont")

    @Test func everyKeptInputParsesOrThrows() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(!files.isEmpty)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 256), right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(file)))
            guard let font = try? SoundFont(bytes: bytes) else { continue }
            let engine = SamplerEngine(sampleRate: 44100, maximumVoices: 8)
            engine.load(font)
            for key: UInt8 in [0, 60, 127] { engine.handle(status: 0x90, data1: key, data2: 100) }
            for _ in 0..<4 { engine.render(frameCount: 256, left: left, right: right) }
        }
    }

    @Test func theSeedBankIsWhatItsScriptWrote() throws {
        // FuzzTesting/make-soundfont-seed.py: one preset, keys 0-63 a looped 440 Hz sine (24-bit), 64-127 a noise burst.
        let font = try SoundFont(bytes: [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("seed.sf2"))))
        #expect(font.presets.map(\.name) == ["Seed"])
        #expect(font.samples.count == 2)
        let low = font.regions(presetIndex: 0, key: 60, velocity: 100)
        let high = font.regions(presetIndex: 0, key: 100, velocity: 100)
        #expect(low.count == 1 && low.first?.sampleIndex == 0 && low.first?.keyRange == 0...63)
        #expect(high.count == 1 && high.first?.sampleIndex == 1 && high.first?.keyRange == 64...127)
        #expect(low.first?.modulators.contains { $0.destination == 8 && $0.amount == -2400 } == true, "the CC1 -> cutoff modulator")
    }
}
