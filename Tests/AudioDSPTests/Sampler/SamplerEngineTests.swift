import AudioDSP
import Foundation
import Testing

/// The SoundFont engine on TimGM6mb against expectations computed independently: the pitch of A4, the release
/// time from the zone's generator, SoundFont's concave velocity curve, the GM drum channel, sample-accurate onsets.
@Suite struct SamplerEngineTests {
    typealias S = SamplerTestSupport

    /// Note 69 on the piano sounds at 440 Hz: the fundamental, estimated by a windowed DFT peak search over half a
    /// second of the sustain, is within 1 Hz.
    @Test func a4IsFourHundredForty() throws {
        let engine = try S.engine()
        engine.handle(status: 0xC0, data1: 0, data2: 0)
        engine.handle(status: 0x90, data1: 69, data2: 100)
        let out = S.mono(S.render(engine, frames: 44100))
        let f = S.peakFrequency(out[8820 ..< 30870], low: 420, high: 460)
        print("A4 fundamental: \(f) Hz")
        #expect(abs(f - 440) < 1)
    }

    /// After note-off the piano falls below -60 dB (against its level just before the note-off) within the release
    /// time its zone's releaseVolEnv gives (FluidSynth's reading: at least -7200 timecents) plus 20 ms.
    @Test func releaseDecaysWithinReleaseTime() throws {
        let bank = try S.requireBank()
        let engine = try S.engine()
        let preset = try #require(bank.presetIndex(bank: 0, program: 0))
        let regions = bank.regions(presetIndex: preset, key: 60, velocity: 100)
        try #require(!regions.isEmpty)
        let releaseTC = regions.map { Double($0.generators[SoundFontGenerator.releaseVolEnv]) }.max()!
        let release = pow(2, max(releaseTC, -7200) / 1200)
        engine.handle(status: 0x90, data1: 60, data2: 100)
        let held = S.mono(S.render(engine, frames: 22050))
        let before = S.rms(held[held.count - 441 ..< held.count])
        engine.handle(status: 0x80, data1: 60, data2: 0)
        let tail = S.mono(S.render(engine, frames: Int((release + 0.5) * S.rate)))
        // First 10 ms window whose RMS is below -60 dB relative to the level before the note-off.
        var below: Double?
        var k = 0
        while k + 441 <= tail.count {
            if S.dB(S.rms(tail[k ..< k + 441]) / before) < -60 { below = Double(k) / S.rate; break }
            k += 441
        }
        print("release \(releaseTC) tc = \(release) s; below -60 dB after \(below ?? -1) s")
        let t = try #require(below)
        #expect(t <= release + 0.02)
        #expect(t > 0.25 * release)  // it is a release, not a cut
        #expect(engine.activeVoiceCount == 0)
    }

    /// Velocity 64 against 127 on the same zone: SoundFont's default velocity-to-attenuation modulator (negative
    /// unipolar concave, 960 cB, FluidSynth's table -400·log10(v/127) cB) gives 400·log10(64/127) = -11.91 dB. The
    /// RMS ratio of the two notes' first half second is within 0.5 dB of that (the filter plays no part: FluidSynth
    /// neutralises the velocity-to-cutoff modulator, and so does the engine).
    @Test func velocityFollowsConcaveCurve() throws {
        let bank = try S.requireBank()
        let preset = try #require(bank.presetIndex(bank: 0, program: 0))
        let loud = bank.regions(presetIndex: preset, key: 60, velocity: 127)
        let soft = bank.regions(presetIndex: preset, key: 60, velocity: 64)
        try #require(loud.map(\.sampleIndex) == soft.map(\.sampleIndex), "the two velocities must play the same zones")
        func level(_ velocity: UInt8) throws -> Double {
            let engine = try S.engine()
            engine.handle(status: 0x90, data1: 60, data2: velocity)
            let out = S.mono(S.render(engine, frames: 22050))
            return S.rms(out[0...])
        }
        let ratio = S.dB(try level(64) / level(127))
        let expected = 400 * log10(64.0 / 127.0) / 10
        print("velocity 64 vs 127: \(ratio) dB, expected \(expected) dB")
        #expect(abs(ratio - expected) < 0.5)
    }

