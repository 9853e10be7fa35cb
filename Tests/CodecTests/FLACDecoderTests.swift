import Foundation
import Testing
@testable import AudioToolbox

/// Our decoder against files made by the reference encoder (and ffmpeg's), bit-exact against the source.
@Suite struct FLACDecoderTests {
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let rate: Int, bits: Int, channels: Int
        let synth: [String]
        let flacArguments: [String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "16-bit stereo -0", rate: 44100, bits: 16, channels: 2, synth: ["3"] + TestSupport.musicSynth, flacArguments: ["-0"]),
        Case(name: "16-bit stereo -5", rate: 44100, bits: 16, channels: 2, synth: ["3"] + TestSupport.musicSynth, flacArguments: ["-5"]),
        Case(name: "16-bit stereo -8", rate: 44100, bits: 16, channels: 2, synth: ["3"] + TestSupport.musicSynth, flacArguments: ["-8"]),
        Case(name: "16-bit stereo lax order 32", rate: 44100, bits: 16, channels: 2, synth: ["2"] + TestSupport.musicSynth,
             flacArguments: ["-8", "--lax", "-l", "32", "-q", "15", "-r", "0,15"]),
        Case(name: "24-bit stereo 96 kHz -8", rate: 96000, bits: 24, channels: 2, synth: ["2"] + TestSupport.musicSynth, flacArguments: ["-8"]),
        Case(name: "24-bit stereo lax order 32 exhaustive", rate: 48000, bits: 24, channels: 2, synth: ["1"] + TestSupport.musicSynth,
             flacArguments: ["-8", "-e", "-p", "--lax", "-l", "32"]),
        Case(name: "16-bit mono 12345 frames", rate: 44100, bits: 16, channels: 1, synth: ["12345s", "pluck", "A2"], flacArguments: ["-5"]),
        Case(name: "8-bit mono", rate: 22050, bits: 8, channels: 1, synth: ["2", "sine", "300", "pinknoise"], flacArguments: ["-5"]),
        Case(name: "6 channels", rate: 48000, bits: 16, channels: 6,
             synth: ["2", "sine", "100", "sine", "200", "pinknoise", "brownnoise", "pluck", "C4", "square", "50"], flacArguments: ["-5"]),
        Case(name: "32-bit stereo", rate: 48000, bits: 32, channels: 2, synth: ["1"] + TestSupport.musicSynth, flacArguments: ["-5"]),
        Case(name: "block size 1000, rate 100 kHz", rate: 100000, bits: 16, channels: 2, synth: ["1"] + TestSupport.musicSynth,
             flacArguments: ["-5", "-b", "1000"]),
        Case(name: "block size 100, rate 12345 Hz", rate: 12345, bits: 16, channels: 2, synth: ["1"] + TestSupport.musicSynth,
             flacArguments: ["-5", "-b", "100"]),
        Case(name: "block size 16384 lax", rate: 44100, bits: 16, channels: 2, synth: ["2"] + TestSupport.musicSynth,
             flacArguments: ["-8", "--lax", "-b", "16384"]),
    ]

    /// A sox signal through `flac` with the case's options, decoded by us: samples and MD5 exact.
    @Test(arguments: cases)
    func decodesReferenceEncoderOutput(_ c: Case) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path, flac = dir.appendingPathComponent("in.flac").path
        try TestSupport.sox(wav, rate: c.rate, bits: c.bits, channels: c.channels, synth: c.synth, effects: ["vol", "0.8"])
        try TestSupport.run("flac", ["-s", "-f"] + c.flacArguments + ["-o", flac, wav])
        let source = try TestSupport.readWAV(wav)
        let decoded = try TestSupport.decodeFile(try TestSupport.bytes(flac))
        let info = decoded.metadata.streamInfo
        #expect(info.channels == c.channels && info.bitsPerSample == c.bits && info.sampleRate == c.rate)
        #expect(Int(info.totalSamples) == source.frames)
        #expect(decoded.samples == source.samples)
        #expect(decoded.md5 == info.md5)
    }

    /// Digital silence, a constant channel and samples with 4 wasted low bits (made in code: sox cannot).
    static func silenceAndWastedBits(frames: Int = 88200) -> [Int32] {
        var samples = [Int32]()
        var seed: UInt32 = 1
        for i in 0..<frames {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let tone = Int32(1800 * sin(Double(i) * 0.031)) + Int32(seed >> 29)
            samples.append(i < frames / 4 ? 0 : tone << 4)
            samples.append(i < frames / 2 ? 77 : tone &* 3 &- Int32(seed >> 26))
        }
        return samples
    }

    /// `flac` files with CONSTANT subframes and wasted bits decode exactly.
    @Test func decodesSilenceConstantAndWastedBits() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path, flac = dir.appendingPathComponent("in.flac").path
        let samples = Self.silenceAndWastedBits()
        try TestSupport.writeWAV(wav, samples: samples, channels: 2, bitsPerSample: 16, sampleRate: 44100)
        for level in ["-0", "-5", "-8"] {
            try TestSupport.run("flac", ["-s", "-f", level, "-o", flac, wav])
            let decoded = try TestSupport.decodeFile(try TestSupport.bytes(flac))
            #expect(decoded.samples == samples)
            #expect(decoded.md5 == decoded.metadata.streamInfo.md5)
        }
    }

    /// Files from ffmpeg's FLAC encoder (other partitioning and block sizes) decode exactly.
    @Test func decodesFFmpegEncoderOutput() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path
        try TestSupport.sox(wav, rate: 44100, bits: 16, channels: 2, synth: ["2"] + TestSupport.musicSynth)
        let source = try TestSupport.readWAV(wav)
        for (i, options) in [["-compression_level", "12"], ["-compression_level", "8", "-lpc_type", "cholesky", "-ch_mode", "mid_side"],
                             ["-compression_level", "0", "-frame_size", "777"]].enumerated() {
            let flac = dir.appendingPathComponent("ff\(i).flac").path
            try TestSupport.run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "flac"] + options + [flac])
            let decoded = try TestSupport.decodeFile(try TestSupport.bytes(flac))
            #expect(decoded.samples == source.samples, "\(options)")
            #expect(decoded.md5 == decoded.metadata.streamInfo.md5)
        }
    }

    /// Frames written bit by bit to reach what encoders rarely emit: escape-coded partitions, 5-bit Rice
    /// parameters, wasted bits under FIXED and LPC, explicit 8-bit block sizes, one-sample blocks.
    @Test func decodesHandcraftedFrames() throws {
        let info = FLACStreamInfo(minBlockSize: 16, maxBlockSize: 4096, sampleRate: 44100, channels: 1, bitsPerSample: 16)
        /// Decodes one frame that must span all of `bytes`.
        func decode(_ bytes: [UInt8]) throws -> [Int32] {
            let decoder = FLACFrameDecoder(streamInfo: info)
            var out = [Int32](repeating: 0, count: 4096)
            let r = bytes.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: 4096) } }
            let (frames, consumed) = try r.get()
            #expect(consumed == bytes.count)
            return Array(out[0..<frames])
        }

        // FIXED order 2, 3 wasted bits, method 1: an escaped partition (12-bit raw) and one with parameter 20.
        let e0 = (2..<32).map { Int64($0 % 5 - 2) }, e1 = (0..<32).map { Int64(($0 * 37) % 201 - 100) }
        let fixed = FLACHostileInputTests.frame(blockSize: 64) { w in
            w.write(UInt32(8 + 2) << 1 | 1, bits: 8); w.writeUnary(2)
            w.writeSigned(100, bits: 13); w.writeSigned(-50, bits: 13)
            w.write(1, bits: 2); w.write(1, bits: 4)
            w.write(31, bits: 5); w.write(12, bits: 5)
            for e in e0 { w.writeSigned(e, bits: 12) }
            w.write(20, bits: 5)
            for e in e1 {
                let u = UInt32(bitPattern: Int32(e << 1 ^ e >> 63))
                w.writeUnary(Int(u >> 20)); w.write(u & 0xFFFFF, bits: 20)
            }
        }
        var s: [Int64] = [100, -50]
        for e in e0 + e1 { s.append(e + 2 * s[s.count - 1] - s[s.count - 2]) }
        #expect(try decode(fixed) == s.map { Int32($0 << 3) })

        // LPC order 3, precision 7, shift 4, 1 wasted bit; partitions: k=3, k=0, escape with 0 bits (zeros), k=14.
        let c: [Int64] = [20, -10, 3]
        let residual = (3..<64).map { Int64(($0 * 13) % 17 - 8) }
        let lpc = FLACHostileInputTests.frame(blockSize: 64) { w in
            w.write(UInt32(31 + 3) << 1 | 1, bits: 8); w.writeUnary(0)
            for v: Int64 in [1000, 990, 1010] { w.writeSigned(v, bits: 15) }
            w.write(6, bits: 4); w.writeSigned(4, bits: 5)
            for v in c { w.writeSigned(v, bits: 7) }
            w.write(0, bits: 2); w.write(2, bits: 4)
            for (p, k) in [3, 0, 15, 14].enumerated() {
                w.write(UInt32(k), bits: 4)
                let part = residual[(p == 0 ? 0 : p * 16 - 3)..<(p * 16 + 13)]
                if k == 15 { w.write(0, bits: 5); continue }
                w.writeRice(part.map { Int32($0) }, count: part.count, parameter: k)
            }
        }
        var t: [Int64] = [1000, 990, 1010]
        for (j, e) in residual.enumerated() {
            let i = j + 3
            let zeroed = (32..<48).contains(i)  // the escaped partition (samples 32..<48) with 0 raw bits is all zeros
            t.append((zeroed ? 0 : e) + ((c[0] * t[i - 1] + c[1] * t[i - 2] + c[2] * t[i - 3]) >> 4))
        }
        #expect(try decode(lpc) == t.map { Int32($0 << 1) })

        // One-sample CONSTANT block and a 17-sample VERBATIM block.
        #expect(try decode(FLACHostileInputTests.frame(blockSize: 1) { w in w.write(0, bits: 8); w.writeSigned(-1234, bits: 16) }) == [-1234])
        let values = (0..<17).map { Int64($0 * 3000 - 25000) }
        let verbatim = FLACHostileInputTests.frame(blockSize: 17) { w in w.write(2, bits: 8); for v in values { w.writeSigned(v, bits: 16) } }
        #expect(try decode(verbatim) == values.map { Int32($0) })
    }
}
