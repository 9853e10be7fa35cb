import Foundation
import Testing
@testable import AudioToolbox

/// Helpers shared by the tests: external tools, temporary files, WAV reading, whole-file decoding.
enum TestSupport {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The absolute path of `tool` on PATH; a missing tool fails the calling test.
    static func tool(_ name: String) throws -> String {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for dir in dirs + ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(description: "required tool \(name) is not installed")
    }

    /// Runs `name` with `arguments`, returning its standard output; throws on a non-zero exit.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> Data {
        try runCapturing(name, arguments).stdout
    }

    /// Runs `name` with `arguments`, returning its standard output and standard error; throws on a non-zero exit.
    static func runCapturing(_ name: String, _ arguments: [String]) throws -> (stdout: Data, stderr: Data) {
        // Output goes to files, not pipes: Foundation's pipe reads on Linux can fail with EINTR.
        let dir = FileManager.default.temporaryDirectory
        let outURL = dir.appendingPathComponent("tool-\(UUID().uuidString).out")
        let errURL = dir.appendingPathComponent("tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try tool(name))
        process.arguments = arguments
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        guard process.terminationStatus == 0 else {
            let message = (try? Data(contentsOf: errURL)) ?? Data()
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
                + String(decoding: message.suffix(2000), as: UTF8.self))
        }
        return (try Data(contentsOf: outURL), try Data(contentsOf: errURL))
    }

    /// Runs `name` and returns whether it exited with 0 (for tools expected to fail), and its stderr.
    static func status(_ name: String, _ arguments: [String]) throws -> (ok: Bool, stderr: String) {
        do {
            try run(name, arguments)
            return (true, "")
        } catch let f as Failure {
            return (false, f.description)
        }
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flac-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// PCM as integers at its bit depth, interleaved.
    struct PCM {
        var samples: [Int32]
        var channels: Int
        var bitsPerSample: Int
        var sampleRate: Int
        var frames: Int { samples.count / channels }
    }

    /// Reads a PCM WAV file (plain or WAVE_FORMAT_EXTENSIBLE), 8-bit unsigned made signed.
    static func readWAV(_ path: String) throws -> PCM {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        /// The little-endian value of `n` bytes at `at`.
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
                if size == 0xFFFF_FFFF || pos + size > data.count { size = data.count - pos }
                let width = (bits + 7) / 8
                let count = size / width
                var samples = [Int32](repeating: 0, count: count)
                for i in 0..<count {
                    let v = le(pos + i * width, width)
                    if width == 1 {
                        samples[i] = Int32(v) - 128
                    } else {
                        let shift = 64 - width * 8
                        samples[i] = Int32((v << shift) >> shift) >> Int32(width * 8 - bits)
                    }
                }
                return PCM(samples: samples, channels: channels, bitsPerSample: bits, sampleRate: rate)
            }
            pos += size + (size & 1)
        }
        throw Failure(description: "no data chunk")
    }

    /// Generates a WAV with sox, repeatably (fixed noise seed), without dither: `sox -n -r rate -b bits -c channels path synth seconds <synth...> [effects...]`.
    static func sox(_ path: String, rate: Int = 44100, bits: Int = 16, channels: Int = 2, synth: [String], effects: [String] = []) throws {
        try run("sox", ["-R", "-D", "-n", "-r", "\(rate)", "-b", "\(bits)", "-c", "\(channels)", path, "synth"] + synth + effects)
    }

    /// A music-like stereo signal: plucked chords over low pink noise, each channel different.
    static let musicSynth = ["pluck", "C3", "pluck", "E3", "pluck", "G3", "sine", "220", "pinknoise"]

    /// Decodes a whole native .flac file with our decoder; checks the MD5 against STREAMINFO's when set.
    static func decodeFile(_ bytes: [UInt8]) throws -> (metadata: FLACMetadata, samples: [Int32], md5: [UInt8]) {
        try bytes.withUnsafeBytes { raw in
            let metadata: FLACMetadata
            switch FLACMetadata.parse(raw) {
            case .success(let m): metadata = m
            case .failure(let e): throw Failure(description: "metadata: \(e)")
            }
            let info = metadata.streamInfo
            let decoder = FLACFrameDecoder(streamInfo: info)
            var samples = [Int32]()
            samples.reserveCapacity(Int(info.totalSamples) * info.channels)
            var block = [Int32](repeating: 0, count: info.maxBlockSize * info.channels)
            var md5 = FLACMD5()
            var offset = metadata.firstFrameOffset
            while offset < raw.count {
                let frame = UnsafeRawBufferPointer(rebasing: raw[offset...])
                let result = block.withUnsafeMutableBufferPointer { decoder.decode(frame, into: $0.baseAddress!, capacityFrames: info.maxBlockSize) }
                switch result {
                case .success(let r):
                    block.withUnsafeBufferPointer { b in
                        samples.append(contentsOf: b[0..<r.frames * info.channels])
                        md5.updateSamples(b.baseAddress!, count: r.frames * info.channels, bitsPerSample: info.bitsPerSample)
                    }
                    offset += r.bytesConsumed
                case .failure(let e):
                    throw Failure(description: "frame at \(offset): \(e)")
                }
            }
            return (metadata, samples, md5.finish())
        }
    }

    /// Writes interleaved samples as a PCM WAV file (8-bit stored unsigned, as WAV requires).
    static func writeWAV(_ path: String, samples: [Int32], channels: Int, bitsPerSample bits: Int, sampleRate: Int) throws {
        let width = (bits + 7) / 8
        var out = [UInt8]()
        /// Appends the low `n` bytes of `v`, little-endian.
        func le(_ v: Int, _ n: Int) { for i in 0..<n { out.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        let dataSize = samples.count * width
        out += Array("RIFF".utf8); le(36 + dataSize, 4); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); le(16, 4); le(1, 2); le(channels, 2); le(sampleRate, 4)
        le(sampleRate * channels * width, 4); le(channels * width, 2); le(width * 8, 2)
        out += Array("data".utf8); le(dataSize, 4)
        out.reserveCapacity(out.count + dataSize)
        for s in samples {
            if width == 1 { out.append(UInt8(truncatingIfNeeded: Int(s) + 128)) } else { le(Int(s) << (width * 8 - bits), width) }
        }
        try write(out, to: path)
    }

    /// Reads a file's bytes.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes bytes to a file.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
