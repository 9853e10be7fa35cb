import Foundation
import Testing
@testable import AudioToolbox

/// Helpers shared by the tests: external tools, temporary files, WAV parsing, whole-stream coding.
enum ALACTestSupport {
    // Tools are found and run by the FLAC tests' support (the same target).
    typealias Failure = TestSupport.Failure

    /// The absolute path of `name` on PATH; a missing tool fails the calling test (never a skip).
    static func tool(_ name: String) throws -> String { try TestSupport.tool(name) }

    /// Runs `name` with `arguments` and returns its standard output; throws on a non-zero exit.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> Data { try TestSupport.run(name, arguments) }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("alac-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Interleaved integer PCM at its bit depth.
    struct PCM {
        var samples: [Int32]
        var channels: Int
        var bits: Int
        var rate: Int
        var frames: Int { samples.count / channels }
    }

    /// A test signal: how sox makes it.
    struct Signal: CustomStringConvertible, Sendable {
        var name: String
        var rate = 44100
        var bits = 16
        var channels = 2
        /// sox duration: seconds ("3") or samples ("12345s").
        var length = "3"
        var synth = ["sine", "440", "pinknoise"]
        var description: String { name }
    }

    /// Standard signals for the interop tests.
    static let interopSignals: [Signal] = [
        Signal(name: "16-bit stereo", synth: ["pluck", "C3", "pluck", "G3", "sine", "220", "pinknoise"]),
        Signal(name: "24-bit stereo 96 kHz", rate: 96000, bits: 24, synth: ["sine", "1000", "pinknoise"]),
        Signal(name: "16-bit mono 48 kHz", rate: 48000, channels: 1, synth: ["pluck", "E2", "sine", "300"]),
        Signal(name: "24-bit mono", bits: 24, channels: 1, synth: ["pinknoise"]),
        Signal(name: "16-bit 6 channels", channels: 6, length: "2",
               synth: ["sine", "100", "pinknoise", "sine", "300", "brownnoise", "pluck", "C3", "sine", "60"]),
        Signal(name: "16-bit stereo 12345 frames", length: "12345s", synth: ["sine", "440", "pinknoise"]),
        Signal(name: "24-bit 3 channels odd length", rate: 48000, bits: 24, channels: 3, length: "10001s",
               synth: ["sine", "440", "pinknoise", "brownnoise"]),
        Signal(name: "24-bit 4 channels", bits: 24, channels: 4, length: "9000s", synth: ["sine", "440", "pinknoise", "brownnoise", "sine", "90"]),
        Signal(name: "16-bit 5 channels", channels: 5, length: "9000s", synth: ["sine", "440", "pinknoise", "brownnoise", "sine", "90", "pinknoise"]),
        Signal(name: "16-bit 7 channels", channels: 7, length: "9000s",
               synth: ["sine", "440", "pinknoise", "brownnoise", "sine", "90", "pinknoise", "sine", "1000", "sine", "55"]),
        Signal(name: "24-bit 8 channels", bits: 24, channels: 8, length: "9000s",
               synth: ["sine", "100", "pinknoise", "sine", "300", "brownnoise", "pluck", "C3", "sine", "60", "sine", "90", "pinknoise"]),
    ]

    /// Generates `signal` as a WAV with sox (no dither, fixed noise seed) and returns its path and samples.
    static func generate(_ signal: Signal, in dir: URL) throws -> (path: String, pcm: PCM) {
        let path = dir.appendingPathComponent("source.wav").path
        try run("sox", ["-R", "-D", "-n", "-r", "\(signal.rate)", "-b", "\(signal.bits)", "-c", "\(signal.channels)", path,
                        "synth", signal.length] + signal.synth + ["gain", "-1"])
        return (path, try readWAV(path))
    }

