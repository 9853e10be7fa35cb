import AudioDSP
import Foundation
import Testing

/// DLS banks written here (DLSTestBank) through the parser and the engine: structure, pitch (unity note and fine
/// tune), loops held while the key is down, the 'art1' EG1 release, DLS's default velocity-to-gain curve and a bank's
/// own, drum instruments on channel 10, and malformed banks.
@Suite struct DLSBankTests {
    typealias S = SamplerTestSupport
    typealias B = DLSTestBank

    /// A 440 Hz sine at 44000 Hz (100 points a period) looped over its last 1000 points, unity note 69.
    static let sine440 = B.Wave(points: B.sine(frequency: 440, rate: 44000, periods: 40), rate: 44000,
                                info: .init(unityNote: 69, loop: .init(start: 3000, length: 1000)))
    /// A 220 Hz sine at 44000 Hz, unity note 57, 8-bit.
    static let sine220 = B.Wave(points: B.sine(frequency: 220, rate: 44000, periods: 20), rate: 44000,
                                info: .init(unityNote: 57, loop: .init(start: 2000, length: 2000)), eightBit: true)
    static let releaseSeconds = 0.5

    /// Program 0 "Sine": the 440 Hz wave, release 0.5 s from the instrument's art1. Program 1 "Tuned": keys 0-59 the
    /// 220 Hz wave with a region 'wsmp' of unity note 60 and +100 cents (so key 60 sounds 233.08 Hz), keys 60-127 the
    /// 440 Hz wave with velocity ignored (a KeyOnVelocity-to-gain block of 0). Drum kit program 0: key 38 the 440 Hz
    /// wave at unity note 26 (880 Hz).
    static func bank() -> B {
        B(instruments: [
            .init(name: "Sine", program: 0, regions: [.init(wave: 0)],
                  connections: [.init(source: 0, destination: 0x0209, scale: B.timecents(releaseSeconds))]),
            .init(name: "Tuned", program: 1, regions: [
                .init(keys: 0...59, wave: 1, info: .init(unityNote: 60, fineTune: 100, loop: .init(start: 2000, length: 2000))),
                .init(keys: 60...127, wave: 0, connections: [.init(source: 2, destination: 1, transform: 1, scale: 0)]),
            ]),
            .init(name: "Drums", program: 0, drum: true, regions: [.init(keys: 38...38, wave: 0, info: .init(unityNote: 26, loop: .init(start: 3000, length: 1000)))]),
        ], waves: [sine440, sine220])
    }

    static func engine(_ bank: B = bank()) throws -> SamplerEngine {
        let engine = SamplerEngine(sampleRate: S.rate)
        engine.load(try SoundFont(bytes: bank.bytes()))
        return engine
    }

