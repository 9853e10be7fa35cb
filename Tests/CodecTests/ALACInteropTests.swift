import Foundation
import Testing
@testable import AudioToolbox

/// Interoperation with FFmpeg's ALAC encoder and decoder through CAF files, against sox's source samples.
@Suite struct ALACInteropTests {
    /// FFmpeg-made ALAC decodes bit-exactly to the source (in ALAC channel order).
    @Test(arguments: ALACTestSupport.interopSignals)
    func decodesFFmpegALAC(_ signal: ALACTestSupport.Signal) throws {
        let dir = try ALACTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (wav, source) = try ALACTestSupport.generate(signal, in: dir)
        let caf = dir.appendingPathComponent("ffmpeg.caf").path
        try ALACTestSupport.run("ffmpeg", ["-v", "error", "-y", "-i", wav] + ALACTestSupport.ffmpegLayoutFilter(signal.channels) + ["-c:a", "alac", caf])
        let file = try ALACCAFFile.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: caf))))
        let config = try ALACSpecificConfig(cookie: file.cookie)
        #expect(Int(config.numChannels) == signal.channels)
        #expect(Int(config.bitDepth) == signal.bits)
        #expect(file.packets.last.map { $0.isEmpty } == false)
        let decoded = try ALACTestSupport.decodeAll(config: config, packets: file.packets)
        let expected = ALACTestSupport.alacOrder(source).samples
        #expect(decoded.count == expected.count)
        #expect(decoded == expected)
    }

    /// Our packets, wrapped in a CAF, decode with FFmpeg to exactly the source, the partial last packet included.
    @Test(arguments: ALACTestSupport.interopSignals + [
        ALACTestSupport.Signal(name: "32-bit stereo", bits: 32, length: "20000s", synth: ["sine", "440", "pinknoise"]),
        ALACTestSupport.Signal(name: "32-bit mono", bits: 32, channels: 1, length: "10000s", synth: ["pinknoise"]),
    ])
    func ffmpegDecodesOurALAC(_ signal: ALACTestSupport.Signal) throws {
        let dir = try ALACTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, source) = try ALACTestSupport.generate(signal, in: dir)
        let (config, packets) = try ALACTestSupport.encodeAll(ALACTestSupport.alacOrder(source))
        #expect(packets.count == (source.frames + 4095) / 4096)
        let caf = dir.appendingPathComponent("ours.caf").path
        let file = ALACCAFFile.wrapping(config: config, packets: packets, frames: source.frames)
        try Data(file.serialized()).write(to: URL(fileURLWithPath: caf))
        let width = signal.bits == 16 ? 2 : 4
        let raw = try ALACTestSupport.run("ffmpeg", ["-v", "error", "-i", caf, "-f", width == 2 ? "s16le" : "s32le", "-"])
        // FFmpeg gives 20/24-bit ALAC as 32-bit samples, left-justified.
        let decoded = ALACTestSupport.littleEndianSamples(raw, width: width)
        let scale = Int32(width * 8 - signal.bits)
        let expected = source.samples.map { $0 << scale }
        #expect(decoded.count == expected.count)
        #expect(decoded == expected)
        // Our own decoder agrees, and the cookie round-trips through the file.
        #expect(try ALACSpecificConfig(cookie: file.cookie).cookieBytes == config.cookieBytes)
        #expect(try ALACTestSupport.decodeAll(config: config, packets: packets) == ALACTestSupport.alacOrder(source).samples)
    }
}