    /// Channel 10 plays the drum kit (bank 128): its note 38 (acoustic snare) sounds and is not the piano's note 38.
    @Test func channelTenPlaysDrums() throws {
        let bank = try S.requireBank()
        let engine = try S.engine()
        let kit = try #require(engine.presetIndex(channel: 9))
        #expect(bank.presets[kit].bank == 128)
        engine.handle(status: 0x99, data1: 38, data2: 100)
        let drum = S.mono(S.render(engine, frames: 22050))
        let piano = try S.engine()
        piano.handle(status: 0x90, data1: 38, data2: 100)
        let melodic = S.mono(S.render(piano, frames: 22050))
        #expect(S.rms(drum[0...]) > 0.01)
        // Normalised correlation of the two: unrelated sounds stay far from 1.
        let dot = zip(drum, melodic).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let correlation = dot / (S.rms(drum[0...]) * S.rms(melodic[0...]) * Double(drum.count))
        #expect(abs(correlation) < 0.5)
        // The snare is noisy: much of its energy lies above 2 kHz, unlike the low piano note's.
        func highShare(_ x: [Float]) -> Double {
            let segment = S.windowed(x[0 ..< 4096])
            let total = stride(from: 50.0, to: 10000, by: 50).reduce(0.0) { $0 + pow(S.magnitude(windowed: segment, at: $1), 2) }
            let high = stride(from: 2000.0, to: 10000, by: 50).reduce(0.0) { $0 + pow(S.magnitude(windowed: segment, at: $1), 2) }
            return high / total
        }
        #expect(highShare(drum) > highShare(melodic) * 2)
    }

    /// Apple's bank selection: MSB 0x78 is the percussion bank, MSB 0x79 with LSB n the melodic bank n.
    @Test func appleBankSelection() throws {
        let bank = try S.requireBank()
        let engine = try S.engine()
        #expect(SamplerEngine.soundFontBank(bankMSB: 0x78, bankLSB: 0) == 128)
        #expect(SamplerEngine.soundFontBank(bankMSB: 0x79, bankLSB: 0) == 0)
        #expect(engine.selectPreset(channel: 0, bankMSB: 0x78, bankLSB: 0, program: 0))
        #expect(bank.presets[engine.presetIndex(channel: 0)!].bank == 128)
        #expect(engine.selectPreset(channel: 0, bankMSB: 0x79, bankLSB: 0, program: 40))
        #expect(bank.presets[engine.presetIndex(channel: 0)!].program == 40)
        #expect(!engine.selectPreset(channel: 0, bankMSB: 0x79, bankLSB: 99, program: 40))
        // The same through MIDI: bank select then program change.
        engine.handle(status: 0xB1, data1: 0, data2: 0x78)
        engine.handle(status: 0xC1, data1: 0, data2: 0)
        #expect(bank.presets[engine.presetIndex(channel: 1)!].bank == 128)
    }

