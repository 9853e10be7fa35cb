import AudioDSP
import Foundation
import Testing

/// A DLS bank written by DLSTestBank played by the engine and by Debian's `fluidsynth` (which reads DLS through
/// libinstpatch) from the same Standard MIDI File: each note's onset, fundamental and level compared.
/// libinstpatch gives fluidsynth the regions' ranges, waves, loops, unity notes and fine tunes but not the
/// articulation (SoundFont's default envelope instead), so the notes are compared while held, where the two agree;
/// the release, which fluidsynth does not take from the bank, is tested against DLS's definition in DLSBankTests.
@Suite struct DLSFluidSynthComparisonTests {
    typealias S = SamplerTestSupport
    typealias C = SamplerFluidSynthComparisonTests

    /// (time in seconds, channel, program, key, velocity, duration in seconds)
    static let notes: [(time: Double, channel: Int, program: Int, key: Int, velocity: Int, duration: Double)] = [
        (0.5, 0, 0, 69, 100, 0.8),   // program 0's 0.5 s release is over before the next note
        (2.0, 0, 0, 81, 64, 0.8),
        (3.5, 1, 1, 59, 127, 0.8),   // the fine-tuned 8-bit region: 220 Hz
        (5.0, 1, 1, 72, 30, 0.8),    // velocity-insensitive by its art1 in our engine; fluidsynth ignores that
        (6.5, 9, 0, 38, 110, 0.8),   // the drum kit
    ]
    static let seconds = 8.0

    static func midiFile() -> [UInt8] {
        var events: [(tick: Int, bytes: [UInt8])] = []
        for n in notes {
            let on = Int((n.time * 960).rounded()), off = Int(((n.time + n.duration) * 960).rounded())
            if n.channel != 9 { events.append((on - 10, [0xC0 | UInt8(n.channel), UInt8(n.program)])) }
            events.append((on, [0x90 | UInt8(n.channel), UInt8(n.key), UInt8(n.velocity)]))
            events.append((off, [0x80 | UInt8(n.channel), UInt8(n.key), 0]))
        }
        events.append((Int(seconds * 960), [0xFF, 0x2F, 0x00]))
        events.sort { $0.tick < $1.tick }
        func vlq(_ v: Int) -> [UInt8] {
            var bytes = [UInt8(v & 0x7F)]
            var rest = v >> 7
            while rest > 0 { bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
            return bytes
        }
        var track: [UInt8] = []
        var last = 0
        for e in events { track += vlq(e.tick - last) + e.bytes; last = e.tick }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + be32(track.count) + track
    }

    static func renderEngine(_ font: SoundFont) -> [Float] {
        let engine = SamplerEngine(sampleRate: S.rate)
        engine.load(font)
        var events: [(frame: Int, bytes: [UInt8])] = []
        func frame(_ tick: Int) -> Int { Int((Double(tick) / 960 * S.rate).rounded()) }
        for n in notes {
            let on = Int((n.time * 960).rounded()), off = Int(((n.time + n.duration) * 960).rounded())
            if n.channel != 9 { events.append((frame(on - 10), [0xC0 | UInt8(n.channel), UInt8(n.program), 0])) }
            events.append((frame(on), [0x90 | UInt8(n.channel), UInt8(n.key), UInt8(n.velocity)]))
            events.append((frame(off), [0x80 | UInt8(n.channel), UInt8(n.key), 0]))
        }
        events.sort { $0.frame < $1.frame }
        let total = Int(seconds * S.rate)
        var left = [Float](repeating: 0, count: total), right = left
        var position = 0
        left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in
            for e in events + [(total, [])] {
                while position < e.frame {
                    let n = min(512, e.frame - position)
                    engine.render(frameCount: n, left: l.baseAddress! + position, right: r.baseAddress! + position)
                    position += n
                }
                if e.bytes.count == 3 { engine.handle(status: e.bytes[0], data1: e.bytes[1], data2: e.bytes[2]) }
            }
        } }
        return left
    }

    @Test func matchesFluidSynthOnTheSameBank() throws {
        let fluidsynth = try S.requireFluidSynth()
        let bank = DLSBankTests.bank().bytes()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dls-fs-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dls = dir.appendingPathComponent("bank.dls").path, mid = dir.appendingPathComponent("notes.mid").path
        let wav = dir.appendingPathComponent("out.wav").path
        try Data(bank).write(to: URL(fileURLWithPath: dls))
        try Data(Self.midiFile()).write(to: URL(fileURLWithPath: mid))
        _ = try S.run(fluidsynth, ["-ni", "-g", "1", "-R", "0", "-C", "0", "-r", "44100", "-O", "float", "-T", "wav", "-F", wav, dls, mid])
        let reference = try C.readFloatWAV(wav)
        try #require(reference.count >= Int(7.5 * S.rate), "fluidsynth rendered \(reference.count) frames from the DLS bank (libinstpatch)")
        let ours = Self.renderEngine(try SoundFont(bytes: bank))

        for n in Self.notes {
            let expected = Int((n.time * 960).rounded() / 960 * S.rate)
            func firstAbove(_ x: [Float]) -> Int? {
                let peak = x[expected ..< expected + Int(0.3 * S.rate)].map { abs($0) }.max() ?? 0
                return peak > 0 ? S.onset(x, threshold: peak * 0.00316, from: expected - 2000) : nil
            }
            let fsOnset = try #require(firstAbove(reference), "fluidsynth played nothing for key \(n.key)")
            let ourOnset = try #require(firstAbove(ours), "the engine played nothing for key \(n.key)")
            let a = Int(0.1 * S.rate), b = Int(0.6 * S.rate)
            let fsSegment = reference[fsOnset + a ..< fsOnset + b], ourSegment = ours[ourOnset + a ..< ourOnset + b]
            let fsPitch = S.peakFrequency(fsSegment, low: 60, high: 1500), ourPitch = S.peakFrequency(ourSegment, low: 60, high: 1500)
            let level = S.dB(S.rms(ourSegment) / S.rms(fsSegment))
            print("DLS key \(n.key) ch \(n.channel + 1) vel \(n.velocity): onset fluidsynth +\(fsOnset - expected), ours +\(ourOnset - expected) "
                  + "samples; \(String(format: "%.2f", fsPitch)) vs \(String(format: "%.2f", ourPitch)) Hz; level \(String(format: "%+.2f", level)) dB")
            // Onsets: ours is exact; fluidsynth's 64-frame blocks and millisecond clock start notes up to 150 samples late.
            #expect(ourOnset - expected >= 0 && ourOnset - expected < 5, "our onset for key \(n.key)")
            #expect(fsOnset - ourOnset >= 0 && fsOnset - ourOnset <= 150, "onsets for key \(n.key): \(fsOnset - ourOnset) samples apart")
            #expect(abs(fsPitch - ourPitch) < 1, "key \(n.key): fluidsynth \(fsPitch) Hz, ours \(ourPitch) Hz")
            if n.program == 1 && n.key >= 60 {
                // Our engine follows the region's KeyOnVelocity-to-gain block of 0; fluidsynth applies SoundFont's
                // default curve, 20·log10(30²/127²) = -25.1 dB at velocity 30.
                #expect(abs(level - 40 * log10(127.0 / 30)) < 1, "velocity-insensitive region: \(level) dB over fluidsynth")
            } else {
                #expect(abs(level) < 1, "key \(n.key): level \(level) dB from fluidsynth's")
            }
        }
    }
}
