import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

enum FileSupport {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("oca-\(UUID().uuidString).\(ext)")
    }

    /// Runs a tool and returns (exit status, stdout+stderr).
    @discardableResult
    static func run(_ tool: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var sox: String? { OutsideToolTests.sox() }

    /// sox's reading of a file as interleaved signed 32-bit integers (full scale 2^31).
    static func soxSamples(_ url: URL) throws -> [Int32] {
        let raw = tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, out) = try run(try #require(sox), [url.path, "-t", "raw", "-e", "signed-integer", "-b", "32", "-L", raw.path])
        try #require(status == 0, "sox failed: \(out)")
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
    }

    /// `v` as `n` big-endian bytes, for writing container bytes by hand.
    static func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }

    static func createFile(_ url: URL, _ type: AudioFileTypeID, _ format: AudioStreamBasicDescription) throws -> AudioFileID {
        var f = format
        var id: AudioFileID?
        let status = AudioFileCreateWithURL(url as CFURL, type, &f, .eraseFile, &id)
        try #require(status == noErr, "create: \(status)")
        return try #require(id)
    }
}

@Suite struct AudioFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: AudioFileTypeID, ext: String, bits: UInt32, float: Bool, bigEndian: Bool
        var testDescription: String { "\(ext) \(float ? "float" : "int")\(bits)\(bigEndian ? "BE" : "LE")" }
        var format: AudioStreamBasicDescription {
            OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: bits, isFloat: float, isSignedInteger: bits > 8 || type != kAudioFileWAVEType,
                                interleaved: true, bigEndian: bigEndian)
        }
    }

    static let cases: [Case] = [
        Case(type: kAudioFileWAVEType, ext: "wav", bits: 8, float: false, bigEndian: false),
        Case(type: kAudioFileWAVEType, ext: "wav", bits: 16, float: false, bigEndian: false),
        Case(type: kAudioFileWAVEType, ext: "wav", bits: 24, float: false, bigEndian: false),
        Case(type: kAudioFileWAVEType, ext: "wav", bits: 32, float: false, bigEndian: false),
        Case(type: kAudioFileWAVEType, ext: "wav", bits: 32, float: true, bigEndian: false),
        Case(type: kAudioFileAIFFType, ext: "aiff", bits: 16, float: false, bigEndian: true),
        Case(type: kAudioFileAIFFType, ext: "aiff", bits: 24, float: false, bigEndian: true),
        Case(type: kAudioFileAIFCType, ext: "aifc", bits: 16, float: false, bigEndian: false),
        Case(type: kAudioFileAIFCType, ext: "aifc", bits: 32, float: true, bigEndian: true),
        Case(type: kAudioFileCAFType, ext: "caf", bits: 16, float: false, bigEndian: true),
        Case(type: kAudioFileCAFType, ext: "caf", bits: 24, float: false, bigEndian: false),
        Case(type: kAudioFileCAFType, ext: "caf", bits: 32, float: true, bigEndian: false),
    ]

    /// Writes a stereo ramp with AudioFileWritePackets, reads it back with AudioFileReadPacketData and
    /// checks that sox reads the same samples.
    @Test(arguments: cases)
    func writeReadAndSoxAgrees(_ c: Case) throws {
        let url = FileSupport.tempURL(c.ext)
        defer { try? FileManager.default.removeItem(at: url) }
        let format = c.format
        let frames = 1000
        // Source values on every layout's grid: k / 128 (exact in 8-bit and wider).
        let values: [Double] = (0..<frames * 2).map { Double(($0 * 37) % 255 - 127) / 128 }
        var inF = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 64, isFloat: true, interleaved: true)
        var outF = format
        var conv: AudioConverterRef?
        try #require(AudioConverterNew(&inF, &outF, &conv) == noErr)
        var bytes = [UInt8](repeating: 0, count: frames * Int(format.mBytesPerFrame))
        var size = UInt32(bytes.count)
        try #require(AudioConverterConvertBuffer(conv!, UInt32(values.count * 8), values, &size, &bytes) == noErr)
        AudioConverterDispose(conv!)

        let file = try FileSupport.createFile(url, c.type, format)
        var packets = UInt32(frames)
        #expect(AudioFileWritePackets(file, false, UInt32(bytes.count), nil, 0, &packets, bytes) == noErr)
        #expect(AudioFileClose(file) == noErr)

        var id: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &id) == noErr)
        let f = try #require(id)
        defer { AudioFileClose(f) }
        var type: AudioFileTypeID = 0
        var psize: UInt32 = 4
        AudioFileGetProperty(f, kAudioFilePropertyFileFormat, &psize, &type)
        #expect(type == c.type)
        var count: UInt64 = 0
        psize = 8
        AudioFileGetProperty(f, kAudioFilePropertyAudioDataPacketCount, &psize, &count)
        #expect(count == UInt64(frames))
        var back = [UInt8](repeating: 0, count: bytes.count)
        var numBytes = UInt32(back.count), numPackets = UInt32(frames)
        #expect(AudioFileReadPacketData(f, false, &numBytes, nil, 0, &numPackets, &back) == noErr)
        #expect(numPackets == UInt32(frames))
        #expect(back == bytes)

        // sox reads float CAF through libsndfile, which rescales float data by a factor that depends on
        // the content (checked by hand: our file holds -127/128, sox reports -0.99997; sox's own float
        // CAF reads back the same way). Float is cross-checked through WAVE and AIFC instead.
        if FileSupport.sox != nil && !(c.type == kAudioFileCAFType && c.float) {
            let sox = try FileSupport.soxSamples(url)
            #expect(sox.count == values.count)
            let expected = values.map { Int32(clamping: Int64(($0 * 2_147_483_648).rounded())) }
            let differing = zip(sox, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) samples differ from what sox reads")
        }
    }

    @Test(arguments: [("wav", ["-b", "16"]), ("wav", ["-b", "24"]), ("wav", ["-b", "8"]), ("wav", ["-e", "floating-point", "-b", "32"]),
                      ("aiff", ["-b", "16"]), ("aifc", ["-b", "16"]), ("caf", ["-b", "16"]), ("wav", ["-b", "32", "-c", "4"])])
    func readsWhatSoxWrites(_ spec: (String, [String])) throws {
        let sox = try #require(FileSupport.sox, "sox is missing: run scripts/setup.sh")
        let url = FileSupport.tempURL(spec.0)
        defer { try? FileManager.default.removeItem(at: url) }
        let channels = spec.1.contains("-c") ? spec.1[spec.1.firstIndex(of: "-c")! + 1] : "2"
        let (status, out) = try FileSupport.run(sox, ["-n", "-r", "22050", "-c", channels] + spec.1.filter { $0 != "-c" && $0 != channels }
                                                 + [url.path, "synth", "0.1", "sine", "440", "vol", "0.5"])
        try #require(status == 0, "sox: \(out)")
        let expected = try FileSupport.soxSamples(url)
        let x = try readAll(url)
        #expect(x.count == expected.count)
        // Our decode of the same file, as Int32 full scale, equals sox's (sox left-justifies every depth).
        let differing = zip(x, expected).filter { abs(Int64($0) - Int64($1)) > 1 }.count
        #expect(differing == 0, "\(differing) samples differ")
    }

    /// Reads a whole file through ExtAudioFile as interleaved Int32.
    func readAll(_ url: URL) throws -> [Int32] {
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        var client = OCAFormat.linearPCM(sampleRate: fileFormat.mSampleRate, channels: fileFormat.mChannelsPerFrame, bitsPerChannel: 32,
                                         isFloat: false, interleaved: true)
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, size, &client) == noErr)
        return try ExtFileIO.readToEnd(x!, channels: Int(client.mChannelsPerFrame), chunk: 512)
    }

    @Test func hostileFilesFailCleanly() throws {
        let valid = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: valid) }
        let file = try FileSupport.createFile(valid, kAudioFileWAVEType,
                                              OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true))
        var packets: UInt32 = 100
        let samples = [Int16](repeating: 1000, count: 100)
        AudioFileWritePackets(file, false, 200, nil, 0, &packets, samples)
        AudioFileClose(file)
        let good = try Data(contentsOf: valid)
        var variants: [(String, Data)] = []
        for cut in [0, 4, 11, 12, 20, 36, 43, 44, 100] { variants.append(("truncated at \(cut)", good.prefix(cut))) }
        var lying = good
        lying.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0x7F])  // data size far past the end
        variants.append(("lying data size", lying))
        var zeroChannels = good
        zeroChannels.replaceSubrange(22..<24, with: [0, 0])
        variants.append(("zero channels", zeroChannels))
        var absurdRate = good
        absurdRate.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0xFF])
        variants.append(("absurd rate", absurdRate))
        var hugeFmt = good
        hugeFmt.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0xFF])
        variants.append(("huge fmt chunk", hugeFmt))
        // Found by the fuzzer: a CAF description whose bytes per packet overflowed a multiplication.
        var cafDesc = Data("caff".utf8) + Data([0, 1, 0, 0]) + Data("desc".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 32])
        cafDesc += Data([0x40, 0xE5, 0x88, 0x80, 0, 0, 0, 0]) + Data("lpcm".utf8) + Data([0, 0, 0, 0])
        cafDesc += Data([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 16])
        variants.append(("CAF with an overflowing packet size", cafDesc + Data("data".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 8]) + Data(count: 8)))
        variants.append(("CAF with garbage", Data("caff".utf8) + Data([0, 1, 0, 0]) + Data(repeating: 0xFF, count: 64)))
        variants.append(("AIFF with garbage", Data("FORM".utf8) + Data([0, 0, 0, 40]) + Data("AIFF".utf8) + Data(repeating: 0xEE, count: 40)))
        for (name, bytes) in variants {
            let url = FileSupport.tempURL("wav")
            defer { try? FileManager.default.removeItem(at: url) }
            try bytes.write(to: url)
            var id: AudioFileID?
            let status = AudioFileOpenURL(url as CFURL, .readPermission, 0, &id)
            // Files cut inside the audio (or lying about its size) stay readable: the data is clamped to
            // whole frames the file really holds.
            let readable: [String: UInt64] = ["lying data size": 100, "truncated at 44": 0, "truncated at 100": 28]
            if let frames = readable[name] {
                #expect(status == noErr, "\(name)")
                var count: UInt64 = 0
                var size: UInt32 = 8
                AudioFileGetProperty(id!, kAudioFilePropertyAudioDataPacketCount, &size, &count)
                #expect(count == frames, "\(name)")
                AudioFileClose(id!)
            } else {
                #expect(status != noErr && id == nil, "\(name) opened")
            }
        }
    }

    @Test func bookChapter3FormatTablesAreApples() throws {
        func table(_ type: AudioFileTypeID) -> [String] {
            var spec = AudioFileTypeAndFormatID(mFileType: type, mFormatID: kAudioFormatLinearPCM)
            var size: UInt32 = 0
            AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat,
                                       UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size), &spec, &size)
            let count = Int(size) / MemoryLayout<AudioStreamBasicDescription>.size
            var list = [AudioStreamBasicDescription](repeating: AudioStreamBasicDescription(), count: count)
            AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat,
                                   UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size), &spec, &size, &list)
            return list.enumerated().map { i, f in
                "\(i): mFormatId: \(OCAFormat.string(fromFourCharCode: f.mFormatID).dropFirst().dropLast()), mFormatFlags: \(f.mFormatFlags), mBitsPerChannel: \(f.mBitsPerChannel)"
            }
        }
        // The book's chapter 3 output, verbatim.
        #expect(table(kAudioFileAIFFType) == [
            "0: mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: 8", "1: mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: 16",
            "2: mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: 24", "3: mFormatId: lpcm, mFormatFlags: 14, mBitsPerChannel: 32"])
        #expect(table(kAudioFileWAVEType) == [
            "0: mFormatId: lpcm, mFormatFlags: 8, mBitsPerChannel: 8", "1: mFormatId: lpcm, mFormatFlags: 12, mBitsPerChannel: 16",
            "2: mFormatId: lpcm, mFormatFlags: 12, mBitsPerChannel: 24", "3: mFormatId: lpcm, mFormatFlags: 12, mBitsPerChannel: 32",
            "4: mFormatId: lpcm, mFormatFlags: 9, mBitsPerChannel: 32", "5: mFormatId: lpcm, mFormatFlags: 9, mBitsPerChannel: 64"])
        #expect(table(kAudioFileCAFType).count == 11)
        #expect(table(kAudioFileCAFType)[4] == "4: mFormatId: lpcm, mFormatFlags: 11, mBitsPerChannel: 32")
        // AAC in CAF (this test binary links the AudioToolboxAAC product, as the tools do).
        var spec = AudioFileTypeAndFormatID(mFileType: kAudioFileCAFType, mFormatID: kAudioFormatMPEG4AAC)
        var size: UInt32 = 0
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat,
                                           UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size), &spec, &size) == noErr)
        #expect(size >= UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        spec.mFormatID = 0x7A7A_7A7A
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat,
                                           UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size), &spec, &size) == kAudioFileUnsupportedDataFormatError)
    }

    @Test func extAudioFileConvertsOnWriteAndResamplesOnRead() throws {
        let url = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var fileFormat = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true, bigEndian: true)
        var x: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, asbdSize, &client) == noErr)
        let frames = 44100
        var left = (0..<frames).map { Float32(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 44100)) }
        var right = left.map { -$0 }
        left.withUnsafeMutableBytes { l in
            right.withUnsafeMutableBytes { r in
                let list = AudioBufferList.allocate(maximumBuffers: 2)
                defer { free(list.unsafeMutablePointer) }
                var done = 0
                while done < frames {
                    let n = min(1000, frames - done)
                    list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: l.baseAddress! + done * 4)
                    list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: r.baseAddress! + done * 4)
                    #expect(ExtAudioFileWrite(x!, UInt32(n), list.unsafePointer) == noErr)
                    done += n
                }
            }
        }
        var length: Int64 = 0
        var size: UInt32 = 8
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        #expect(length == Int64(frames))
        #expect(ExtAudioFileDispose(x!) == noErr)

        // Read back at 48 kHz Float32: N * 48000/44100 frames, and the same 1 kHz sine.
        #expect(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var read48 = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        #expect(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, asbdSize, &read48) == noErr)
        ExtAudioFileGetProperty(x!, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        #expect(length == 48000)
        var all: [Float32] = []
        var buffer = [Float32](repeating: 0, count: 2 * 700)
        while true {
            var n: UInt32 = 700
            let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count),
                                                                                     mData: raw.baseAddress))
                return ExtAudioFileRead(x!, &n, &list)
            }
            #expect(status == noErr)
            if n == 0 { break }
            all += buffer[..<(2 * Int(n))]
        }
        #expect(all.count == 2 * 48000)
        var worst = 0.0
        for k in 500..<47_500 {
            let want = 0.5 * sin(2 * Double.pi * 1000 * Double(k) / 48000)
            worst = max(worst, abs(Double(all[2 * k]) - want), abs(Double(all[2 * k + 1]) + want))
        }
        #expect(worst < 1e-4, "largest deviation \(worst)")  // 16-bit quantisation bounds it near 3e-5
    }
}
