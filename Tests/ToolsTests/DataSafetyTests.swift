import AudioToolbox
import Foundation
import Testing

/// Nothing lost, nothing crashes: hostile files through afinfo and afconvert, outputs that must not
/// destroy their input or an existing file, and writers stopped by signals or killed outright.
@Suite struct DataSafetyTests {
    // MARK: Hostile files

    /// A CAF file of 16-bit big-endian mono: `rate`, an optional packet table, and a data chunk whose
    /// size field is `dataSize` (nil: the true size).
    static func caf(rate: Double, frames: Int = 1000, dataSize: Int64? = nil, pakt: (Int64, Int32, Int32)? = nil) -> Data {
        var d = Data()
        func be<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.bigEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("caff".utf8)); be(UInt16(1)); be(UInt16(0))
        d.append(contentsOf: Array("desc".utf8)); be(Int64(32))
        be(rate.bitPattern); be(kAudioFormatLinearPCM); be(UInt32(0)); be(UInt32(2)); be(UInt32(1)); be(UInt32(1)); be(UInt32(16))
        if let (valid, priming, remainder) = pakt {
            d.append(contentsOf: Array("pakt".utf8)); be(Int64(24)); be(Int64(0)); be(valid); be(priming); be(remainder)
        }
        d.append(contentsOf: Array("data".utf8)); be(dataSize ?? Int64(frames * 2 + 4)); be(UInt32(0))
        for i in 0..<frames { be(Int16(truncatingIfNeeded: i * 37)) }
        return d
    }

    static func write(_ data: Data, _ ext: String) throws -> URL {
        let url = Fixture.tempURL(ext)
        try data.write(to: url)
        return url
    }

    /// The hostile files of issue 12: each goes through afinfo and afconvert without a trap, a hang or a
    /// runaway allocation; a file that cannot be converted gets Apple's code for the reason.
    @Test(arguments: [
        ("data size 0x7FFFFFFFFFFFFFFF", caf(rate: 44100, dataSize: .max), nil as String?),
        ("pakt counts that overflow", caf(rate: 44100, pakt: (0x7FFF_FFFF_FFFF_FFF0, .max, .max)), nil),
        ("1e-30 Hz", caf(rate: 1e-30), "'!isr'"),
        ("0.01 Hz", caf(rate: 0.01), "'!isr'"),
        ("1 Hz to 48 kHz", caf(rate: 1, frames: 8000), "'!isr'"),
        ("1 MHz to 48 kHz", caf(rate: 1_000_000, frames: 8000), nil),
        ("3 MHz to 48 kHz is a 62.5:1 ratio", caf(rate: 3_000_000, frames: 8000), nil),
    ])
    func hostileFilesGetCleanAnswers(_ name: String, _ bytes: Data, _ convertError: String?) throws {
        let file = try Self.write(bytes, "caf")
        let out = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(at: out) }
        let info = try Tools.run("afinfo", [file.path])
        #expect(info.status == 0, "\(name): afinfo \(info.status): \(info.stderr)")
        let start = Date()
        let convert = try Tools.run("afconvert", ["-d", "LEF32@48000", "-c", "1", file.path, out.path])
        #expect(Date().timeIntervalSince(start) < 20, "\(name): afconvert took too long")
        if let convertError {
            #expect(convert.status == 1, "\(name): \(convert.stderr)")
            #expect(convert.stderr.contains(convertError), "\(name): \(convert.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(name): a failed conversion left its output")
        } else {
            #expect(convert.status == 0, "\(name): \(convert.stderr)")
        }
    }

    /// A data size past the end reads as "to the end of the file", as Apple's parser does: every frame is there.
    @Test func cafDataSizePastTheEndReadsToTheEnd() throws {
        let file = try Self.write(Self.caf(rate: 44100, frames: 1000, dataSize: .max), "caf")
        defer { try? FileManager.default.removeItem(at: file) }
        var id: AudioFileID?
        try #require(AudioFileOpenURL(file as CFURL, .readPermission, 0, &id) == noErr)
        var packets: UInt64 = 0
        var size = UInt32(8)
        #expect(AudioFileGetProperty(id!, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 1000)
        AudioFileClose(id!)
    }

    /// ExtAudioFile refuses a client rate more than 256 times the file's with Apple's code instead of
    /// allocating for it; a ratio inside the bound still converts.
    @Test func extAudioFileRefusesAnUnboundedRatio() throws {
        let file = try Self.write(Self.caf(rate: 100, frames: 100), "caf")
        defer { try? FileManager.default.removeItem(at: file) }
        var ext: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(file as CFURL, &ext) == noErr)
        defer { ExtAudioFileDispose(ext!) }
        func client(_ rate: Double) -> AudioStreamBasicDescription {
            AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                        mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
                                        mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        }
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var tooFar = client(48000)
        #expect(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat, size, &tooFar) == kAudioConverterErr_InputSampleRateOutOfRange)
        var inside = client(25600)
        #expect(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat, size, &inside) == noErr)
        var frames: Int64 = 0
        var fsize = UInt32(8)
        #expect(ExtAudioFileGetProperty(ext!, kExtAudioFileProperty_FileLengthFrames, &fsize, &frames) == noErr)
        #expect(frames == 25600)
    }

    // MARK: Outputs never destroy

    /// `afconvert a.wav b.wav` with b.wav a hard link (or a symlink) to a.wav: refused, input intact.
    @Test func outputThatIsTheInputThroughAnotherNameIsRefused() throws {
        let input = Fixture.tempURL("wav")
        try Fixture.writeWAV(input)
        let hard = Fixture.tempURL("wav"), soft = Fixture.tempURL("wav")
        defer { for u in [input, hard, soft] { try? FileManager.default.removeItem(at: u) } }
        try FileManager.default.linkItem(at: input, to: hard)
        try FileManager.default.createSymbolicLink(at: soft, withDestinationURL: input)
        let before = try Data(contentsOf: input)
        for other in [hard, soft] {
            let r = try Tools.run("afconvert", ["-d", "LEI24", input.path, other.path])
            #expect(r.status == 1)
            #expect(r.stderr.contains("would replace the input file"), "\(r.stderr)")
            #expect(try Data(contentsOf: input) == before, "the input changed")
        }
    }

    /// A conversion that fails leaves an existing output file as it was; one that succeeds replaces it
    /// (keeping its permissions) and leaves no file of its own beside it.
    @Test func existingOutputIsReplacedOnlyOnSuccess() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav"), output = dir.appendingPathComponent("out.wav")
        let hostile = dir.appendingPathComponent("one-hertz.caf")
        try Fixture.writeWAV(input)
        try Self.caf(rate: 1, frames: 100).write(to: hostile)
        try Data("precious".utf8).write(to: output)
        chmod(output.path, 0o640)

        let failed = try Tools.run("afconvert", ["-d", "LEF32@48000", hostile.path, output.path])
        #expect(failed.status == 1)
        #expect(try Data(contentsOf: output) == Data("precious".utf8), "a failed conversion destroyed the existing file")

        let ok = try Tools.run("afconvert", ["-d", "LEI24", input.path, output.path])
        #expect(ok.status == 0, "\(ok.stderr)")
        let (format, samples) = try Fixture.readFloat(output)
        #expect(format.mBitsPerChannel == 24)
        #expect(samples.count == 2 * 44100)
        var st = stat()
        stat(output.path, &st)
        #expect(st.st_mode & 0o777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["in.wav", "one-hertz.caf", "out.wav"])
    }

    /// A WAVE or AIFF output that would pass 4 GiB is refused before any work, naming RF64. The input
    /// is a sparse CAF of 2.5 GB (its data size -1: to the end of the file), so nothing is read or written.
    @Test func wavePast4GiBIsRefusedBeforeTheWork() throws {
        let input = Fixture.tempURL("caf"), output = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: output) }
        try Self.caf(rate: 8000, frames: 0, dataSize: -1).write(to: input)
        let handle = try FileHandle(forWritingTo: input)
        try handle.truncate(atOffset: 2_500_000_000)
        try handle.close()
        let start = Date()
        let r = try Tools.run("afconvert", ["-d", "LEF32", input.path, output.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("RF64"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let aiff = try Tools.run("afconvert", ["-f", "AIFF", "-d", "BEI32", input.path, output.path])
        #expect(aiff.status == 1 && aiff.stderr.contains("4 GiB"), "\(aiff.stderr)")
        // The size is counted at the output rate: 1.25 G frames of 16-bit mono are 2.5 GB, at 16 kHz 5 GB.
        let doubled = try Tools.run("afconvert", ["-d", "LEI16@16000", input.path, output.path])
        #expect(doubled.status == 1 && doubled.stderr.contains("4.66 GiB"), "\(doubled.stderr)")
    }

    // MARK: Interrupted and killed writers

    /// A 30 s stereo input that takes afconvert a few seconds to bring to 96 kHz Float32.
    static func longInput() throws -> URL {
        let url = Fixture.tempURL("wav")
        try Fixture.writeWAV(url, frames: 30 * 44100)
        return url
    }

    /// What afinfo and ffprobe say of a WAVE file: the data bytes its header declares, and where they start.
    static func declared(_ url: URL) throws -> (bytes: Int64, offset: Int64, ffprobeSamples: Int64) {
        let info = try Tools.run("afinfo", [url.path])
        try #require(info.status == 0, "afinfo: \(info.stderr)")
        func field(_ prefix: String) -> Int64? {
            info.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int64($0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)) }
        }
        let probe = try Tools.run(executable: "/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a:0",
                                                                    "-show_entries", "stream=duration_ts", "-of", "csv=p=0", url.path])
        try #require(probe.status == 0, "ffprobe: \(probe.stderr)")
        // ffprobe says N/A for a stream with no packet (a writer killed before its first audio).
        let probed = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (try #require(field("audio bytes:")), try #require(field("audio data file offset:")),
                probed == "N/A" ? 0 : Int64(probed) ?? -1)
    }

    /// SIGINT, SIGTERM and SIGHUP stop afconvert between chunks with the file finished: the header
    /// counts every byte written, afinfo and ffprobe agree, the exit status is 128 + the signal.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalledConversionFinishesItsFile(_ sig: Int32) throws {
        let input = try Self.longInput(), output = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: output) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Tools.path("afconvert"))
        p.arguments = ["-d", "LEF32@96000", input.path, output.path]
        p.standardError = FileHandle.nullDevice
        try p.run()
        while (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0 < 1_000_000 { usleep(5000) }
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 128 + sig)
        let size = Int64(try #require(FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int))
        let (bytes, offset, samples) = try Self.declared(output)
        #expect(bytes == size - offset, "the header does not cover what was written")
        #expect(bytes > 0 && bytes % 8 == 0)
        #expect(samples == bytes / 8, "ffprobe reads \(samples) frames of \(bytes / 8)")
    }

    /// kill -9 at 20 random moments: the output always opens in afinfo and ffprobe, its header covers all
    /// but at most the last second of audio written (the patch interval) plus the write that crossed it (a kill
    /// between that write and its header patch; afconvert writes at most 8,192 frames at a time), and the input
    /// is intact.
    @Test func killedConversionLeavesAReadableFile() throws {
        let input = try Self.longInput()
        defer { try? FileManager.default.removeItem(at: input) }
        let before = try Data(contentsOf: input)
        let secondOfOutput: Int64 = 96000 * 8, oneWrite: Int64 = 8192 * 8
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let output = Fixture.tempURL("wav")
            defer { try? FileManager.default.removeItem(at: output) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try Tools.path("afconvert"))
            p.arguments = ["-d", "LEF32@96000", input.path, output.path]
            try p.run()
            usleep(UInt32.random(in: 50_000...1_500_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            guard FileManager.default.fileExists(atPath: output.path) else { continue }  // killed before it created the file
            let size = Int64(try #require(FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int))
            let (bytes, offset, samples) = try Self.declared(output)
            let written = max(0, size - offset)
            #expect(bytes <= written && written - bytes <= secondOfOutput + oneWrite, "round \(round): header says \(bytes) of \(written) bytes")
            // ffprobe reads a WAVE data size of 0 (the file's first second) as "to the end".
            #expect(samples >= bytes / 8 && samples <= written / 8, "round \(round): ffprobe reads \(samples) frames of \(bytes / 8)")
        }
        #expect(try Data(contentsOf: input) == before)
    }

    /// A full disk says so, with the system's words, and the tool removes the file it made: run in a
    /// private mount namespace (unshare, no privileges needed) with a 256 KiB tmpfs as the output folder.
    @Test func fullDiskIsReportedAsSuch() throws {
        let input = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: input) }
        try Fixture.writeWAV(input)
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("oca-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let script = "mount -t tmpfs -o size=256k tmpfs '\(mountPoint.path)' && '\(try Tools.path("afconvert"))' -d LEF32 '\(input.path)' "
            + "'\(mountPoint.path)/out.wav'; s=$?; ls -A '\(mountPoint.path)'; exit $s"
        let r = try Tools.run(executable: "/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
        #expect(r.status == 1)
        #expect(r.stderr.contains("-34 (disk full: No space left on device)"), "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "left behind: \(r.stdout)")
    }
}