    @Test func parsesTheStructure() throws {
        let font = try SoundFont(bytes: Self.bank().bytes())
        #expect(font.name == "Test DLS")
        #expect(font.presets == [SoundFontPresetInfo(name: "Sine", bank: 0, program: 0), SoundFontPresetInfo(name: "Tuned", bank: 0, program: 1),
                                 SoundFontPresetInfo(name: "Drums", bank: 128, program: 0)])
        let sine = font.regions(presetIndex: 0, key: 69, velocity: 100)
        try #require(sine.count == 1)
        let sample = font.samples[sine[0].sampleIndex]
        #expect(sample.end - sample.start == 4000 && sample.sampleRate == 44000 && sample.originalPitch == 69)
        #expect(sample.loopStart - sample.start == 3000 && sample.loopEnd - sample.loopStart == 1000 && sample.hasValidLoop)
        #expect(sine[0].generators[38] == Float(1200 * log2(Self.releaseSeconds)).rounded(), "release from art1")
        #expect(sine[0].generators[54] == 1, "looped")
        let low = try #require(font.regions(presetIndex: 1, key: 59, velocity: 100).first)
        #expect(low.keyRange == 0...59)
        #expect(font.samples[low.sampleIndex].originalPitch == 60 && font.samples[low.sampleIndex].pitchCorrection == 100)
        #expect(font.samples[low.sampleIndex].end - font.samples[low.sampleIndex].start == 4000, "the 8-bit wave, via the pool table")
        #expect(font.regions(presetIndex: 2, key: 37, velocity: 100).isEmpty && font.regions(presetIndex: 2, key: 38, velocity: 100).count == 1)
    }

    /// The fundamental of a note held for 0.6 s, measured over 0.1...0.6 s.
    static func pitch(_ engine: SamplerEngine, channel: UInt8 = 0, key: UInt8, low: Double, high: Double) -> Double {
        engine.handle(status: 0x90 | channel, data1: key, data2: 100)
        let x = S.mono(S.render(engine, frames: Int(0.6 * S.rate)))
        engine.handle(status: 0x80 | channel, data1: key, data2: 0)
        _ = S.render(engine, frames: Int(1.0 * S.rate))
        return S.peakFrequency(x[Int(0.1 * S.rate) ..< Int(0.6 * S.rate)], low: low, high: high)
    }

    @Test func unityNoteAndFineTuneSetThePitch() throws {
        let engine = try Self.engine()
        let a4 = Self.pitch(engine, key: 69, low: 300, high: 600)
        let a5 = Self.pitch(engine, key: 81, low: 700, high: 1000)
        #expect(abs(a4 - 440) < 1, "note 69: \(a4) Hz")
        #expect(abs(a5 - 880) < 1, "note 81: \(a5) Hz")
        engine.handle(status: 0xC0, data1: 1, data2: 0)
        // The 220 Hz wave at unity note 60 with +100 cents: key 59 sounds 220·2^(-100/1200)·2^(100/1200) = 220 Hz
        // (without the fine tune 207.65 Hz, with the wave's own unity note 57 246.94 Hz), key 47 110 Hz.
        let tuned = Self.pitch(engine, key: 59, low: 150, high: 300)
        let octaveDown = Self.pitch(engine, key: 47, low: 80, high: 150)
        #expect(abs(tuned - 220) < 1, "key 59 on the fine-tuned region: \(tuned) Hz")
        #expect(abs(octaveDown - 110) < 1, "key 47: \(octaveDown) Hz")
    }

    @Test func theLoopHoldsAndTheReleaseDecays() throws {
        let engine = try Self.engine()
        engine.handle(status: 0x90, data1: 69, data2: 127)
        // 2 s held: the wave is 4000 points (0.09 s) long, so only the loop can keep it sounding.
        let held = S.mono(S.render(engine, frames: Int(2 * S.rate)))
        engine.handle(status: 0x80, data1: 69, data2: 0)
        let released = S.mono(S.render(engine, frames: Int(1 * S.rate)))
        let early = S.rms(held[Int(0.2 * S.rate) ..< Int(0.4 * S.rate)]), late = S.rms(held[Int(1.7 * S.rate) ..< Int(1.9 * S.rate)])
        #expect(abs(S.dB(late / early)) < 0.1, "held level changed by \(S.dB(late / early)) dB")
        // DLS's EG1 release falls linearly in dB, 96 dB in the release time: -48 dB at half of it (measured over
        // 20 ms around 0.25 s, within 2 dB), and silence (below -90 dB) once the release time has passed.
        let half = S.rms(released[Int(0.24 * S.rate) ..< Int(0.26 * S.rate)])
        let after = S.rms(released[Int((Self.releaseSeconds + 0.01) * S.rate) ..< Int((Self.releaseSeconds + 0.1) * S.rate)])
        print("DLS release: \(S.dB(half / late)) dB at 0.25 s, \(S.dB(after / late)) dB after 0.51 s")
        #expect(abs(S.dB(half / late) + 48) < 2, "at half the release: \(S.dB(half / late)) dB")
        #expect(S.dB(after / late) < -90, "after the release: \(S.dB(after / late)) dB")
        #expect(engine.activeVoiceCount == 0)
    }

    /// The level of a note at `velocity` over 0.2...0.4 s.
    static func level(_ engine: SamplerEngine, key: UInt8, velocity: UInt8) -> Double {
        engine.handle(status: 0x90, data1: key, data2: velocity)
        let x = S.mono(S.render(engine, frames: Int(0.4 * S.rate)))
        engine.handle(status: 0x80, data1: key, data2: 0)
        _ = S.render(engine, frames: Int(1.0 * S.rate))
        return S.rms(x[Int(0.2 * S.rate) ..< Int(0.4 * S.rate)])
    }

    @Test func velocityFollowsDLSDefaultConcaveCurve() throws {
        // DLS Level 1's default connection: KeyOnVelocity to gain, -96 dB, concave: 20·log10(v²/127²) dB.
        let engine = try Self.engine()
        let full = Self.level(engine, key: 69, velocity: 127)
        for v in [96, 64, 32, 16] {
            let measured = S.dB(Self.level(engine, key: 69, velocity: UInt8(v)) / full)
            let expected = 20 * log10(Double(v * v) / Double(127 * 127))
            print("DLS velocity \(v): \(String(format: "%.2f", measured)) dB, DLS's curve \(String(format: "%.2f", expected)) dB")
            #expect(abs(measured - expected) < 0.3, "velocity \(v): \(measured) dB, DLS says \(expected) dB")
        }
        // A bank's own KeyOnVelocity-to-gain block (scale 0 here) replaces the default: every velocity is as loud.
        engine.handle(status: 0xC0, data1: 1, data2: 0)
        let loud = Self.level(engine, key: 69, velocity: 127), soft = Self.level(engine, key: 69, velocity: 20)
        #expect(abs(S.dB(soft / loud)) < 0.05, "velocity-insensitive region: \(S.dB(soft / loud)) dB")
    }

    @Test func drumInstrumentsPlayOnChannel10() throws {
        let engine = try Self.engine()
        // Channel 10 plays the drum kit (bank 128): key 38 is the 440 Hz wave at unity note 26, 880 Hz.
        let drum = Self.pitch(engine, channel: 9, key: 38, low: 700, high: 1000)
        #expect(abs(drum - 880) < 1, "drum key 38: \(drum) Hz")
        // The kit has nothing on key 40; channel 1 plays the melodic program 0 on key 38: 440·2^(-31/12) = 73.4 Hz.
        engine.handle(status: 0x99, data1: 40, data2: 100)
        #expect(engine.activeVoiceCount == 0)
        let melodic = Self.pitch(engine, channel: 0, key: 38, low: 60, high: 120)
        #expect(abs(melodic - 440 * pow(2, -31.0 / 12)) < 1, "melodic key 38: \(melodic) Hz")
    }

    /// Program 2 of `bank()` plus: EG1 attack 0.1 s, decay 0.4 s, sustain 75 %; and program 3: the LFO at 5 Hz with
    /// no delay, 100 cents to pitch.
    static func articulatedBank() -> B {
        var bank = bank()
        bank.instruments.append(.init(name: "Shaped", program: 2, regions: [.init(wave: 0)], connections: [
            .init(source: 0, destination: 0x0206, scale: B.timecents(0.1)),
            .init(source: 0, destination: 0x0207, scale: B.timecents(0.4)),
            .init(source: 0, destination: 0x020A, scale: 750 * 65536),
        ]))
        bank.instruments.append(.init(name: "Vibrato", program: 3, regions: [.init(wave: 0)], connections: [
            .init(source: 0, destination: 0x0104, scale: Int32((1200 * log2(5 / 8.175798915643707) * 65536).rounded())),
            .init(source: 0, destination: 0x0105, scale: Int32.min),
            .init(source: 1, destination: 3, scale: 100 * 65536),
        ]))
        return bank
    }

    @Test func articulationShapesTheEnvelopeAndTheLFO() throws {
        let engine = try Self.engine(Self.articulatedBank())
        let reference = Self.level(engine, key: 69, velocity: 127)
        engine.handle(status: 0xC0, data1: 2, data2: 0)
        engine.handle(status: 0x90, data1: 69, data2: 127)
        let x = S.mono(S.render(engine, frames: Int(0.8 * S.rate)))
        engine.handle(status: 0x80, data1: 69, data2: 0)
        _ = S.render(engine, frames: Int(1.0 * S.rate))
        // The attack rises linearly in amplitude: half way (-6.02 dB) at 0.05 s. The decay falls 96 dB per 0.4 s
        // and stops at the sustain level, 75 % of the dB range: -24 dB, reached after 0.1 + 0.1 s.
        let attack = S.dB(S.rms(x[Int(0.045 * S.rate) ..< Int(0.055 * S.rate)]) / reference)
        let sustain = S.dB(S.rms(x[Int(0.4 * S.rate) ..< Int(0.7 * S.rate)]) / reference)
        print("DLS articulation: \(attack) dB half way through the attack, sustain \(sustain) dB")
        #expect(abs(attack + 6.02) < 1, "attack half way: \(attack) dB")
        #expect(abs(sustain + 24) < 0.5, "EG1 sustain 75 %: \(sustain) dB")

        // The LFO swings the pitch ±100 cents at 5 Hz: 415.3...466.2 Hz, measured period by period.
        engine.handle(status: 0xC0, data1: 3, data2: 0)
        engine.handle(status: 0x90, data1: 69, data2: 100)
        let v = S.mono(S.render(engine, frames: Int(1.0 * S.rate)))
        var crossings: [Double] = []
        for k in 1 ..< v.count where v[k - 1] < 0 && v[k] >= 0 {
            crossings.append(Double(k - 1) + Double(-v[k - 1] / (v[k] - v[k - 1])))
        }
        let frequencies = zip(crossings.dropFirst(), crossings).map { S.rate / ($0 - $1) }
        let high = frequencies.max() ?? 0, low = frequencies.min() ?? 0
        // The pitch rises through 440 Hz once per LFO period (at 0.2, 0.4, 0.6, 0.8 s after starting there at 0 s).
        var rising: [Double] = []
        for k in 1 ..< frequencies.count where frequencies[k - 1] < 440 && frequencies[k] >= 440 { rising.append(crossings[k] / S.rate) }
        let rate = rising.count > 1 ? Double(rising.count - 1) / (rising.last! - rising.first!) : 0
        print("DLS LFO: \(low)...\(high) Hz at \(rate) Hz")
        #expect(abs(high - 440 * pow(2, 100.0 / 1200)) < 3 && abs(low - 440 * pow(2, -100.0 / 1200)) < 3, "vibrato \(low)...\(high) Hz")
        #expect(abs(rate - 5) < 0.05, "LFO rate \(rate) Hz")
    }

    @Test func stereoInstrumentsAndStereoWaves() throws {
        // Program 0: a Level 2 stereo pair, the left region (channel 1) on the 440 Hz wave, the right (channel 2) on a
        // 660 Hz one: each side hears only its own. Program 1: one region on the right channel of a stereo wave
        // (440 Hz left, 660 Hz right): the wave's right channel, on the right output only.
        let sine660 = B.sine(frequency: 660, rate: 44000, periods: 60)
        let loop = B.Loop(start: 3000, length: 1000)
        let bank = B(instruments: [
            .init(name: "Pair", program: 0, regions: [.init(wave: 0, channel: 1), .init(wave: 1, channel: 2)]),
            .init(name: "Right", program: 1, regions: [.init(wave: 2, channel: 2)]),
        ], waves: [Self.sine440, B.Wave(points: sine660, rate: 44000, info: .init(unityNote: 69, loop: loop)),
                   B.Wave(points: Self.sine440.points, rate: 44000, info: .init(unityNote: 69, loop: loop), right: Array(sine660.prefix(4000)))])
        let engine = try Self.engine(bank)
        func play(_ program: UInt8) -> ([Float], [Float]) {
            engine.handle(status: 0xC0, data1: program, data2: 0)
            engine.handle(status: 0x90, data1: 69, data2: 100)
            let out = S.render(engine, frames: Int(0.5 * S.rate))
            engine.handle(status: 0xB0, data1: 120, data2: 0)
            _ = S.render(engine, frames: 4410)
            return out
        }
        func partial(_ x: [Float], _ f: Double) -> Double { S.magnitude(x[Int(0.1 * S.rate) ..< Int(0.5 * S.rate)], at: f) }
        let pair = play(0)
        print("DLS stereo pair: left 440 \(partial(pair.0, 440)) 660 \(partial(pair.0, 660)); right 440 \(partial(pair.1, 440)) 660 \(partial(pair.1, 660))")
        #expect(S.dB(partial(pair.0, 660) / partial(pair.0, 440)) < -60, "the right region stays out of the left side")
        #expect(S.dB(partial(pair.1, 440) / partial(pair.1, 660)) < -60, "the left region stays out of the right side")
        let right = play(1)
        #expect(S.dB(partial(right.1, 440) / partial(right.1, 660)) < -60, "the right channel of the stereo wave")
        #expect(abs(S.dB(partial(right.1, 660) / partial(pair.1, 660))) < 0.1, "as loud as the pair's right side")
        #expect(S.rms(right.0[...]) < 1e-6, "nothing on the left")
    }

    @Test func manyRegionsSharingBigArticulationParseInLinearTime() throws {
        // 4000 regions without articulation of their own under an instrument 'art1' of 4000 blocks: translated once
        // per instrument, not once per region (16 million block translations otherwise).
        let blocks = (0 ..< 4000).map { B.Connection(source: 0, destination: 0x0209, scale: Int32($0) * 65536) }
        let regions = (0 ..< 4000).map { B.Region(keys: ($0 % 128)...($0 % 128), wave: 0) }
        let bytes = B(instruments: [.init(name: "Big", regions: regions, connections: blocks)], waves: [Self.sine440]).bytes()
        let start = Date()
        let font = try SoundFont(bytes: bytes)
        let seconds = Date().timeIntervalSince(start)
        print("DLS: \(bytes.count) bytes, 4000 regions x 4000 shared blocks parsed in \(seconds) s")
        #expect(font.regions(presetIndex: 0, key: 5, velocity: 100).count == 32)
        #expect(font.regions(presetIndex: 0, key: 5, velocity: 100).first?.generators[38] == 3999, "the last block wins")
        #expect(seconds < 2)
    }

    @Test func malformedBanksThrow() throws {
        let good = Self.bank().bytes()
        _ = try SoundFont(bytes: good)
        // Truncations at every 97th byte, a size field made huge, a cue out of the pool, a bogus table index.
        for cut in stride(from: 12, to: good.count, by: 97) {
            var bytes = Array(good[0 ..< cut])
            bytes[4 ..< 8] = ArraySlice(B.le32(cut - 8))
            _ = try? SoundFont(bytes: bytes)
        }
        var huge = good
        huge[4 ..< 8] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: SoundFontError.truncatedChunk("RIFF")) { try SoundFont(bytes: huge) }
        func patched(_ marker: String, at offset: Int, _ value: [UInt8]) -> [UInt8] {
            var bytes = good
            let id = Array(marker.utf8)
            let at = (0 ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == id }!
            bytes[at + offset ..< at + offset + value.count] = ArraySlice(value)
            return bytes
        }
        #expect(throws: SoundFontError.badIndex("wlnk table index 9 of 2")) { try SoundFont(bytes: patched("wlnk", at: 16, B.le32(9))) }
        #expect(throws: SoundFontError.badChunkSize("ptbl")) { try SoundFont(bytes: patched("ptbl", at: 12, B.le32(0x4000_0000))) }
        #expect(throws: SoundFontError.badChunkSize("art")) { try SoundFont(bytes: patched("art1", at: 12, B.le32(0x1000_0000))) }
        #expect(throws: SoundFontError.badChunkSize("wsmp")) { try SoundFont(bytes: patched("wsmp", at: 8, B.le32(0x7000_0000))) }
        #expect(throws: SoundFontError.badIndex("pool table cue 0")) { try SoundFont(bytes: patched("ptbl", at: 16, B.le32(3))) }
        #expect(throws: SoundFontError.notSoundFont) { try SoundFont(bytes: patched("DLS ", at: 0, Array("DLX ".utf8))) }
    }
}
