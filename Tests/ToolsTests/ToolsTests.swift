import AudioToolbox
import Foundation
import Testing

/// Finds and runs the afinfo and afconvert executables. The tests build nothing: the executables must
/// already be built, which `swift build --build-tests` and `swift test` do (they build every target).
enum Tools {
    static let names = ["afinfo", "afconvert", "afplay", "afrecord"]

    /// Where the executables are: $OCA_TOOLS_DIR, else the directory of the running test binary (the
    /// same build directory as the tools, whatever the scratch path), else the package's `.build/debug`
    /// and `.build-tools/debug`.
    static let directory: Result<URL, ToolsMissing> = {
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["OCA_TOOLS_DIR"] { candidates.append(URL(fileURLWithPath: dir)) }
        // Linux: the test binary is the .xctest executable itself; macOS: a .xctest bundle in the build directory.
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let exe = Bundle.main.executableURL { candidates.append(exe.resolvingSymlinksInPath().deletingLastPathComponent()) }
        for bundle in [Bundle(for: Marker.self)] + Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for scratch in [".build", ".build-tools"] { candidates.append(root.appendingPathComponent(scratch).appendingPathComponent("debug")) }
        candidates = candidates.reduce(into: []) { list, url in if !list.contains(where: { $0.path == url.path }) { list.append(url) } }
        let found = candidates.first { dir in
            names.allSatisfy { FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent($0).path) }
        }
        if let found { return .success(found) }
        return .failure(ToolsMissing(searched: candidates.map(\.path)))
    }()

    /// A class of this test module: `Bundle(for:)` finds the .xctest bundle on Apple's platforms.
    final class Marker {}

    struct ToolsMissing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "afinfo and afconvert are not built: run `swift build` (or `swift build --build-tests`) before the tests, "
                + "or set OCA_TOOLS_DIR. Searched: " + searched.joined(separator: ", ")
        }
    }

    static func path(_ name: String) throws -> String {
        try directory.get().appendingPathComponent(name).path
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a tool to completion; stdout and stderr are read concurrently so neither pipe can fill up.
    static func run(_ name: String, _ arguments: [String]) throws -> Output {
        try run(executable: try path(name), arguments)
    }

    static func run(executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
        func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
    }

    static var sox: String? { FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") ? "/usr/bin/sox" : nil }
}

/// Test files, written and read with the AudioFile and ExtAudioFile API.
enum Fixture {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("oca-tools-\(UUID().uuidString).\(ext)")
    }

    static let rate = 44100.0
    static let frequencies = [440.0, 660.0]
    static let amplitude = 0.5

    static func sine(channel: Int, frame: Int, rate: Double) -> Double {
        amplitude * sin(2 * Double.pi * frequencies[channel] * Double(frame) / rate)
    }

    /// 1 s of 16-bit stereo at 44100 Hz (440 Hz left, 660 Hz right), written with AudioFileWritePackets.
    static func writeWAV(_ url: URL, frames: Int = 44100) throws {
        var format = AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var file: AudioFileID?
        var status = AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file)
        try #require(status == noErr, "AudioFileCreateWithURL: \(status)")
        let samples: [Int16] = (0..<frames * 2).map { Int16((sine(channel: $0 % 2, frame: $0 / 2, rate: rate) * 32767).rounded()) }
        var packets = UInt32(frames)
        status = samples.withUnsafeBytes { AudioFileWritePackets(file!, false, UInt32($0.count), nil, 0, &packets, $0.baseAddress!) }
        try #require(status == noErr, "AudioFileWritePackets: \(status)")
        try #require(AudioFileClose(file!) == noErr)
    }

    /// Reads a whole file with ExtAudioFile as interleaved Float32 at the file's rate.
    static func readFloat(_ url: URL) throws -> (format: AudioStreamBasicDescription, samples: [Float]) {
        var file: ExtAudioFileRef?
        var status = ExtAudioFileOpenURL(url as CFURL, &file)
        try #require(status == noErr, "ExtAudioFileOpenURL: \(status)")
        defer { ExtAudioFileDispose(file!) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat) == noErr)
        let channels = fileFormat.mChannelsPerFrame
        var client = AudioStreamBasicDescription(
            mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 4 * channels, mFramesPerPacket: 1,
            mBytesPerFrame: 4 * channels, mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
        status = ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, size, &client)
        try #require(status == noErr, "client format: \(status)")
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 4096 * Int(channels))
        while true {
            var frames: UInt32 = 4096
            let n: UInt32 = try chunk.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(raw.count),
                                                                                     mData: raw.baseAddress))
                let s = ExtAudioFileRead(file!, &frames, &list)
                try #require(s == noErr, "ExtAudioFileRead: \(s)")
                return frames
            }
            if n == 0 { break }
            samples += chunk.prefix(Int(n * channels))
        }
        return (fileFormat, samples)
    }
}

