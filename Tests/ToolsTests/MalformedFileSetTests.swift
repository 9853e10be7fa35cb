import AudioToolbox
import FileExercises
import Foundation
import Testing

/// A malformed-file set: 17 files made by sox, ffmpeg and scripts/amr-encode.py (WAVE, AIFF, CAF with PCM and ALAC, FLAC, MP3, M4A with AAC
/// and ALAC, ADTS, Opus in CAF-less MP4, 24-bit WAVE, a 5.1 WAVE, Opus and FLAC in Ogg) each cut and corrupted ten
/// ways, the Ogg ones ten more ways of Ogg's own; AMR narrowband and wideband .amr files and AMR in 3GP ten ways, the .amr
/// ones seven more of AMR's own (with the five non-audio ones: 207). Every open answers noErr or one of Audio File Services' own codes, with the file's type as a hint
/// and without; every case is then read by every path a client takes (FileExercises: packets, ExtAudioFile through
/// the converter, the report, AudioFileStream) without a crash, and in bounded time. Non-audio bytes are 'typ?'.
@Suite struct MalformedFileSetTests {
    static let audioFileCodes: Set<OSStatus> = [
        noErr, kAudioFileUnspecifiedError, kAudioFileUnsupportedFileTypeError, kAudioFileUnsupportedDataFormatError,
        kAudioFileInvalidChunkError, kAudioFileInvalidFileError, kAudioFileInvalidPacketOffsetError, kAudioFileEndOfFileError,
        kAudioFileDoesNotAllow64BitDataSizeError,
    ]

    /// Makes one seed file with sox or ffmpeg.
    static func seed(_ dir: URL, _ name: String, _ tool: String, _ arguments: [String]) throws -> (String, Data, AudioFileTypeID) {
        let url = dir.appendingPathComponent(name)
        try SoundCheckTests.require(tool, arguments.map { $0 == "OUT" ? url.path : $0 })
        let hint: AudioFileTypeID = switch url.pathExtension {
        case "wav": kAudioFileWAVEType
        case "aif": kAudioFileAIFFType
        case "caf": kAudioFileCAFType
        case "flac": kAudioFileFLACType
        case "mp3": kAudioFileMP3Type
        case "m4a": kAudioFileM4AType
        case "aac": kAudioFileAAC_ADTSType
        case "opus", "oga": OCAFormat.fourCharCode("OggS")  // this package's Ogg type (Apple has none)
        case "amr": kAudioFileAMRType
        case "3gp": kAudioFile3GPType
        default: kAudioFileMPEG4Type
        }
        return (name, try Data(contentsOf: url), hint)
    }

