import AudioDSP
import Foundation
import Testing

/// The engine side by side with the `fluidsynth` command: a Standard MIDI File built here is rendered by
/// `fluidsynth -ni -g 1 -R 0 -C 0 -r 44100 -O float -T wav -F out.wav` (reverb and chorus off, unit gain, float
/// output so nothing clips) and by the engine, and each note's onset time, level and spectrum are compared.
/// Measured (Debian's fluidsynth 2.3.1): levels within 0.3...0.4 dB (the installed fluidsynth's concave mapping of
/// CC7 and velocity, see SoundFontZoneMergeTests), band spectra within 0.3...0.7 dB rms, onsets: fluidsynth starts
/// notes 60...120 samples after the exact frame (its 64-frame blocks and millisecond MIDI clock); ours is exact.
@Suite struct SamplerFluidSynthComparisonTests {
    typealias S = SamplerTestSupport

    /// (time in seconds, channel, program, key, velocity, duration in seconds)
    static let notes: [(time: Double, channel: Int, program: Int, key: Int, velocity: Int, duration: Double)] = [
        (0.5, 0, 0, 60, 100, 1.0),    // piano
        (2.0, 0, 0, 67, 70, 1.0),
        (3.5, 1, 40, 69, 110, 1.0),   // violin: filter, vibrato, slow attack
        (5.0, 2, 73, 76, 90, 1.0),    // flute
        (6.5, 3, 33, 40, 120, 1.0),   // finger bass
        (8.0, 9, 0, 38, 100, 0.5),    // snare on the drum channel
    ]
    static let seconds = 10.0

    /// A format-0 SMF at 480 ticks per quarter and the default tempo (500000 µs): 960 ticks per second.
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

    /// The left channel of a 32-bit float stereo WAV file.
    static func readFloatWAV(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var at = 12
        while at + 8 <= bytes.count {
            let size = u32(at + 4)
            if String(decoding: bytes[at ..< at + 4], as: UTF8.self) == "data" {
                let frames = min(size, bytes.count - at - 8) / 8
                return (0 ..< frames).map { Float(bitPattern: UInt32(u32(at + 8 + 8 * $0))) }
            }
            at += 8 + size + (size & 1)
        }
        throw CancellationError()
    }

    /// The engine renders the same events, each at its exact sample (the way a caller splits slices at offsets).
    static func renderEngine() throws -> [Float] {
        let engine = try S.engine()
        var events: [(frame: Int, bytes: [UInt8])] = []
        for n in notes {
            let on = Int((n.time * 960).rounded()), off = Int(((n.time + n.duration) * 960).rounded())
            func frame(_ tick: Int) -> Int { Int((Double(tick) / 960 * S.rate).rounded()) }
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

    @Test func matchesFluidSynth() throws {
        let fluidsynth = try S.requireFluidSynth()
        _ = try S.requireBank()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sampler-fs-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mid = dir.appendingPathComponent("notes.mid").path, wav = dir.appendingPathComponent("out.wav").path
        try Data(Self.midiFile()).write(to: URL(fileURLWithPath: mid))
        _ = try S.run(fluidsynth, ["-ni", "-g", "1", "-R", "0", "-C", "0", "-r", "44100", "-O", "float", "-T", "wav", "-F", wav, S.bankPath, mid])
        let reference = try Self.readFloatWAV(wav)
        let ours = try Self.renderEngine()
        try #require(reference.count >= Int(8.5 * S.rate), "fluidsynth rendered \(reference.count) frames")

        for n in Self.notes {
            let expected = Int((n.time * 960).rounded() / 960 * S.rate)
            let window = 0.4 * S.rate
            func firstAbove(_ x: [Float]) -> Int? {
                // Threshold: -50 dB below the note's peak in its first 0.4 s.
                let peak = x[expected ..< expected + Int(window)].map { abs($0) }.max() ?? 0
                return S.onset(x, threshold: peak * 0.00316, from: expected - 2000)
            }
            let fsOnset = try #require(firstAbove(reference)), ourOnset = try #require(firstAbove(ours))
            // Level and spectrum over 0.05...0.55 s after our onset (the same stretch of the note in both).
            let a = ourOnset + Int(0.05 * S.rate), b = a + Int(0.5 * S.rate)
            let fsSegment = reference[(a + fsOnset - ourOnset) ..< (b + fsOnset - ourOnset)], ourSegment = ours[a ..< b]
            let levelDifference = S.dB(S.rms(ourSegment) / S.rms(fsSegment))
            // Spectral envelope: energy in 16 third-octave-ish bands from 100 Hz to 10 kHz, compared in dB where
            // fluidsynth's band is within 40 dB of its strongest.
            let fsWindowed = S.windowed(fsSegment), ourWindowed = S.windowed(ourSegment)
            var fsBands: [Double] = [], ourBands: [Double] = []
            for band in 0 ..< 16 {
                let low = 100 * pow(100, Double(band) / 16), high = 100 * pow(100, Double(band + 1) / 16)
                var fsEnergy = 0.0, ourEnergy = 0.0
                for k in 0 ..< 8 {
                    let f = low * pow(high / low, (Double(k) + 0.5) / 8)
                    fsEnergy += pow(S.magnitude(windowed: fsWindowed, at: f), 2)
                    ourEnergy += pow(S.magnitude(windowed: ourWindowed, at: f), 2)
                }
                fsBands.append(10 * log10(fsEnergy + 1e-30)); ourBands.append(10 * log10(ourEnergy + 1e-30))
            }
            let strongest = fsBands.max()!
            var worst = 0.0, sumSquares = 0.0, counted = 0
            for (f, o) in zip(fsBands, ourBands) where f > strongest - 40 {
                worst = max(worst, abs(f - o)); sumSquares += (f - o) * (f - o); counted += 1
            }
            let distance = (sumSquares / Double(max(counted, 1))).squareRoot()
            print("program \(n.program) key \(n.key): onset fluidsynth \(fsOnset - expected), ours \(ourOnset - expected) samples; "
                  + "level difference \(String(format: "%.2f", levelDifference)) dB; band distance rms \(String(format: "%.2f", distance)) dB, worst \(String(format: "%.2f", worst)) dB over \(counted) bands")
            // fluidsynth starts events on its 64-frame block grid and its MIDI player's millisecond clock.
            #expect(abs(ourOnset - fsOnset) <= 128)
            #expect(abs(levelDifference) < 1.5)
            #expect(distance < 3)
        }
    }
}
