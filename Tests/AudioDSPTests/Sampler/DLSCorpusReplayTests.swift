import AudioDSP
import Foundation
import Testing

/// The DLS fuzz corpus kept in FuzzTesting/Corpus/dls (the seed bank written by make-dls-seed.py, a minimised corpus
/// and every crash input found, once fixed) through the parser and a short render, as ordinary tests; and the seed
/// parsed as its script wrote it.
@Suite struct DLSCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus/dls")

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
            for (c, preset) in font.presets.prefix(4).enumerated() {
                engine.selectPreset(channel: c, bankMSB: preset.bank == 128 ? SamplerEngine.percussionBankMSB : SamplerEngine.melodicBankMSB,
                                    bankLSB: preset.bank == 128 ? 0 : preset.bank, program: preset.program)
                for key: UInt8 in [0, 38, 60, 127] { engine.handle(status: 0x90 | UInt8(c), data1: key, data2: 100) }
            }
            for _ in 0..<4 { engine.render(frameCount: 256, left: left, right: right) }
        }
    }

    @Test func theSeedBankIsWhatItsScriptWrote() throws {
        let font = try SoundFont(bytes: [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("seed.dls"))))
        #expect(font.name == "Seed DLS")
        #expect(font.presets == [SoundFontPresetInfo(name: "Melodic", bank: 0, program: 0), SoundFontPresetInfo(name: "Level2", bank: 1, program: 5),
                                 SoundFontPresetInfo(name: "Kit", bank: 128, program: 0), SoundFontPresetInfo(name: "Stereo", bank: 0, program: 1)])
        let high = try #require(font.regions(presetIndex: 0, key: 100, velocity: 100).first)
        let sample = font.samples[high.sampleIndex]
        #expect(sample.originalPitch == 72 && sample.pitchCorrection == 30 && sample.sampleRate == 22050, "the region's wsmp over the 8-bit wave's")
        #expect(high.generators[SoundFontGenerator.initialAttenuation] == 100, "wsmp gain -100 cB")
        #expect(high.generators[SoundFontGenerator.exclusiveClass] == 2)
        #expect(high.generators[SoundFontGenerator.sustainVolEnv] == 300, "EG1 sustain 70 %")
        #expect(high.generators[SoundFontGenerator.pan] == -200)
        #expect(high.generators[SoundFontGenerator.freqModLFO] == -600 && high.generators[SoundFontGenerator.freqVibLFO] == -600,
                "DLS 1's one LFO drives the vibrato too")
        // Key number to EG1 decay, -1200 per 128 keys: SoundFont's keynumToVolEnvDecay 9.375 and the decay at key 60.
        #expect(high.generators[SoundFontGenerator.keynumToVolEnvDecay] == 9.375)
        let level2 = try #require(font.regions(presetIndex: 1, key: 60, velocity: 100).first)
        #expect(level2.generators[SoundFontGenerator.initialFilterFc] == 8000 && level2.generators[SoundFontGenerator.initialFilterQ] == 60)
        #expect(level2.generators[SoundFontGenerator.sampleModes] == 3, "a Level 2 release loop")
        #expect(level2.generators[SoundFontGenerator.vibLfoToPitch] == 15 && level2.generators[SoundFontGenerator.freqVibLFO] == -500)
        #expect(level2.generators[SoundFontGenerator.modEnvToPitch] == 200 && level2.generators[SoundFontGenerator.sustainModEnv] == 500)
        #expect(level2.generators[SoundFontGenerator.delayVolEnv] == -32768, "0x80000000 is 0 seconds")
        #expect(level2.modulators.contains { $0.source == 0x0002 && $0.destination == 34 }, "velocity to EG1 attack")
        #expect(font.regions(presetIndex: 2, key: 36, velocity: 100).count == 1 && font.regions(presetIndex: 2, key: 36, velocity: 0).isEmpty)
        // The stereo pair: left and right panned to their sides, the right one on the second channel of its wave.
        let pair = font.regions(presetIndex: 3, key: 60, velocity: 100)
        try #require(pair.count == 2)
        #expect(pair.map { $0.generators[SoundFontGenerator.pan] } == [-500, 500])
        let left = font.samples[pair[0].sampleIndex], right = font.samples[pair[1].sampleIndex]
        #expect(right.end - right.start == 200 && right.start != left.start && right.loopStart - right.start == 100)
    }
}
