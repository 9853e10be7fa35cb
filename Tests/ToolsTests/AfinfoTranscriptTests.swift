import Foundation
import Testing

/// afinfo's full report for 20 linear PCM files that ffmpeg writes (WAVE, AIFF, AIFC and CAF; 8 to 64 bits, integer
/// and float, both byte orders, 8 to 96 kHz, mono and stereo) equals, byte for byte, a transcript written out here in
/// the layout of Apple's afinfo: the data format line in CAStreamBasicDescription's words, every number computed from
/// the file's parameters, and the data offset found by walking the file's chunks (not by our reader).
@Suite struct AfinfoTranscriptTests {
    struct Case {
        var name: String, codec: String, rate: Int, channels: Int
        /// Bits, float, big-endian as the codec stores them.
        var bits: Int, isFloat: Bool, bigEndian: Bool, unsigned: Bool = false
    }

    static let cases: [Case] = [
        Case(name: "u8.wav", codec: "pcm_u8", rate: 8000, channels: 1, bits: 8, isFloat: false, bigEndian: false, unsigned: true),
        Case(name: "s16.wav", codec: "pcm_s16le", rate: 44100, channels: 2, bits: 16, isFloat: false, bigEndian: false),
        Case(name: "s16m.wav", codec: "pcm_s16le", rate: 22050, channels: 1, bits: 16, isFloat: false, bigEndian: false),
        Case(name: "s24.wav", codec: "pcm_s24le", rate: 48000, channels: 2, bits: 24, isFloat: false, bigEndian: false),
        Case(name: "s24-96k.wav", codec: "pcm_s24le", rate: 96000, channels: 2, bits: 24, isFloat: false, bigEndian: false),
        Case(name: "s32.wav", codec: "pcm_s32le", rate: 48000, channels: 2, bits: 32, isFloat: false, bigEndian: false),
        Case(name: "f32.wav", codec: "pcm_f32le", rate: 44100, channels: 2, bits: 32, isFloat: true, bigEndian: false),
        Case(name: "f32m-8k.wav", codec: "pcm_f32le", rate: 8000, channels: 1, bits: 32, isFloat: true, bigEndian: false),
        Case(name: "f64.wav", codec: "pcm_f64le", rate: 48000, channels: 1, bits: 64, isFloat: true, bigEndian: false),
        Case(name: "s16.aif", codec: "pcm_s16be", rate: 44100, channels: 2, bits: 16, isFloat: false, bigEndian: true),
        Case(name: "s24.aif", codec: "pcm_s24be", rate: 22050, channels: 1, bits: 24, isFloat: false, bigEndian: true),
        Case(name: "s32.aif", codec: "pcm_s32be", rate: 48000, channels: 2, bits: 32, isFloat: false, bigEndian: true),
        Case(name: "f32.aifc", codec: "pcm_f32be", rate: 22050, channels: 2, bits: 32, isFloat: true, bigEndian: true),
        Case(name: "f64.aifc", codec: "pcm_f64be", rate: 44100, channels: 1, bits: 64, isFloat: true, bigEndian: true),
        Case(name: "s16be.caf", codec: "pcm_s16be", rate: 44100, channels: 2, bits: 16, isFloat: false, bigEndian: true),
        Case(name: "s16le.caf", codec: "pcm_s16le", rate: 44100, channels: 2, bits: 16, isFloat: false, bigEndian: false),
        Case(name: "s24le.caf", codec: "pcm_s24le", rate: 48000, channels: 1, bits: 24, isFloat: false, bigEndian: false),
        Case(name: "s32le.caf", codec: "pcm_s32le", rate: 32000, channels: 2, bits: 32, isFloat: false, bigEndian: false),
        Case(name: "f32le.caf", codec: "pcm_f32le", rate: 44100, channels: 2, bits: 32, isFloat: true, bigEndian: false),
        Case(name: "f64be.caf", codec: "pcm_f64be", rate: 48000, channels: 1, bits: 64, isFloat: true, bigEndian: true),
    ]

    /// The data format line's words, as CAStreamBasicDescription prints them: the common native formats by name, the
    /// others as the quoted code, the flags in hex, and the sample's width, order, sign and kind.
    static func format(_ c: Case) -> String {
        let head = String(format: "%2d ch, %6.0f Hz, ", c.channels, Double(c.rate))
        let native = !c.bigEndian && !c.unsigned && [16, 32, 64].contains(c.bits) && !(c.bits == 64 && !c.isFloat)
        if native {
            let name = c.isFloat ? "Float\(c.bits)" : "Int\(c.bits)"
            return head + name + (c.channels > 1 ? ", interleaved" : "")
        }
        // Flags: float 1, big-endian 2, signed 4, packed 8.
        let flags = (c.isFloat ? 1 : 0) | (c.bigEndian && c.bits > 8 ? 2 : 0) | (c.isFloat || c.unsigned ? 0 : 4) | 8
        let order = c.bits > 8 ? (c.bigEndian ? " big-endian" : " little-endian") : ""
        let kind = c.isFloat ? "float" : c.unsigned ? "unsigned integer" : "signed integer"
        return head + String(format: "'lpcm' (0x%08X) ", flags) + "\(c.bits)-bit\(order) \(kind)"
    }

