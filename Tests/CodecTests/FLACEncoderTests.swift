import Foundation
import Testing
@testable import AudioToolbox

/// Our encoder's files, checked by the reference decoder (`flac -t`, `flac -d`), ffmpeg and our decoder.
@Suite struct FLACEncoderTests {
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let rate: Int, bits: Int, channels: Int
        let synth: [String]
        let levels: [Int]
        var blockSize = 4096
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "16-bit stereo", rate: 44100, bits: 16, channels: 2, synth: ["3"] + TestSupport.musicSynth, levels: [0, 1, 3, 5, 8]),
        Case(name: "24-bit stereo 96 kHz", rate: 96000, bits: 24, channels: 2, synth: ["2"] + TestSupport.musicSynth, levels: [2, 5, 8]),
        Case(name: "8-bit mono", rate: 8000, bits: 8, channels: 1, synth: ["2", "sine", "300", "pinknoise"], levels: [0, 5]),
        Case(name: "16-bit mono 12345 frames", rate: 22050, bits: 16, channels: 1, synth: ["12345s", "pluck", "A2"], levels: [4, 7]),
        Case(name: "6 channels", rate: 48000, bits: 16, channels: 6,
             synth: ["2", "sine", "100", "sine", "200", "pinknoise", "brownnoise", "pluck", "C4", "square", "50"], levels: [5]),
        Case(name: "32-bit stereo", rate: 48000, bits: 32, channels: 2, synth: ["1"] + TestSupport.musicSynth, levels: [5]),
        Case(name: "16-bit stereo block 1152 rate 100 kHz", rate: 100000, bits: 16, channels: 2, synth: ["1"] + TestSupport.musicSynth,
             levels: [6], blockSize: 1152),
        Case(name: "16-bit stereo block 1000 rate 12345 Hz", rate: 12345, bits: 16, channels: 2, synth: ["1"] + TestSupport.musicSynth,
             levels: [5], blockSize: 1000),
    ]

    /// Our files at each level pass `flac -t` and decode exactly with `flac -d`, ffmpeg and our decoder.
    @Test(arguments: cases)
    func roundTripsThroughReferenceDecoders(_ c: Case) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path
        try TestSupport.sox(wav, rate: c.rate, bits: c.bits, channels: c.channels, synth: c.synth, effects: ["vol", "0.8"])
        let source = try TestSupport.readWAV(wav)
        for level in c.levels {
            let ours = dir.appendingPathComponent("ours\(level).flac").path
            let file = source.samples.withUnsafeBufferPointer {
                FLACStreamWriter.encodeFile($0, channels: c.channels, bitsPerSample: c.bits, sampleRate: c.rate,
                                            blockSize: c.blockSize, level: level)
            }
            try TestSupport.write(file, to: ours)
            try TestSupport.run("flac", ["-s", "-t", ours])
            let back = dir.appendingPathComponent("back\(level).wav").path
            try TestSupport.run("flac", ["-s", "-f", "-d", "-o", back, ours])
            #expect(try TestSupport.readWAV(back).samples == source.samples, "flac -d, level \(level)")
            #expect(try TestSupport.decodeFile(file).samples == source.samples, "our decoder, level \(level)")
            // ffmpeg: 16-bit as s16le; deeper as s32le, left-justified in 32 bits.
            if c.bits == 16 || c.bits == 24 {
                let format = c.bits == 16 ? "s16le" : "s32le"
                let pcm = try TestSupport.run("ffmpeg", ["-v", "error", "-i", ours, "-f", format, "-"])
                let values: [Int32] = pcm.withUnsafeBytes { raw in
                    c.bits == 16 ? raw.bindMemory(to: Int16.self).map { Int32(Int16(littleEndian: $0)) }
                        : raw.bindMemory(to: Int32.self).map { Int32(littleEndian: $0) >> 8 }
                }
                #expect(values == source.samples, "ffmpeg, level \(level)")
            }
        }
    }
}

extension FLACEncoderTests {
    /// Silence, a constant channel and wasted bits round-trip and compress well.
    @Test func encodesSilenceConstantAndWastedBits() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = FLACDecoderTests.silenceAndWastedBits()
        for level in [0, 5, 8] {
            let file = samples.withUnsafeBufferPointer {
                FLACStreamWriter.encodeFile($0, channels: 2, bitsPerSample: 16, sampleRate: 44100, level: level)
            }
            let path = dir.appendingPathComponent("w\(level).flac").path, back = dir.appendingPathComponent("w\(level).wav").path
            try TestSupport.write(file, to: path)
            try TestSupport.run("flac", ["-s", "-t", path])
            try TestSupport.run("flac", ["-s", "-f", "-d", "-o", back, path])
            #expect(try TestSupport.readWAV(back).samples == samples)
            // Silence and the constant channel cost next to nothing: well under half the verbatim size.
            #expect(file.count < samples.count * 2 / 2)
        }
    }

    /// Incompressible noise yields frames no larger than verbatim ones, still exact.
    @Test func neverLargerThanVerbatim() throws {
        // White noise at full scale cannot be predicted: every frame must fall back to (about) verbatim size.
        var seed: UInt64 = 7
        let frames = 20000
        var samples = [Int32]()
        for _ in 0..<(frames * 2) {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            samples.append(Int32(Int16(truncatingIfNeeded: seed >> 48)))
        }
        let encoder = FLACFrameEncoder(channels: 2, bitsPerSample: 16, sampleRate: 44100, blockSize: 4096, level: 8)
        let decoder = FLACFrameDecoder(streamInfo: FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 44100, channels: 2, bitsPerSample: 16))
        var out = [Int32](repeating: 0, count: 4096 * 2)
        var done = 0, number = 0
        while done < frames {
            let n = min(4096, frames - done)
            let frame = samples.withUnsafeBufferPointer { encoder.encode($0.baseAddress! + done * 2, frames: n, frameNumber: number) }
            // Header (at most 16 bytes) + 2 verbatim subframes (1 byte header each) + CRC.
            #expect(frame.count <= 16 + 2 * (1 + n * 2) + 2)
            let r = frame.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: 4096) } }
            #expect(try r.get().frames == n)
            #expect(out[0..<n * 2].elementsEqual(samples[done * 2..<(done + n) * 2]), "frame \(number)")
            done += n
            number += 1
        }
    }
}
