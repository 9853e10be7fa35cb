import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// afrecord stopped by a signal or killed outright: the file is always readable (by afinfo and ffprobe)
/// and an existing file is never destroyed. Part of the device suite (it records from the test server).
extension PlayRecordToolTests {
    static func startRecording(_ url: URL, _ extra: [String] = []) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Tools.path("afrecord"))
        p.arguments = ["-q"] + extra + [url.path]
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// SIGTERM (`timeout 10 afrecord x.wav`), SIGHUP and SIGINT end a recording with a finished file,
    /// WAVE and AIFF alike, that afinfo and ffprobe read whole.
    @Test(arguments: [(SIGTERM, "wav"), (SIGHUP, "aif"), (SIGINT, "wav")])
    func afrecordFinishesItsFileOnASignal(_ sig: Int32, _ ext: String) throws {
        let output = Fixture.tempURL(ext)
        defer { try? FileManager.default.removeItem(at: output) }
        let p = try Self.startRecording(output)
        // Signalled once a second of audio is in the file (its start-up time varies with the machine's load).
        let deadline = Date(timeIntervalSinceNow: 15)
        while Date() < deadline, (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0 < 44100 * 4 + 4096 {
            usleep(20_000)
        }
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "afrecord: \(p.terminationStatus)")
        let size = Int64(try #require(FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int))
        let (bytes, offset, frames) = try DataSafetyTests.declared(output)
        let bytesPerFrame: Int64 = 4  // 16-bit stereo
        #expect(bytes == size - offset || bytes + 1 == size - offset, "header \(bytes) of \(size - offset) bytes")  // AIFF/WAVE pad byte
        #expect(frames == bytes / bytesPerFrame, "ffprobe reads \(frames) frames")
        #expect(frames >= 44100, "only \(frames) frames after the file held a second")
    }

    /// kill -9 at 20 random moments: the file always opens in afinfo and ffprobe and its header covers all
    /// but at most the last second written (the patch interval).
    @Test func killedRecordingLeavesAReadableFile() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let output = Fixture.tempURL("wav")
            defer { try? FileManager.default.removeItem(at: output) }
            let p = try Self.startRecording(output)
            usleep(UInt32.random(in: 200_000...2_500_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            guard FileManager.default.fileExists(atPath: output.path) else { continue }
            let size = Int64(try #require(FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int))
            let (bytes, offset, frames) = try DataSafetyTests.declared(output)
            let written = max(0, size - offset)
            #expect(bytes <= written && written - bytes <= 44100 * 4, "round \(round): header says \(bytes) of \(written) bytes")
            #expect(frames >= bytes / 4 && frames <= written / 4, "round \(round): ffprobe reads \(frames) frames")
        }
    }

    /// Recording over an existing file: killed, it leaves that file as it was; finished, it replaces it.
    @Test func afrecordReplacesAnExistingFileOnlyWhenFinished() throws {
        let output = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: output) }
        try Data("precious".utf8).write(to: output)
        let killed = try Self.startRecording(output)
        Thread.sleep(forTimeInterval: 1)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(try Data(contentsOf: output) == Data("precious".utf8))
        let dir = output.deletingLastPathComponent().path, name = output.lastPathComponent
        for stray in try FileManager.default.contentsOfDirectory(atPath: dir) where stray.hasPrefix(".\(name).afrecord-") {
            try? FileManager.default.removeItem(atPath: dir + "/" + stray)  // the killed run's own file
        }
        let r = try Tools.run("afrecord", ["-q", "-t", "0.5", output.path])
        #expect(r.status == 0, "\(r.stderr)")
        let (bytes, _, _) = try DataSafetyTests.declared(output)
        #expect(abs(Double(bytes) / 4 - 22050) < 4410, "\(bytes / 4) frames in 0.5 s")
    }
}