@Suite struct ToolsTests {
    @Test func afinfoDescribesAWAVEFile() throws {
        let wav = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        try Fixture.writeWAV(wav)
        let result = try Tools.run("afinfo", [wav.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = """
            File:           \(wav.path)
            File type ID:   WAVE
            Num Tracks:     1
            ----
            Data format:     2 ch,  44100 Hz, Int16, interleaved
                            no channel layout.
            estimated duration: 1.000000 sec
            audio bytes: 176400
            audio packets: 44100
            bit rate: 1411200 bits per second
            packet size upper bound: 4
            maximum packet size: 4
            audio data file offset: 44
            optimized
            source bit depth: I16
            ----

            """
        #expect(result.stdout == expected)

        let brief = try Tools.run("afinfo", ["-b", wav.path])
        #expect(brief.status == 0)
        #expect(brief.stdout == "\(wav.path), WAVE, Num Tracks:     1\n----\n1.000 sec, format:   2 ch,  44100 Hz, Int16, interleaved\n")
    }

    /// The brief's scenario: 16-bit stereo WAV at 44.1 kHz to big-endian 24-bit CAF at 48 kHz, checked
    /// by afinfo, by reading the samples back with ExtAudioFile, and by sox.
    @Test func afconvertWAVToBigEndian24BitCAFAt48k() throws {
        let wav = Fixture.tempURL("wav"), caf = Fixture.tempURL("caf")
        defer {
            try? FileManager.default.removeItem(at: wav)
            try? FileManager.default.removeItem(at: caf)
        }
        try Fixture.writeWAV(wav)
        let convert = try Tools.run("afconvert", ["-f", "caff", "-d", "BEI24@48000", wav.path, caf.path])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout.isEmpty && convert.stderr.isEmpty)

        let info = try Tools.run("afinfo", [caf.path])
        #expect(info.status == 0, "\(info.stderr)")
        let lines = info.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("File type ID:   caff"))
        #expect(lines.contains("Data format:     2 ch,  48000 Hz, 'lpcm' (0x0000000E) 24-bit big-endian signed integer"), "\(info.stdout)")
        #expect(lines.contains("audio packets: 48000"))
        #expect(lines.contains("audio bytes: 288000"))
        #expect(lines.contains("estimated duration: 1.000000 sec"))
        #expect(lines.contains("bit rate: 2304000 bits per second"))
        #expect(lines.contains("source bit depth: I24"))

        // The samples: the same sines at 48 kHz (interpolated by the sample-rate converter).
        let (format, samples) = try Fixture.readFloat(caf)
        #expect(format.mSampleRate == 48000 && format.mChannelsPerFrame == 2 && format.mBitsPerChannel == 24)
        #expect(format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
        #expect(samples.count == 48000 * 2)
        var worst = 0.0
        for frame in 64..<(48000 - 64) {
            for channel in 0..<2 {
                let error = abs(Double(samples[frame * 2 + channel]) - Fixture.sine(channel: channel, frame: frame, rate: 48000))
                worst = max(worst, error)
            }
        }
        #expect(worst < 2e-4, "largest difference from the ideal 48 kHz sine: \(worst)")

        // An independent reader agrees on rate, channels and depth.
        let sox = try #require(Tools.sox, "sox is required (scripts/setup.sh installs it)")
        func soxInfo(_ flag: String) throws -> String {
            let r = try Tools.run(executable: sox, ["--i", flag, caf.path])
            #expect(r.status == 0, "sox: \(r.stderr)")
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try soxInfo("-r") == "48000")
        #expect(try soxInfo("-c") == "2")
        #expect(try soxInfo("-b") == "24")
        #expect(try soxInfo("-s") == "48000")  // samples per channel
    }

