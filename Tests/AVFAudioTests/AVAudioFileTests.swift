import AVFoundation
import Foundation
import Testing

/// AVAudioFile written in every format AudioFile writes, read back by itself and by ffprobe/ffmpeg; AVAudioConverter
/// against AudioConverter.
@Suite struct AVAudioFileTests {
    static let rate = 44100.0
    static let frames = 44100

    /// Runs a tool (which must exist: a missing tool fails the test), returning its standard output.
    static func tool(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed (is \(arguments[0]) installed?)")
        return data
    }

    /// Two channels: 440 Hz and 660 Hz sines at -6 dBFS, quantized to 16 bits so lossless 16-bit formats are exact.
    static func source() -> AVAudioPCMBuffer {
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames))!
        buffer.frameLength = AVAudioFrameCount(frames)
        for c in 0..<2 {
            for i in 0..<frames {
                let v = 0.5 * sin(2 * Double.pi * (c == 0 ? 440 : 660) * Double(i) / rate)
                buffer.floatChannelData![c][i] = Float((v * 32768).rounded() / 32768)
            }
        }
        return buffer
    }

    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let ext: String
        let id: AudioFormatID
        let bits: Int
        let isFloat: Bool
        /// Largest difference allowed between what was written and what reads back (0: exact); lossy formats
        /// give a signal-to-noise ratio instead.
        let tolerance: Float
        var minimumSNR: Double = .infinity
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "WAVE 16-bit", ext: "wav", id: kAudioFormatLinearPCM, bits: 16, isFloat: false, tolerance: 0),
        Case(name: "WAVE 24-bit", ext: "wav", id: kAudioFormatLinearPCM, bits: 24, isFloat: false, tolerance: 0),
        Case(name: "WAVE float", ext: "wav", id: kAudioFormatLinearPCM, bits: 32, isFloat: true, tolerance: 0),
        Case(name: "AIFF 16-bit", ext: "aiff", id: kAudioFormatLinearPCM, bits: 16, isFloat: false, tolerance: 0),
        Case(name: "CAF 32-bit", ext: "caf", id: kAudioFormatLinearPCM, bits: 32, isFloat: false, tolerance: 0),
        Case(name: "FLAC", ext: "flac", id: kAudioFormatFLAC, bits: 16, isFloat: false, tolerance: 0),
        Case(name: "ALAC in CAF", ext: "caf", id: kAudioFormatAppleLossless, bits: 16, isFloat: false, tolerance: 0),
        Case(name: "IMA4 in CAF", ext: "caf", id: kAudioFormatAppleIMA4, bits: 16, isFloat: false, tolerance: 1, minimumSNR: 25),
        Case(name: "µ-law WAVE", ext: "wav", id: kAudioFormatULaw, bits: 16, isFloat: false, tolerance: 0.02, minimumSNR: 35),
        Case(name: "AAC in CAF", ext: "caf", id: kAudioFormatMPEG4AAC, bits: 16, isFloat: false, tolerance: 1, minimumSNR: 20),
    ]

    @Test(arguments: cases) func writesAndReadsBack(_ c: Case) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avfile-\(getpid())-\(c.name.filter { $0.isLetter || $0.isNumber }).\(c.ext)")
        defer { try? FileManager.default.removeItem(at: url) }
        var settings: [String: Any] = [AVFormatIDKey: c.id, AVSampleRateKey: Self.rate, AVNumberOfChannelsKey: 2]
        if c.id == kAudioFormatLinearPCM {
            settings[AVLinearPCMBitDepthKey] = c.bits
            settings[AVLinearPCMIsFloatKey] = c.isFloat
            settings[AVLinearPCMIsBigEndianKey] = c.ext == "aiff"
        } else if c.id == kAudioFormatFLAC || c.id == kAudioFormatAppleLossless {
            settings[AVEncoderBitDepthHintKey] = 16
        }
        let source = Self.source()
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings)
            #expect(file.processingFormat.isStandard && file.fileFormat.streamDescription.pointee.mFormatID == c.id)
            try file.write(from: source)
            #expect(file.length == AVAudioFramePosition(Self.frames))
        }
        // Our reader.
        let file = try AVAudioFile(forReading: url)
        #expect(file.length == AVAudioFramePosition(Self.frames), "length \(file.length)")
        #expect(file.fileFormat.channelCount == 2 && file.fileFormat.sampleRate == Self.rate)
        let back = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(Self.frames + 100))!
        try file.read(into: back)
        #expect(Int(back.frameLength) == Self.frames)
        var worst: Float = 0
        for ch in 0..<2 {
            for i in 0..<min(Int(back.frameLength), Self.frames) {
                worst = max(worst, abs(back.floatChannelData![ch][i] - source.floatChannelData![ch][i]))
            }
        }
        #expect(worst <= c.tolerance, "largest difference \(worst)")
        if c.minimumSNR.isFinite {
            var signal = 0.0, noise = 0.0
            for ch in 0..<2 {
                for i in 0..<min(Int(back.frameLength), Self.frames) {
                    let s = Double(source.floatChannelData![ch][i]), d = Double(back.floatChannelData![ch][i]) - s
                    signal += s * s
                    noise += d * d
                }
            }
            let snr = 10 * log10(signal / max(noise, 1e-30))
            #expect(snr >= c.minimumSNR, "SNR \(snr) dB")
        }
        // An independent reader: ffprobe's stream description and ffmpeg's decode.
        let probe = try JSONSerialization.jsonObject(with: Self.tool(["ffprobe", "-v", "error", "-show_streams", "-of", "json", url.path])) as? [String: Any]
        let stream = (probe?["streams"] as? [[String: Any]])?.first
        #expect(stream?["channels"] as? Int == 2)
        #expect((stream?["sample_rate"] as? String) == "44100")
        let raw = try Self.tool(["ffmpeg", "-v", "error", "-i", url.path, "-f", "f32le", "-ac", "2", "-"])
        let decoded = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        if c.id == kAudioFormatAppleIMA4 {
            // ffmpeg decodes whole 64-frame IMA4 packets (it ignores the CAF packet table's remainder).
            #expect(decoded.count / 2 == (Self.frames + 63) / 64 * 64)
        } else if c.id != kAudioFormatMPEG4AAC {
            #expect(decoded.count / 2 == Self.frames, "ffmpeg decoded \(decoded.count / 2) frames")
            var theirs: Float = 0
            for i in 0..<min(decoded.count / 2, Self.frames) {
                theirs = max(theirs, abs(decoded[2 * i] - source.floatChannelData![0][i]), abs(decoded[2 * i + 1] - source.floatChannelData![1][i]))
            }
            #expect(theirs <= max(c.tolerance, 1e-6), "ffmpeg's decode differs by \(theirs)")
        } else {
            // ffmpeg keeps the encoder's priming; the length is the source's plus at most two packets.
            #expect(decoded.count / 2 >= Self.frames && decoded.count / 2 <= Self.frames + 2048 + 1024)
        }
    }

    @Test func readsInterleavedInt16() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avfile-int16-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = Self.source()
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: Self.rate,
                                                                   AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16])
            try file.write(from: source)
        }
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        #expect(file.processingFormat.commonFormat == .pcmFormatInt16 && file.processingFormat.isInterleaved)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 1000)!
        file.framePosition = 500
        try file.read(into: buffer)
        #expect(buffer.frameLength == 1000 && file.framePosition == 1500)
        let samples = buffer.int16ChannelData![0]
        for i in 0..<1000 {
            #expect(samples[2 * i] == Int16(source.floatChannelData![0][500 + i] * 32768))
            #expect(samples[2 * i + 1] == Int16(source.floatChannelData![1][500 + i] * 32768))
        }
        file.framePosition = file.length
        try file.read(into: buffer)
        #expect(buffer.frameLength == 0, "reading at the end gives an empty buffer")
    }

    @Test func missingFileThrowsAppleCode() {
        let url = URL(fileURLWithPath: "/nonexistent/\(getpid()).wav")
        #expect(throws: NSError.self) { try AVAudioFile(forReading: url) }
        do {
            _ = try AVAudioFile(forReading: url)
        } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain)
            #expect(error.code == Int(kAudioFileFileNotFoundError) || error.code == -43)
        } catch {}
    }

    @Test func converterMatchesAudioConverter() throws {
        let from = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let to = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        let source = Self.source()
        let converter = try #require(AVAudioConverter(from: from, to: to))
        converter.sampleRateConverterQuality = AVAudioQuality.max.rawValue
        var given = false
        var ours: [Float] = []
        let out = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 4096)!
        while true {
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { _, outStatus in
                if given { outStatus.pointee = .endOfStream; return nil }
                given = true
                outStatus.pointee = .haveData
                return source
            }
            #expect(status != .error, "\(String(describing: error))")
            ours += UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength))
            if status == .endOfStream || status == .error { break }
        }
        #expect(abs(ours.count - 48000) <= 1, "\(ours.count) frames")

        // AudioConverter directly, same formats and quality.
        var inFormat = from.streamDescription.pointee, outFormat = to.streamDescription.pointee
        var ref: AudioConverterRef?
        #expect(AudioConverterNew(&inFormat, &outFormat, &ref) == noErr)
        var quality = UInt32(kAudioConverterQuality_Max)
        AudioConverterSetProperty(ref!, kAudioConverterSampleRateConverterQuality, 4, &quality)
        final class Feed { var given = false; let buffer: AVAudioPCMBuffer; init(_ b: AVAudioPCMBuffer) { buffer = b } }
        let feed = Feed(source)
        var theirs: [Float] = []
        while true {
            var packets: UInt32 = 4096
            out.frameLength = 4096
            let status = AudioConverterFillComplexBuffer(ref!, { _, ioPackets, ioData, _, user in
                let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
                if feed.given { ioPackets.pointee = 0; return noErr }
                feed.given = true
                let list = UnsafeMutableAudioBufferListPointer(ioData), source = UnsafeMutableAudioBufferListPointer(feed.buffer.mutableAudioBufferList)
                for i in 0..<list.count { list[i] = source[i] }
                ioPackets.pointee = feed.buffer.frameLength
                return noErr
            }, Unmanaged.passUnretained(feed).toOpaque(), &packets, out.mutableAudioBufferList, nil)
            #expect(status == noErr)
            theirs += UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(packets))
            if packets == 0 { break }
        }
        AudioConverterDispose(ref!)
        #expect(ours == theirs)
    }
}