    static func seeds(in dir: URL) throws -> [(String, Data, AudioFileTypeID)] {
        let sox = "/usr/bin/sox", ffmpeg = "/usr/bin/ffmpeg"
        let tone = ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-ac", "2"]
        return [
            try seed(dir, "pcm16.wav", sox, ["-n", "-r", "44100", "-c", "2", "-b", "16", "OUT", "synth", "0.5", "sine", "440"]),
            try seed(dir, "pcm24.wav", sox, ["-n", "-r", "48000", "-c", "1", "-b", "24", "OUT", "synth", "0.5", "sine", "440"]),
            try seed(dir, "surround.wav", sox, ["-n", "-r", "48000", "-c", "6", "-b", "16", "OUT", "synth", "0.3", "sine", "440"]),
            try seed(dir, "pcm.aif", sox, ["-n", "-r", "22050", "-c", "2", "-b", "16", "OUT", "synth", "0.5", "sine", "440"]),
            try seed(dir, "pcm.caf", ffmpeg, tone + ["-c:a", "pcm_s16be", "OUT"]),
            try seed(dir, "alac.caf", ffmpeg, tone + ["-c:a", "alac", "OUT"]),
            try seed(dir, "tone.flac", ffmpeg, tone + ["-c:a", "flac", "OUT"]),
            try seed(dir, "tone.mp3", ffmpeg, tone + ["-c:a", "libmp3lame", "-b:a", "128k", "OUT"]),
            try seed(dir, "aac.m4a", ffmpeg, tone + ["-c:a", "aac", "-b:a", "96k", "OUT"]),
            try seed(dir, "alac.m4a", ffmpeg, tone + ["-c:a", "alac", "OUT"]),
            try seed(dir, "tone.aac", ffmpeg, tone + ["-c:a", "aac", "-f", "adts", "OUT"]),
            try seed(dir, "opus.mp4", ffmpeg, tone + ["-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "OUT"]),
            try seed(dir, "tone.opus", ffmpeg, tone + ["-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-metadata", "title=T", "OUT"]),
            try seed(dir, "flac.oga", ffmpeg, tone + ["-c:a", "flac", "-metadata", "title=T", "OUT"]),
        ] + (try amrSeeds(in: dir))
    }

    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts")

    /// AMR narrowband and wideband .amr files (scripts/amr-encode.py over a sox tone), and the narrowband frames in 3GP.
    static func amrSeeds(in dir: URL) throws -> [(String, Data, AudioFileTypeID)] {
        var out: [(String, Data, AudioFileTypeID)] = []
        for (name, rate, extra) in [("speech.amr", "8000", [String]()), ("wide.amr", "16000", ["--wb"])] {
            let wav = dir.appendingPathComponent(name + ".wav")
            try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", rate, "-c", "1", "-b", "16", wav.path, "synth", "0.5", "sine", "440"])
            out.append(try seed(dir, name, "/usr/bin/python3", [scripts.appendingPathComponent("amr-encode.py").path, wav.path, "OUT"] + extra))
        }
        out.append(try seed(dir, "amr.3gp", "/usr/bin/ffmpeg", ["-v", "error", "-i", dir.appendingPathComponent("speech.amr").path, "-c", "copy", "OUT"]))
        return out
    }

    /// AMR's own ways to break an .amr file: the multichannel magic, the wideband magic on narrowband frames (and the
    /// reverse), every ToC byte a NO_DATA frame, every ToC a reserved frame type, the ToC's padding bits set, a frame
    /// cut in the middle of the file, the magic alone.
    static func amrMutations(_ d: Data) -> [(String, Data)] {
        let b = [UInt8](d)
        let wide = b.starts(with: Array("#!AMR-WB\n".utf8))
        guard wide || b.starts(with: Array("#!AMR\n".utf8)) else { return [] }
        let magic = wide ? 9 : 6
        let sizes = wide ? [18, 24, 33, 37, 41, 47, 51, 59, 61, 6, 1, 1, 1, 1, 1, 1] : [13, 14, 16, 18, 20, 21, 27, 32, 6, 1, 1, 1, 1, 1, 1, 1]
        var tocs: [Int] = []
        var i = magic
        while i < b.count { tocs.append(i); i += sizes[Int(b[i] >> 3) & 15] }
        func mapToCs(_ f: (UInt8) -> UInt8) -> Data { var x = b; for t in tocs where t < x.count { x[t] = f(x[t]) }; return Data(x) }
        let body = Array(b[magic...])
        return [
            ("multichannel magic", Data(Array((wide ? "#!AMR-WB_MC1.0\n" : "#!AMR_MC1.0\n").utf8) + [0, 0, 0, 1] + body)),
            ("other band's magic", Data(Array((wide ? "#!AMR\n" : "#!AMR-WB\n").utf8) + body)),
            ("every frame NO_DATA", mapToCs { $0 & 0x87 | 15 << 3 }),
            ("every frame type 12 (reserved)", mapToCs { $0 & 0x87 | 12 << 3 }),
            ("ToC padding bits set", mapToCs { $0 | 0x83 }),
            ("frame cut mid-file", Data(b[..<(tocs[tocs.count / 2] + 3)] + b[tocs[tocs.count / 2 + 1]...])),
            ("magic alone", Data(b[..<magic])),
        ]
    }

    /// Ten ways to break a file: truncations at the magic, inside the header, at half and near the end; the first
    /// chunk's size as 0 and as 0xFFFFFFFF; the magic flipped; every byte after the first 64 zeroed; the header region
    /// scrambled; 256 KiB of 0xFF appended.
    static func mutations(_ d: Data) -> [(String, Data)] {
        var out: [(String, Data)] = []
        out.append(("first 4 bytes", d.prefix(4)))
        out.append(("first 40 bytes", d.prefix(40)))
        out.append(("half", d.prefix(d.count / 2)))
        out.append(("all but 7 bytes", d.prefix(d.count - 7)))
        var zeroSize = d
        if zeroSize.count > 8 { zeroSize.replaceSubrange(4..<8, with: [0, 0, 0, 0]) }
        out.append(("size field 0", zeroSize))
        var hugeSize = d
        if hugeSize.count > 8 { hugeSize.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF]) }
        out.append(("size field 0xFFFFFFFF", hugeSize))
        var magic = d
        magic[magic.startIndex] ^= 0x20
        out.append(("magic flipped", magic))
        var zeroed = d
        if zeroed.count > 64 { zeroed.replaceSubrange(64..<zeroed.count, with: [UInt8](repeating: 0, count: zeroed.count - 64)) }
        out.append(("zeroed after 64", zeroed))
        var scrambled = d
        var x: UInt32 = 0x9E37_79B9
        for i in stride(from: 8, to: min(scrambled.count, 512), by: 3) {
            x = x &* 1_664_525 &+ 1_013_904_223
            scrambled[scrambled.startIndex + i] = UInt8(truncatingIfNeeded: x >> 24)
        }
        out.append(("header scrambled", scrambled))
        out.append(("0xFF appended", d + Data(repeating: 0xFF, count: 1 << 18)))
        return out
    }