    /// Without -f and -d the type follows the extension and the data format the source, where the type
    /// can hold it (AIFF cannot hold little-endian data: there the same depth, big-endian).
    /// Compressed output: `-d ima4` into CAF and AIFC, `-d ulaw` into WAVE; ffmpeg decodes what afconvert
    /// wrote with the source's length, and afconvert reads it back.
    @Test(arguments: [("caff", "ima4", "caf", "adpcm_ima_qt"), ("AIFC", "ima4", "aifc", "adpcm_ima_qt"), ("WAVE", "ulaw", "wav", "pcm_mulaw"),
                      ("caff", "alaw", "caf", "pcm_alaw")])
    func afconvertEncodesCompressedFormats(_ spec: (String, String, String, String)) throws {
        let wav = Fixture.tempURL("wav"), out = Fixture.tempURL(spec.2), back = Fixture.tempURL("wav")
        defer { [wav, out, back].forEach { try? FileManager.default.removeItem(at: $0) } }
        try Fixture.writeWAV(wav)
        let convert = try Tools.run("afconvert", ["-f", spec.0, "-d", spec.1, wav.path, out.path])
        #expect(convert.status == 0, "\(convert.stderr)")
        let ffprobe = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let probe = try Tools.run(executable: ffprobe, ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == spec.3)
        let info = try Tools.run("afinfo", [out.path])
        #expect(info.stdout.contains(spec.1), "\(info.stdout)")
        let decode = try Tools.run("afconvert", ["-f", "WAVE", "-d", "LEI16", out.path, back.path])
        #expect(decode.status == 0, "\(decode.stderr)")
        let (_, samples) = try Fixture.readFloat(back)
        // CAF records the exact length; AIFC holds whole 64-frame packets.
        #expect(samples.count == 2 * (spec.0 == "AIFC" ? 44160 : 44100))
    }

