import AudioDSP
import Foundation
import Testing

/// The SoundFont 2 parser: TimGM6mb's preset list against what `fluidsynth` lists, zone resolution, and hostile
/// bytes (truncations, flipped bytes, absurd counts) that must throw or parse, never trap.
@Suite struct SoundFontParserTests {
    typealias S = SamplerTestSupport

    /// `fluidsynth`'s shell command `inst 1` lists the loaded font's presets as "bank-program name"; the parsed
    /// list holds the same (bank, program, name) triples.
    @Test func presetListMatchesFluidSynth() throws {
        let bank = try S.requireBank()
        let fluidsynth = try S.requireFluidSynth()
        let output = try S.run(fluidsynth, ["-n", "-a", "file", "-o", "audio.file.name=/dev/null", "-R", "0", "-C", "0", S.bankPath],
                               input: "inst 1\nquit\n")
        var listed: [String] = []
        for line in output.split(separator: "\n") {
            // "000-000 Acoustic Grand" (possibly after the shell's "> " prompt).
            var text = Substring(line)
            while text.hasPrefix("> ") { text = text.dropFirst(2) }
            let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 7, parts[0].dropFirst(3).first == "-",
                  let b = Int(parts[0].prefix(3)), let p = Int(parts[0].suffix(3)) else { continue }
            listed.append("\(b)-\(p) \(parts[1])")
        }
        let ours = bank.presets.map { "\($0.bank)-\($0.program) \($0.name)" }
        #expect(listed.count > 100)
        #expect(listed.sorted() == ours.sorted())
        #expect(bank.version.major == 2)
        #expect(!bank.samples.isEmpty && bank.sampleData.count > 1_000_000)
    }

    /// Zone resolution follows SoundFont 2.04 section 9.4: every region of the piano at key 60 lies in its key and
    /// velocity ranges, names a sample, and its sample points lie in the sample data; drum zones cover single keys.
    @Test func regionsResolve() throws {
        let bank = try S.requireBank()
        let piano = try #require(bank.presetIndex(bank: 0, program: 0))
        let regions = bank.regions(presetIndex: piano, key: 60, velocity: 100)
        #expect(!regions.isEmpty)
        for r in regions {
            #expect(r.keyRange.contains(60) && r.velocityRange.contains(100))
            #expect(r.generators.count == SoundFontGenerator.count)
            let sample = bank.samples[r.sampleIndex]
            #expect(sample.start < sample.end && sample.end <= bank.sampleData.count)
            #expect(r.modulators.count >= SoundFontModulator.defaults.count)
        }
        let kit = try #require(bank.presetIndex(bank: 128, program: 0))
        #expect(!bank.regions(presetIndex: kit, key: 38, velocity: 100).isEmpty)
        #expect(bank.regions(presetIndex: 10_000, key: 60, velocity: 100).isEmpty)
    }

    /// A small bank cut from TimGM6mb: its RIFF header, INFO, the first 4 KB of sample data and the whole pdta.
    static func smallBank() throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: S.bankPath)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at ..< at + 4], as: UTF8.self) }
        var lists: [String: [UInt8]] = [:]
        var at = 12
        while at + 8 <= bytes.count {
            let size = u32(at + 4)
            if tag(at) == "LIST" { lists[tag(at + 8)] = Array(bytes[at ..< at + 8 + size]) }
            at += 8 + size + (size & 1)
        }
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24 & 255)] }
        let smpl = Array("smpl".utf8) + le32(4096) + [UInt8](repeating: 0, count: 4096)
        let sdta = Array("LIST".utf8) + le32(4 + smpl.count) + Array("sdta".utf8) + smpl
        let body = Array("sfbk".utf8) + lists["INFO"]! + sdta + lists["pdta"]!
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// Plays a few notes on whatever parsed, to make sure the engine copes with what the parser let through.
    static func exercise(_ font: SoundFont, on engine: SamplerEngine) {
        engine.load(font)
        var left = [Float](repeating: 0, count: 256), right = left
        for p in [0, 1, 40] {
            engine.handle(status: 0xC0, data1: UInt8(p), data2: 0)
            engine.handle(status: 0x90, data1: 60, data2: 100)
            engine.handle(status: 0x99, data1: 38, data2: 100)
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in
                engine.render(frameCount: 256, left: l.baseAddress!, right: r.baseAddress!)
            } }
        }
    }

    /// Truncations at many lengths, seeded byte flips across the tables, and counts and indices set to 0xFFFF:
    /// each throws a SoundFontError or parses into something the engine plays without trapping.
    @Test func hostileBytesThrowOrParse() throws {
        _ = try S.requireBank()
        let good = try Self.smallBank()
        let font = try SoundFont(bytes: good)
        #expect(font.presets.count == S.bank!.presets.count)
        let engine = SamplerEngine(sampleRate: 44100, maximumVoices: 8)
        Self.exercise(font, on: engine)

        var rejected = 0, accepted = 0
        func attempt(_ bytes: [UInt8]) {
            do { Self.exercise(try SoundFont(bytes: bytes), on: engine); accepted += 1 } catch { rejected += 1 }
        }
        // Truncations.
        for length in stride(from: 0, to: good.count, by: max(1, good.count / 150)) { attempt(Array(good[0 ..< length])) }
        // Seeded byte flips (xorshift), 1 to 16 bytes at a time.
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(Int.max)) }
        for _ in 0 ..< 300 {
            var bytes = good
            for _ in 0 ... next() % 16 { bytes[next() % bytes.count] ^= UInt8(1 + next() % 255) }
            attempt(bytes)
        }
        // 16-bit fields set to 0xFFFF at every even offset of the pdta tables (counts, indices, links).
        let marker = Array("pdta".utf8)
        let pdtaStart = (0 ..< good.count - 4).first { Array(good[$0 ..< $0 + 4]) == marker } ?? 12
        for offset in stride(from: pdtaStart, to: good.count - 1, by: max(2, (good.count - pdtaStart) / 150)) {
            var bytes = good
            bytes[offset] = 0xFF; bytes[offset + 1] = 0xFF
            attempt(bytes)
        }
        // Chunk sizes claiming gigabytes.
        for offset in stride(from: 4, to: 200, by: 4) {
            var bytes = good
            bytes[offset] = 0xF0; bytes[offset + 1] = 0xFF; bytes[offset + 2] = 0xFF; bytes[offset + 3] = 0x7F
            attempt(bytes)
        }
        print("hostile banks: \(rejected) rejected, \(accepted) parsed and played")
        #expect(rejected > 100)
        #expect(throws: SoundFontError.notSoundFont) { try SoundFont(bytes: Array("RIFF\u{4}\0\0\0WAVE".utf8)) }
        #expect(throws: SoundFontError.self) { try SoundFont(contentsOf: "/nonexistent/bank.sf2") }
    }
}