    /// A note started after a render split at frame 100 is silent before frame 100 and from there is exactly the
    /// same note started at frame 0 of an unsplit render (the voice's control grid follows the note, not the
    /// slices), so its first non-zero sample is at 100 + the note's own first non-zero offset (which is 0 here).
    @Test func onsetIsSampleAccurate() throws {
        let split = try S.engine(), whole = try S.engine()
        var left = [Float](repeating: 1, count: 512), right = [Float](repeating: 1, count: 512)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                split.render(frameCount: 100, left: l.baseAddress!, right: r.baseAddress!)
                split.handle(status: 0x90, data1: 60, data2: 100)
                split.render(frameCount: 412, left: l.baseAddress! + 100, right: r.baseAddress! + 100)
            }
        }
        whole.handle(status: 0x90, data1: 60, data2: 100)
        let reference = S.render(whole, frames: 412, slice: 37)
        #expect(left[0 ..< 100].allSatisfy { $0 == 0 } && right[0 ..< 100].allSatisfy { $0 == 0 })
        #expect(Array(left[100...]) == reference.0 && Array(right[100...]) == reference.1)
        let first = left.firstIndex { $0 != 0 }
        print("first non-zero sample: \(first ?? -1), reference's: \(reference.0.firstIndex { $0 != 0 } ?? -1)")
        #expect(first == 100 + (reference.0.firstIndex { $0 != 0 } ?? -1000))
        #expect(first == 100)
    }

    /// The sustain pedal holds released notes until it is lifted; voices beyond the maximum are stolen.
    @Test func sustainAndStealing() throws {
        let engine = try S.engine(voices: 8)
        engine.handle(status: 0xB0, data1: 64, data2: 127)
        engine.handle(status: 0x90, data1: 60, data2: 100)
        _ = S.render(engine, frames: 4410)
        engine.handle(status: 0x80, data1: 60, data2: 0)
        _ = S.render(engine, frames: 44100)
        #expect(engine.activeVoiceCount > 0)
        engine.handle(status: 0xB0, data1: 64, data2: 0)
        _ = S.render(engine, frames: 88200)
        #expect(engine.activeVoiceCount == 0)
        for k in 0 ..< 20 { engine.handle(status: 0x90, data1: UInt8(40 + k), data2: 100) }
        _ = S.render(engine, frames: 512)
        #expect(engine.activeVoiceCount <= 8)
        #expect(engine.activeVoiceCount > 0)
        engine.handle(status: 0xB0, data1: 120, data2: 0)
        _ = S.render(engine, frames: 512)
        #expect(engine.activeVoiceCount == 0)
    }

    /// Pitch bend with the default range (RPN 0 = 2 semitones) and after RPN 0 sets 12 semitones: full up bend
    /// raises A4 by FluidSynth's amount, 12700 × (range/128) × 8191/8192 cents... which for 2 semitones is 198.4 cents.
    @Test func pitchBendFollowsRPN0() throws {
        func frequency(range: UInt8?) throws -> Double {
            let engine = try S.engine()
            if let range {
                engine.handle(status: 0xB0, data1: 101, data2: 0)
                engine.handle(status: 0xB0, data1: 100, data2: 0)
                engine.handle(status: 0xB0, data1: 6, data2: range)
                engine.handle(status: 0xB0, data1: 38, data2: 0)
            }
            engine.handle(status: 0xE0, data1: 0x7F, data2: 0x7F)
            engine.handle(status: 0x90, data1: 69, data2: 100)
            let out = S.mono(S.render(engine, frames: 44100))
            let expected = 440 * pow(2, 12700 * Double(range ?? 2) / 128 * (8191.0 / 8192.0) / 1200)
            return S.peakFrequency(out[8820 ..< 30870], low: expected - 20, high: expected + 20) / expected
        }
        #expect(abs(try frequency(range: nil) - 1) < 0.003)
        #expect(abs(try frequency(range: 12) - 1) < 0.003)
    }

    /// Exclusive class: in the GM kit the closed hi-hat (42) and the open hi-hat (46) share a class, so striking 42
    /// cuts a ringing 46 (FluidSynth's fast release, -200 timecents: 96 dB in 0.89 s, so it is 40 dB down well within
    /// 0.6 s), while without the closed hi-hat the open one still rings.
    @Test func exclusiveClassCutsTheOpenHiHat() throws {
        let bank = try S.requireBank()
        let kit = try #require(bank.presetIndex(bank: 128, program: 0))
        let open = bank.regions(presetIndex: kit, key: 46, velocity: 100)
        let closed = bank.regions(presetIndex: kit, key: 42, velocity: 100)
        let openClass = try #require(open.first?.generators[SoundFontGenerator.exclusiveClass])
        try #require(openClass != 0 && closed.first?.generators[SoundFontGenerator.exclusiveClass] == openClass,
                     "TimGM6mb's hi-hats are expected to share an exclusive class")
        func tail(cut: Bool) throws -> Double {
            let engine = try S.engine()
            engine.handle(status: 0x99, data1: 46, data2: 100)
            _ = S.render(engine, frames: 4410)
            if cut { engine.handle(status: 0x99, data1: 42, data2: 1) }  // a very soft closed hat: its own sound is small
            let out = S.mono(S.render(engine, frames: 44100))
            return S.rms(out[26460 ..< 30870])  // 0.6...0.7 s after the cut
        }
        let ringing = try tail(cut: false), cut = try tail(cut: true)
        print("open hi-hat 0.6 s later: \(S.dB(ringing)) dB alone, \(S.dB(cut)) dB after the closed hi-hat")
        #expect(S.dB(cut / ringing) < -20)
    }
}