    /// Ogg's own ways to break a file, each page's checksum made right again where the point is to get past it: a
    /// page's checksum wrong, a page claiming 255 lacing values of 255 (64 KiB past the file), the last granule
    /// position huge and negative, OpusHead's pre-skip 65535 and its channel count 0, two pages swapped, the
    /// end-of-stream flag on the first audio page.
    static func oggMutations(_ d: Data) -> [(String, Data)] {
        var b = [UInt8](d)
        var pages: [Int] = []
        var i = 0
        while i + 27 <= b.count, b[i..<(i + 4)].elementsEqual("OggS".utf8) {
            pages.append(i)
            let segments = Int(b[i + 26])
            guard i + 27 + segments <= b.count else { break }
            i += 27 + segments + b[(i + 27)..<(i + 27 + segments)].reduce(0) { $0 + Int($1) }
        }
        guard pages.count >= 3 else { return [] }
        func crc(_ bytes: inout [UInt8], page at: Int) {
            let segments = Int(bytes[at + 26])
            let end = at + 27 + segments + bytes[(at + 27)..<(at + 27 + segments)].reduce(0) { $0 + Int($1) }
            guard end <= bytes.count else { return }
            bytes.replaceSubrange((at + 22)..<(at + 26), with: [0, 0, 0, 0])
            var c: UInt32 = 0
            for x in bytes[at..<end] {
                c ^= UInt32(x) << 24
                for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
            }
            bytes.replaceSubrange((at + 22)..<(at + 26), with: (0..<4).map { UInt8(truncatingIfNeeded: c >> (8 * $0)) })
        }
        var out: [(String, Data)] = []
        for (n, at) in pages.prefix(3).enumerated() {
            var x = b
            x[at + 22] ^= 0x01
            out.append(("page \(n) checksum wrong", Data(x)))
        }
        var lacing = b
        lacing[pages[2] + 26] = 255
        lacing.replaceSubrange((pages[2] + 27)..<(pages[2] + 28), with: [UInt8](repeating: 255, count: 255))
        crc(&lacing, page: pages[2])
        out.append(("255 lacing values of 255", Data(lacing)))
        var granule = b
        granule.replaceSubrange((pages.last! + 6)..<(pages.last! + 14), with: [0, 0, 0, 0, 0, 0, 0, 0x80])
        crc(&granule, page: pages.last!)
        out.append(("last granule position -2^63", Data(granule)))
        var huge = b
        huge.replaceSubrange((pages.last! + 6)..<(pages.last! + 14), with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        crc(&huge, page: pages.last!)
        out.append(("last granule position 2^63-1", Data(huge)))
        if b[(pages[0] + 28)..<(pages[0] + 36)].elementsEqual("OpusHead".utf8) {
            var preSkip = b
            preSkip[pages[0] + 28 + 10] = 0xFF
            preSkip[pages[0] + 28 + 11] = 0xFF
            crc(&preSkip, page: pages[0])
            out.append(("pre-skip 65535", Data(preSkip)))
            var channels = b
            channels[pages[0] + 28 + 9] = 0
            crc(&channels, page: pages[0])
            out.append(("0 channels", Data(channels)))
        }
        var swapped = b
        let p2 = Array(b[pages[1]..<pages[2]])
        swapped.removeSubrange(pages[1]..<pages[2])
        swapped.insert(contentsOf: p2, at: pages[2] - p2.count + (pages.count > 3 ? pages[3] - pages[2] : 0))
        out.append(("pages swapped", Data(swapped)))
        var eos = b
        eos[pages[2] + 5] |= 4
        crc(&eos, page: pages[2])
        out.append(("end of stream on the first audio page", Data(eos)))
        return out
    }

    /// Opens `data` from memory with `hint`.
    static func open(_ data: Data, hint: AudioFileTypeID) -> OSStatus {
        data.withUnsafeBytes { raw in
            let m = MemoryFile(raw)
            let read: AudioFile_ReadProc = { client, position, count, buffer, actual in
                let bytes = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes
                guard position >= 0, position < Int64(bytes.count) else { actual.pointee = 0; return kAudioFileEndOfFileError }
                let n = min(Int(count), bytes.count - Int(position))
                buffer.copyMemory(from: bytes.baseAddress! + Int(position), byteCount: n)
                actual.pointee = UInt32(n)
                return noErr
            }
            let size: AudioFile_GetSizeProc = { client in Int64(Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes.count) }
            var file: AudioFileID?
            let status = AudioFileOpenWithCallbacks(Unmanaged.passUnretained(m).toOpaque(), read, nil, size, nil, hint, &file)
            if let file { AudioFileClose(file) }
            return status
        }
    }

    @Test func everyCaseAnswersAnAudioFileCode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-malformed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let seeds = try Self.seeds(in: dir)
        var cases: [(String, Data, AudioFileTypeID)] = []
        for (name, data, hint) in seeds {
            // The intact file opens: the set breaks files we read.
            #expect(Self.open(data, hint: 0) == noErr, "\(name) intact")
            cases += Self.mutations(data).map { ("\(name): \($0.0)", $0.1, hint) }
            cases += Self.oggMutations(data).map { ("\(name): \($0.0)", $0.1, hint) }
            cases += Self.amrMutations(data).map { ("\(name): \($0.0)", $0.1, hint) }
        }
        // Not audio at all: answered 'typ?' with no hint, as Apple's AudioFile does.
        var random = Data(count: 4096)
        var x: UInt32 = 12345
        for i in random.indices { x = x &* 1_103_515_245 &+ 12345; random[i] = UInt8(truncatingIfNeeded: x >> 16) }
        let notAudio: [(String, Data)] = [("text", Data("This is not an audio file, just a line of text.\n".utf8)), ("1 KiB of zeros", Data(count: 1024)),
                                          ("4 KiB of noise", random), ("one byte", Data([0x52])), ("PDF header", Data("%PDF-1.7\n%\u{E2}".utf8))]
        for (name, data) in notAudio {
            #expect(Self.open(data, hint: 0) == kAudioFileUnsupportedFileTypeError, "\(name)")
            cases.append((name, data, 0))
        }
        var tally: [OSStatus: Int] = [:]
        var slowest = (0.0, "")
        for (name, data, hint) in cases {
            for h in Set([hint, 0]) {
                let status = Self.open(data, hint: h)
                tally[status, default: 0] += 1
                #expect(Self.audioFileCodes.contains(status), "\(name) (hint \(h)): \(status) is not an Audio File Services code")
            }
            let start = Date()
            data.withUnsafeBytes { exerciseAll($0) }
            let seconds = Date().timeIntervalSince(start)
            if seconds > slowest.0 { slowest = (seconds, name) }
            #expect(seconds < 20, "\(name): \(seconds) s")
        }
        #expect(cases.count >= 100)
        let summary = tally.sorted { $0.value > $1.value }.map { "\(Self.fourCC($0.key)) \($0.value)" }.joined(separator: ", ")
        print("malformed-file set: \(cases.count) cases, opens answered \(summary); slowest full read \(String(format: "%.2f", slowest.0)) s (\(slowest.1))")
    }

    /// A status as Apple prints it: four characters when they are printable, else the number.
    static func fourCC(_ s: OSStatus) -> String {
        let b = withUnsafeBytes(of: UInt32(bitPattern: s).bigEndian) { Array($0) }
        return b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? "'" + String(decoding: b, as: UTF8.self) + "'" : "\(s)"
    }
}
