import AudioDSP
import Foundation
import Testing

/// A SoundFont built byte by byte here (one looped sine sample, one instrument with a global zone, one preset with a
/// global zone, one instrument modulator), so every expectation follows from SoundFont 2.04 section 9.4 and
/// FluidSynth's conventions by hand: instrument values are absolute (a zone's value replaces its global zone's),
/// preset values add (a zone's value replaces its global zone's), key ranges intersect.
@Suite struct SoundFontZoneMergeTests {
    typealias S = SamplerTestSupport

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
    static func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] { Array(id.utf8) + le32(data.count) + data + (data.count & 1 == 1 ? [0] : []) }
    static func list(_ type: String, _ chunks: [[UInt8]]) -> [UInt8] { chunk("LIST", Array(type.utf8) + chunks.flatMap { $0 }) }
    static func name(_ s: String) -> [UInt8] { Array(s.utf8) + [UInt8](repeating: 0, count: 20 - s.utf8.count) }
    static func gen(_ id: Int, _ amount: Int) -> [UInt8] { le16(id) + le16(amount & 0xFFFF) }
    static func range(_ id: Int, _ lo: Int, _ hi: Int) -> [UInt8] { le16(id) + [UInt8(lo), UInt8(hi)] }

    /// The sine: period 100 points at 44100 Hz (441 Hz at its root key 60), amplitude 0.5, looped over 8 periods.
    static func bank(lowBytes: [UInt8]? = nil) -> [UInt8] {
        var points = (0 ..< 1000).map { Int((0.5 * 32767 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        points += [Int](repeating: 0, count: 46)
        let smpl = points.flatMap { le16($0 & 0xFFFF) }
        let phdr = name("P") + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + le32(0)
            + name("EOP") + le16(0) + le16(0) + le16(2) + le32(0) + le32(0) + le32(0)
        let pbag = le16(0) + le16(0) + le16(1) + le16(0) + le16(4) + le16(0)
        let pgen = gen(52, 10)                                       // global: fineTune +10
            + range(43, 50, 127) + gen(51, 1) + gen(41, 0)           // zone: keys 50-127, coarseTune +1, instrument 0
            + gen(0, 0)
        let pmod = [UInt8](repeating: 0, count: 10)
        let inst = name("I") + le16(0) + name("EOI") + le16(2)
        let ibag = le16(0) + le16(0) + le16(2) + le16(0) + le16(7) + le16(1)
        let igen = gen(51, 5) + gen(48, 100)                         // global: coarseTune 5, attenuation 100 cB
            + range(43, 0, 100) + gen(51, 2) + gen(54, 1) + gen(58, 60) + gen(53, 0)  // zone: keys 0-100, coarse 2, loop
            + gen(0, 0)
        let imod = le16(0x80 | 21) + le16(52) + le16(100) + le16(0) + le16(0)  // CC21, linear -> fineTune, 100 cents
            + [UInt8](repeating: 0, count: 10)
        let shdr = name("sine") + le32(0) + le32(1000) + le32(100) + le32(900) + le32(44100) + [60, 0] + le16(0) + le16(1)
            + name("EOS") + [UInt8](repeating: 0, count: 26)
        let body = Array("sfbk".utf8)
            + list("INFO", [chunk("ifil", le16(2) + le16(4)), chunk("INAM", Array("Merge test\0\0".utf8))])  // INAM of even size: fluidsynth insists
            + list("sdta", [chunk("smpl", smpl)] + (lowBytes.map { [chunk("sm24", $0)] } ?? []))
            + list("pdta", [chunk("phdr", phdr), chunk("pbag", pbag), chunk("pmod", pmod), chunk("pgen", pgen),
                            chunk("inst", inst), chunk("ibag", ibag), chunk("imod", imod), chunk("igen", igen), chunk("shdr", shdr)])
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    @Test func generatorsMergeAsSection94() throws {
        let font = try SoundFont(bytes: Self.bank())
        #expect(font.name == "Merge test" && font.presets == [SoundFontPresetInfo(name: "P", bank: 0, program: 0)])
        let regions = font.regions(presetIndex: 0, key: 60, velocity: 100)
        try #require(regions.count == 1)
        let g = regions[0].generators
        #expect(g[SoundFontGenerator.coarseTune] == 3)         // instrument zone 2 (not global 5) + preset 1
        #expect(g[SoundFontGenerator.fineTune] == 10)          // preset global zone, the zone has none
        #expect(g[SoundFontGenerator.initialAttenuation] == 40) // 100 cB × FluidSynth's 0.4
        #expect(g[SoundFontGenerator.sampleModes] == 1)
        #expect(regions[0].keyRange == 50 ... 100)
        #expect(regions[0].modulators.contains { $0.source == 0x95 && $0.destination == 52 && $0.amount == 100 })
        #expect(font.regions(presetIndex: 0, key: 40, velocity: 100).isEmpty)   // below the preset zone
        #expect(font.regions(presetIndex: 0, key: 110, velocity: 100).isEmpty)  // above the instrument zone
        #expect(font.samples[0].hasValidLoop && font.samples[0].loopEnd == 900)
    }

    /// Key 60 at velocity 127 plays the sine 310 cents up (coarse 3, fine 10): 441 × 2^(310/1200) = 527.35 Hz, at
    /// amplitude 0.5 × 10^(-(40 + 41.53)/200) × 1/√(1/√2) × sin(500·(π/2)/1001): attenuation 40 cB, CC7's default
    /// 100 through the concave curve (-400·log10(100/127) = 41.53 cB), the low-pass's pass-band gain at Q 0 dB and
    /// FluidSynth's centre pan. CC21 (default 0; the sound controllers 70-79 start at 64) at 127 then adds 100 × 127/128 cents through the instrument modulator.
    @Test func playsWhatTheGeneratorsSay() throws {
        let font = try SoundFont(bytes: Self.bank())
        let engine = SamplerEngine(sampleRate: 44100)
        engine.load(font)
        engine.handle(status: 0x90, data1: 60, data2: 127)
        let (left, _) = S.render(engine, frames: 44100)
        let segment = left[11025 ..< 33075]
        let f = S.peakFrequency(segment, low: 500, high: 560)
        let expectedF = 441 * pow(2, 310.0 / 1200)
        let amplitude = S.rms(segment) * 2.0.squareRoot()
        let expectedAmplitude = 0.5 * pow(10, -(40 + 400 * log10(127.0 / 100)) / 200) / (1 / 2.0.squareRoot()).squareRoot()
            * sin(500 * (Double.pi / 2) / 1001)
        print("merge bank: \(f) Hz (expected \(expectedF)), amplitude \(amplitude) (expected \(expectedAmplitude))")
        #expect(abs(f - expectedF) < 0.2)
        #expect(abs(amplitude / expectedAmplitude - 1) < 0.01)

        engine.handle(status: 0xB0, data1: 21, data2: 127)
        let (bent, _) = S.render(engine, frames: 44100)
        let expectedBent = 441 * pow(2, (310 + 100 * 127.0 / 128) / 1200)
        #expect(abs(S.peakFrequency(bent[11025 ..< 33075], low: 540, high: 600) - expectedBent) < 0.2)
    }

    /// The same bank and note through `fluidsynth` (a one-note MIDI file, unit gain, no reverb or chorus, float
    /// output): its pitch agrees with the hand-computed value to 0.2 Hz and its level to 0.5 dB. The level differs by
    /// about 0.35 dB because Debian's fluidsynth 2.3.1 maps a unipolar negative concave source as
    /// concave(127·(1 − v/128)), interpolated (CC7 100 gives 42.9 cB, velocity 127 gives 1.4 cB), where FluidSynth's
    /// current code, which the engine follows, reads concave(127 − v) (41.5 cB and 0 cB).
    @Test func fluidSynthAgrees() throws {
        let fluidsynth = try S.requireFluidSynth()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sampler-merge-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sf2 = dir.appendingPathComponent("merge.sf2").path, mid = dir.appendingPathComponent("note.mid").path
        let wav = dir.appendingPathComponent("out.wav").path
        try Data(Self.bank()).write(to: URL(fileURLWithPath: sf2))
        // Note 60 velocity 127 at tick 0, off after 1.5 s (1440 ticks at 960 per second), end of track.
        let track: [UInt8] = [0, 0x90, 60, 127, 0x8B, 0x20, 0x80, 60, 0, 0, 0xFF, 0x2F, 0]
        let smf = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track
        try Data(smf).write(to: URL(fileURLWithPath: mid))
        _ = try S.run(fluidsynth, ["-ni", "-g", "1", "-R", "0", "-C", "0", "-r", "44100", "-O", "float", "-T", "wav", "-F", wav, sf2, mid])
        let left = try SamplerFluidSynthComparisonTests.readFloatWAV(wav)
        try #require(left.count > 33075)
        let segment = left[11025 ..< 33075]
        let f = S.peakFrequency(segment, low: 500, high: 560)
        let amplitude = S.rms(segment) * 2.0.squareRoot()
        let expectedAmplitude = 0.5 * pow(10, -(40 + 400 * log10(127.0 / 100)) / 200) / (1 / 2.0.squareRoot()).squareRoot()
            * sin(500 * (Double.pi / 2) / 1001)
        print("merge bank through fluidsynth: \(f) Hz, amplitude \(amplitude) (\(S.dB(amplitude / expectedAmplitude)) dB from ours)")
        #expect(abs(f - 441 * pow(2, 310.0 / 1200)) < 0.2)
        #expect(abs(S.dB(amplitude / expectedAmplitude)) < 0.5)
    }

    /// 24-bit samples: an 'sm24' chunk of one byte per point supplies the low byte (value = (s16 << 8 | low) / 2^23);
    /// one of any other size is ignored, as SoundFont 2.04 section 6.2 says.
    @Test func sm24RefinesSamples() throws {
        let plain = try SoundFont(bytes: Self.bank())
        let refined = try SoundFont(bytes: Self.bank(lowBytes: [UInt8](repeating: 0x80, count: 1046)))
        let ignored = try SoundFont(bytes: Self.bank(lowBytes: [UInt8](repeating: 0x80, count: 500)))
        #expect(plain.sampleData.count == 1046 && refined.sampleData.count == 1046)
        for k in [0, 1, 25, 75, 999] {
            let s16 = Int((0.5 * 32767 * sin(2 * Double.pi * Double(k) / 100)).rounded())
            #expect(plain.sampleData[k] == Float(s16) / 32768)
            #expect(refined.sampleData[k] == Float(s16 * 256 + 0x80) / 8_388_608)
            #expect(ignored.sampleData[k] == plain.sampleData[k])
        }
    }
}