    /// Where the audio data starts, by walking the container's chunks (RIFF 'data', AIFF 'SSND' plus its offset field
    /// and block size, CAF 'data' plus its edit count).
    static func dataOffset(_ d: [UInt8]) -> Int? {
        func be32(_ i: Int) -> Int { Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3]) }
        func le32(_ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 | Int(d[i + 2]) << 16 | Int(d[i + 3]) << 24 }
        func id(_ i: Int) -> String { String(decoding: d[i..<i + 4], as: UTF8.self) }
        switch id(0) {
        case "RIFF":
            var i = 12
            while i + 8 <= d.count { if id(i) == "data" { return i + 8 }; i += 8 + le32(i + 4) + (le32(i + 4) & 1) }
        case "FORM":
            var i = 12
            while i + 8 <= d.count { if id(i) == "SSND" { return i + 16 + be32(i + 8) }; i += 8 + be32(i + 4) + (be32(i + 4) & 1) }
        case "caff":
            var i = 8
            while i + 12 <= d.count {
                let size = be32(i + 4) << 32 | be32(i + 8)
                if id(i) == "data" { return i + 12 + 4 }
                i += 12 + size
            }
        default: break
        }
        return nil
    }

    /// A WAVE_FORMAT_EXTENSIBLE file's channel mask, or nil for another format tag.
    static func channelMask(_ d: [UInt8]) -> Int? {
        var i = 12
        while i + 8 <= d.count {
            let size = Int(d[i + 4]) | Int(d[i + 5]) << 8 | Int(d[i + 6]) << 16 | Int(d[i + 7]) << 24
            if String(decoding: d[i..<i + 4], as: UTF8.self) == "fmt " {
                guard size >= 24, Int(d[i + 8]) | Int(d[i + 9]) << 8 == 0xFFFE else { return nil }
                return Int(d[i + 28]) | Int(d[i + 29]) << 8 | Int(d[i + 30]) << 16 | Int(d[i + 31]) << 24
            }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    @Test func twentyFilesMatchTheTranscript() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-afinfo-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var mismatches = 0
        for c in Self.cases {
            let url = dir.appendingPathComponent(c.name)
            let seconds = 0.5
            try SoundCheckTests.require("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(c.rate):duration=\(seconds)",
                                                            "-ac", "\(c.channels)", "-c:a", c.codec, "-fflags", "+bitexact"]
                                        + (c.name.hasSuffix(".aifc") ? ["-f", "aiff"] : []) + [url.path])
            let bytes = [UInt8](try Data(contentsOf: url))
            let offset = try #require(Self.dataOffset(bytes), "\(c.name): no data chunk")
            let frames = Int(Double(c.rate) * seconds), bytesPerFrame = c.channels * c.bits / 8
            let type = c.name.hasSuffix(".wav") ? "WAVE" : c.name.hasSuffix(".aif") ? "AIFF" : c.name.hasSuffix(".aifc") ? "AIFC" : "caff"
            // ffmpeg's CAF carries a 'chan' for mono and stereo, its WAVE_FORMAT_EXTENSIBLE files (wider than 16 bits,
            // or float) a channel mask (front centre: Mono, front left and right: Stereo); its other files none.
            let mask = type == "WAVE" ? Self.channelMask(bytes) : nil
            let named = type == "caff" || mask != nil
            let layout = !named ? "                no channel layout." : c.channels == 1 ? "Channel layout: Mono" : "Channel layout: Stereo (L R)"
            if let mask { #expect(mask == (c.channels == 1 ? 0x4 : 0x3), "\(c.name): mask \(mask)") }
            let expected = """
                File:           \(url.path)
                File type ID:   \(type)
                Num Tracks:     1
                ----
                Data format:    \(Self.format(c))
                \(layout)
                estimated duration: \(String(format: "%f", Double(frames) / Double(c.rate))) sec
                audio bytes: \(frames * bytesPerFrame)
                audio packets: \(frames)
                bit rate: \(c.rate * bytesPerFrame * 8) bits per second
                packet size upper bound: \(bytesPerFrame)
                maximum packet size: \(bytesPerFrame)
                audio data file offset: \(offset)
                optimized
                source bit depth: \(c.isFloat ? "F" : "I")\(c.bits)
                ----

                """
            let r = try Tools.run("afinfo", [url.path])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(c.name): \(r.stderr)")
            if r.stdout != expected {
                mismatches += 1
                Issue.record("\(c.name):\n--- afinfo\n\(r.stdout)--- transcript\n\(expected)")
            }
        }
        #expect(Self.cases.count == 20 && mismatches == 0)
    }
}