    /// Reads a PCM WAV file (plain or WAVE_FORMAT_EXTENSIBLE) into integers at its bit depth.
    static func readWAV(_ path: String) throws -> PCM {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        /// The little-endian `n`-byte value at `at`.
        func le(_ at: Int, _ n: Int) -> Int {
            var v = 0
            for i in (0..<n).reversed() { v = v << 8 | Int(data[at + i]) }
            return v
        }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw Failure(description: "not a WAV file")
        }
        var pos = 12
        var channels = 0, rate = 0, bits = 0
        while pos + 8 <= data.count {
            let id = String(decoding: data[pos..<pos + 4], as: UTF8.self)
            var size = le(pos + 4, 4)
            pos += 8
            if id == "fmt " {
                channels = le(pos + 2, 2)
                rate = le(pos + 4, 4)
                bits = le(pos + 14, 2)
            } else if id == "data" {
                size = min(size, data.count - pos)
                let width = (bits + 7) / 8
                let shift = 64 - width * 8
                let samples = (0..<(size / width)).map { i in Int32((le(pos + i * width, width) << shift) >> shift) }
                return PCM(samples: samples, channels: channels, bits: bits, rate: rate)
            }
            pos += size + (size & 1)
        }
        throw Failure(description: "no data chunk in \(path)")
    }

    /// FFmpeg's channel for each ALAC bitstream channel (ff_alac_channel_layout_offsets): FFmpeg reorders
    /// ALAC's C L R ... into its own L R C ... order on decode and back on encode.
    static let ffmpegOffsets: [[Int]] = [[0], [0, 1], [2, 0, 1], [2, 0, 1, 3], [2, 0, 1, 3, 4], [2, 0, 1, 4, 5, 3],
                                         [2, 0, 1, 4, 5, 6, 3], [2, 6, 7, 0, 1, 4, 5, 3]]

    /// FFmpeg options labelling a WAV's channels with the layout FFmpeg's ALAC encoder uses for their count
    /// (without them a sox WAV of 3 channels has no layout and FFmpeg would downmix it to stereo).
    static func ffmpegLayoutFilter(_ channels: Int) -> [String] {
        let layouts = ["mono", "stereo", "3.0", "4.0", "5.0", "5.1", "6.1(back)", "7.1(wide)"]
        guard channels > 2 else { return [] }
        let map = (0..<channels).map(String.init).joined(separator: "|")
        return ["-af", "channelmap=map=\(map):channel_layout=\(layouts[channels - 1])"]
    }

    /// `pcm` (in FFmpeg/WAV channel order) rearranged into ALAC bitstream order.
    static func alacOrder(_ pcm: PCM) -> PCM {
        let map = ffmpegOffsets[pcm.channels - 1]
        var out = pcm
        for f in 0..<pcm.frames {
            for c in 0..<pcm.channels { out.samples[f * pcm.channels + c] = pcm.samples[f * pcm.channels + map[c]] }
        }
        return out
    }

    /// Decodes every packet with our decoder and concatenates the frames.
    static func decodeAll(config: ALACSpecificConfig, packets: [[UInt8]]) throws -> [Int32] {
        let decoder = try ALACDecoder(config: config)
        let channels = Int(config.numChannels)
        var buffer = [Int32](repeating: 0, count: Int(config.frameLength) * channels)
        var out = [Int32]()
        for (index, packet) in packets.enumerated() {
            let result = packet.withUnsafeBytes { raw in
                buffer.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: Int(config.frameLength)) }
            }
            switch result {
            case .success(let frames): out += buffer[0..<(frames * channels)]
            case .failure(let error): throw Failure(description: "packet \(index) failed: \(error)")
            }
        }
        return out
    }

    /// Encodes `pcm` in frameLength packets (the last partial) with our encoder.
    static func encodeAll(_ pcm: PCM, frameLength: Int = 4096, fastMode: Bool = false) throws -> (config: ALACSpecificConfig, packets: [[UInt8]]) {
        let encoder = try ALACEncoder(channels: pcm.channels, bitDepth: pcm.bits, sampleRate: pcm.rate, frameLength: frameLength,
                                      fastMode: fastMode)
        var packets = [[UInt8]]()
        pcm.samples.withUnsafeBufferPointer { samples in
            var frame = 0
            while frame < pcm.frames {
                let count = min(frameLength, pcm.frames - frame)
                packets.append(encoder.encode(samples.baseAddress! + frame * pcm.channels, frames: count))
                frame += count
            }
        }
        return (encoder.config, packets)
    }

    /// Little-endian signed samples of `width` bytes from raw tool output.
    static func littleEndianSamples(_ data: Data, width: Int) -> [Int32] {
        let bytes = [UInt8](data)
        return (0..<(bytes.count / width)).map { i in
            var v: UInt32 = 0
            for b in (0..<width).reversed() { v = v << 8 | UInt32(bytes[i * width + b]) }
            let shift = UInt32(32 - width * 8)
            return Int32(bitPattern: v << shift) >> Int32(shift)
        }
    }

    /// Wall-clock seconds taken by `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