    /// `--mix`: a 5.1 file (sox writes WAVE_FORMAT_EXTENSIBLE with the 5.1 mask) folded to stereo and to mono
    /// equals ITU-R BS.775's downmix computed here from the samples sox reads back (both files read by sox,
    /// not by our reader); without --mix, -c 2 keeps L and R. `-l` labels the output, which ffprobe reads.
    @Test func afconvertMixesChannelsByLayout() throws {
        let sox = try #require(Tools.sox, "sox is required (scripts/setup.sh installs it)")
        let ffprobe = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let source = Fixture.tempURL("wav")
        var made: [URL] = [source]
        defer { for url in made { try? FileManager.default.removeItem(at: url) } }
        let synth = try Tools.run(executable: sox, ["-n", "-r", "48000", "-b", "16", "-c", "6", source.path, "synth", "0.25",
                                                    "sine", "110", "sine", "220", "sine", "330", "sine", "440", "sine", "550", "sine", "660",
                                                    "gain", "-9"])
        try #require(synth.status == 0, "sox: \(synth.stderr)")
        func floats(_ url: URL) throws -> [Double] {
            let r = Process()
            r.executableURL = URL(fileURLWithPath: sox)
            r.arguments = [url.path, "-t", "f32", "-"]
            let pipe = Pipe()
            r.standardOutput = pipe
            try r.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            r.waitUntilExit()
            return data.withUnsafeBytes { raw in (0..<data.count / 4).map { Double(raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) } }
        }
        let x = try floats(source)
        let frames = x.count / 6
        #expect(frames == 12000)
        let h = 0.5.squareRoot()
        for (arguments, channels) in [(["--mix", "-c", "2"], 2), (["--mix", "-l", "Mono"], 1), (["-c", "2"], 2)] {
            let out = Fixture.tempURL("wav")
            made.append(out)
            let r = try Tools.run("afconvert", arguments + ["-d", "LEF32", source.path, out.path])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let y = try floats(out)
            #expect(y.count == frames * channels, "\(arguments)")
            var worst = 0.0
            for n in 0..<min(frames, y.count / channels) {
                let s = Array(x[n * 6..<n * 6 + 6])  // L R C LFE Ls Rs
                let expected: [Double]
                if arguments.contains("--mix") {
                    expected = channels == 2 ? [s[0] + h * s[2] + h * s[4], s[1] + h * s[2] + h * s[5]]
                        : [h * s[0] + h * s[1] + s[2] + 0.5 * s[4] + 0.5 * s[5]]
                } else {
                    expected = [s[0], s[1]]
                }
                for c in 0..<channels { worst = max(worst, abs(y[n * channels + c] - expected[c])) }
            }
            #expect(worst < 1e-6, "\(arguments): largest difference from the ITU downmix \(worst)")
        }
        // -l names the output's layout; ffprobe reads it from the CAF's chan chunk.
        let labelled = Fixture.tempURL("caf")
        made.append(labelled)
        let r = try Tools.run("afconvert", ["-l", "MPEG_5_1_D", "--mix", source.path, labelled.path])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try Tools.run(executable: ffprobe, ["-v", "error", "-show_entries", "stream=channels,channel_layout", "-of", "csv=p=0", labelled.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "6,5.1(side)", "\(probe.stdout)")
        let info = try Tools.run("afinfo", [labelled.path])
        #expect(info.stdout.contains("Channel layout: 5.1 (C L R Ls Rs LFE)"), "\(info.stdout)")
        // With --mix the channels moved to the new order: D's first channel (C) is A's third.
        let y = try floats(labelled)
        var worst = 0.0
        for n in 0..<frames { for (c, source) in [2, 0, 1, 4, 5, 3].enumerated() { worst = max(worst, abs(y[n * 6 + c] - x[n * 6 + source])) } }
        #expect(worst < 1e-4, "reordered by layout: \(worst)")
        // Discrete channels have no standard mix.
        let refused = try Tools.run("afconvert", ["--mix", "-l", "DiscreteInOrder", source.path, Fixture.tempURL("wav").path])
        #expect(refused.status != 0)
    }

    @Test func afconvertInfersTypeAndFormat() throws {
        let wav = Fixture.tempURL("wav"), aif = Fixture.tempURL("aif"), caf = Fixture.tempURL("caf")
        defer { for url in [wav, aif, caf] { try? FileManager.default.removeItem(at: url) } }
        try Fixture.writeWAV(wav)

        #expect(try Tools.run("afconvert", [wav.path, aif.path]).status == 0)
        let aifInfo = try Tools.run("afinfo", [aif.path]).stdout
        #expect(aifInfo.contains("File type ID:   AIFF\n"))
        #expect(aifInfo.contains("Data format:     2 ch,  44100 Hz, 'lpcm' (0x0000000E) 16-bit big-endian signed integer\n"), "\(aifInfo)")
        #expect(aifInfo.contains("audio packets: 44100\n"))

        // -o names the output; -c 1 mixes down to mono.
        #expect(try Tools.run("afconvert", [wav.path, "-o", caf.path, "-c", "1"]).status == 0)
        let cafInfo = try Tools.run("afinfo", [caf.path]).stdout
        #expect(cafInfo.contains("File type ID:   caff\n"))
        #expect(cafInfo.contains("Data format:     1 ch,  44100 Hz, Int16\n"), "\(cafInfo)")
    }

    @Test func afconvertVerboseWithSampleRateConverterQuality() throws {
        let wav = Fixture.tempURL("wav"), out = Fixture.tempURL("wav")
        defer { for url in [wav, out] { try? FileManager.default.removeItem(at: url) } }
        try Fixture.writeWAV(wav)
        let result = try Tools.run("afconvert", ["-v", "-r", "127", "-d", "LEF32@22050", wav.path, out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  Input file      2 ch,  44100 Hz, Int16, interleaved\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  Output file     2 ch,  22050 Hz, Float32, interleaved\n"))
        #expect(result.stdout.contains("quality 127"))
        #expect(result.stdout.contains("Output file: \(out.path), 22050 frames"))
        #expect(try Tools.run("afinfo", [out.path]).stdout.contains("source bit depth: F32\n"))
    }

    @Test func afconvertHelpFormats() throws {
        let result = try Tools.run("afconvert", ["-hf"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("'WAVE' = WAVE (.wav, .wave)\n    data_formats: UI8 LEI16 LEI24 LEI32 LEF32 LEF64 'ulaw'\n                'alaw'\n"),
                "\(result.stdout)")
        #expect(result.stdout.contains("'AIFF' = AIFF (.aif, .aiff)\n    data_formats: I8 BEI16 BEI24 BEI32\n"))
        #expect(result.stdout.contains("'caff' = "))
        let help = try Tools.run("afconvert", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("afconvert [option...] input_file [output_file]"))
    }

    struct BadArguments: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badArguments: [BadArguments] = [
        BadArguments(arguments: [], message: "Usage"),
        BadArguments(arguments: ["--bogus", "IN", "OUT.caf"], message: "unknown option --bogus"),
        BadArguments(arguments: ["-d", "XYZ16", "IN", "OUT.caf"], message: "invalid data format \"XYZ16\""),
        BadArguments(arguments: ["-d", "F16", "IN", "OUT.caf"], message: "floats are 32 or 64 bits"),
        BadArguments(arguments: ["-d", "QDM2", "IN", "OUT.caf"], message: "'QDM2' cannot be encoded: 'fmt?'"),
        BadArguments(arguments: ["-d", "ima4", "IN", "OUT.wav"], message: "'ima4' is not valid for file type 'WAVE'"),
        BadArguments(arguments: ["-f", "MPG3", "IN", "OUT.caf"], message: "file type 'MPG3' is not writable"),
        BadArguments(arguments: ["-d", "BEI16", "IN", "OUT.wav"], message: "data format BEI16 is not valid for file type 'WAVE'"),
        BadArguments(arguments: ["-d", "LEF32", "-f", "AIFF", "IN", "OUT.caf"], message: "not valid for file type 'AIFF'"),
        BadArguments(arguments: ["-c", "0", "IN", "OUT.caf"], message: "invalid value \"0\" for -c"),
        BadArguments(arguments: ["-r", "200", "IN", "OUT.caf"], message: "invalid value \"200\" for -r"),
        BadArguments(arguments: ["-d"], message: "option -d needs a value"),
        BadArguments(arguments: ["IN", "OUT.xyz"], message: "can't tell the file type of"),
        BadArguments(arguments: ["IN", "OUT.caf", "THIRD.caf"], message: "too many file arguments"),
        BadArguments(arguments: ["MISSING", "OUT.caf"], message: "can't open input file"),
        BadArguments(arguments: ["IN", "IN"], message: "would replace the input file"),
    ]

    @Test(arguments: badArguments)
    func afconvertRejectsBadArguments(_ c: BadArguments) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav")
        try Fixture.writeWAV(input, frames: 100)
        let arguments = c.arguments.map { arg in
            switch arg {
            case "IN": input.path
            case "MISSING": dir.appendingPathComponent("missing.wav").path
            case let name where name.hasPrefix("OUT") || name.hasPrefix("THIRD"): dir.appendingPathComponent(name).path
            default: arg
            }
        }
        let result = try Tools.run("afconvert", arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(c.message), "stderr: \(result.stderr)")
        // Nothing but the input is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in.wav"])
    }

    @Test func afinfoReportsMissingFiles() throws {
        let missing = Fixture.tempURL("wav")
        let result = try Tools.run("afinfo", [missing.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("afinfo: Error opening file \(missing.path): -43"), "\(result.stderr)")

        // The other files are still described.
        let wav = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        try Fixture.writeWAV(wav, frames: 10)
        let mixed = try Tools.run("afinfo", [missing.path, wav.path])
        #expect(mixed.status != 0)
        #expect(mixed.stdout.contains("File:           \(wav.path)\n"))
        #expect(mixed.stdout.contains("audio packets: 10\n"))

        let notAudio = Fixture.tempURL("txt")
        defer { try? FileManager.default.removeItem(at: notAudio) }
        try Data("not audio".utf8).write(to: notAudio)
        let bad = try Tools.run("afinfo", [notAudio.path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("afinfo: Error opening file \(notAudio.path): "))

        let noArguments = try Tools.run("afinfo", [])
        #expect(noArguments.status != 0 && noArguments.stderr.contains("Usage"))
    }
}
