import Foundation

/// The private PulseAudio server the device tests play to and record from (scripts/pulse-server.sh): its
/// own runtime directory and socket, reached through PULSE_SERVER, so a server the user runs is never
/// stopped, restarted or reconfigured. scripts/test.sh starts one and exports PULSE_SERVER; a test process
/// started without it (plain `swift test`) starts its own and stops it when it exits. Null sinks "out"
/// (default output) and "mic" (its monitor is the default input). Helpers run the server's own tools:
/// parec to hear what was played, pacat to play into the "mic".
public enum PulseTestServer {
    public static let rate = 44100.0

    /// Runs a command, returning its exit status and standard output.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil) -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let inPipe = Pipe()
        if input != nil { process.standardInput = inPipe }
        do { try process.run() } catch { return (-1, Data()) }
        if let input { inPipe.fileHandleForWriting.write(input); try? inPipe.fileHandleForWriting.close() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// The private server's directory: the one PULSE_SERVER names (unix:DIR/native) when a script started
    /// it, else a new one this process owns (PULSE_SERVER is set to it before any client connects, and the
    /// server is stopped when the process exits).
    public static let directory: String = {
        if let server = ProcessInfo.processInfo.environment["PULSE_SERVER"], server.hasPrefix("unix:"), server.hasSuffix("/native") {
            return String(server.dropFirst("unix:".count).dropLast("/native".count))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-pulse-\(getpid())").path
        setenv("PULSE_SERVER", "unix:\(dir)/native", 1)
        ownDirectory = dir
        atexit { PulseTestServer.stopOwnServer() }
        return dir
    }()

    nonisolated(unsafe) private static var ownDirectory: String?

    /// Stops the server this process started itself (at exit): its keeper streams and the daemon, by pid.
    static func stopOwnServer() {
        guard let dir = ownDirectory else { return }
        for file in ["keepers", "server.pid"] {
            let pids = (try? String(contentsOfFile: dir + "/" + file, encoding: .utf8)) ?? ""
            for line in pids.split(separator: "\n") { if let pid = Int32(line) { kill(pid, SIGTERM) } }
        }
    }

    /// The tests' own players and recorders stand in for a microphone and an ear: they run at real-time
    /// priority (below the server's), as the device threads under test do, so that a loaded machine cannot
    /// starve them and put gaps into what the code under test hears (root only; else as they are).
    static let realtime: [String] = geteuid() == 0 ? ["chrt", "-f", "10"] : []

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/pulse-server.sh").path

    /// Makes sure the private server runs (starting it again after a test stopped it) with its sinks and
    /// the tests' routing.
    public static func prepare() -> Bool {
        // Not through `run`: the daemon the script may start must not hold a pipe of ours open.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "start", directory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Stops the private server (and only it): for tests of a server that goes away.
    public static func stopServer() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "stop", directory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
    }

    /// A running capture of a sink's monitor (Float32 stereo at 44.1 kHz), written by parec to a file.
    public final class Capture: @unchecked Sendable {
        let process = Process()
        let file: URL

        public init(sink: String = "out") throws {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("oca-capture-\(UUID().uuidString).raw")
            FileManager.default.createFile(atPath: file.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = PulseTestServer.realtime + ["parec", "-d", "\(sink).monitor", "--format=float32le", "--rate=44100", "--channels=2",
                                 "--latency-msec=20", "--raw"]
            process.standardOutput = try FileHandle(forWritingTo: file)
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Stops and returns what was heard, per channel (the last second may be missing: parec is killed).
        public func finish() -> [[Float]] {
            // parec ignores SIGINT/SIGTERM as spawned here: let it write out what it holds, then kill it.
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: file) }
            let all = (try? Data(contentsOf: file)) ?? Data()
            let floats = all.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            return [stride(from: 0, to: floats.count - 1, by: 2).map { floats[$0] },
                    stride(from: 1, to: floats.count, by: 2).map { floats[$0] }]
        }
    }

    /// A sine as interleaved stereo Float32 at 44.1 kHz (both channels equal), for playing into a sink.
    public static func stereoSine(_ frequency: Double, seconds: Double, amplitude: Float) -> [Float] {
        (0..<Int(seconds * rate)).flatMap { n -> [Float] in
            let v = amplitude * Float(sin(2 * Double.pi * frequency * Double(n) / rate))
            return [v, v]
        }
    }

    /// Starts playing Float32 stereo samples into a sink; returns the player (wait for it or kill it).
    /// pacat reads them from a file, not a pipe: no thread of ours has to keep it fed on a loaded machine. Its
    /// stream asks for 100 ms of latency: with 20 ms, a loaded machine underran it now and then, and the sink played
    /// silence into the middle of the tone.
    public static func startPlaying(_ interleaved: [Float], sink: String = "mic") throws -> Process {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oca-play-\(UUID().uuidString).raw")
        try interleaved.withUnsafeBytes { Data($0) }.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = realtime + ["pacat", "-d", sink, "--format=float32le", "--rate=44100", "--channels=2", "--raw",
                                        "--latency-msec=100", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // The file goes once pacat has it open (or at once, if it could not start).
        process.terminationHandler = { _ in try? FileManager.default.removeItem(at: file) }
        do { try process.run() } catch { try? FileManager.default.removeItem(at: file); throw error }
        return process
    }

    /// Stops a player started by `startPlaying` now and waits for it (pacat ignores SIGTERM as spawned here,
    /// and one left playing bleeds into the next test's recording).
    public static func stop(_ player: Process) {
        if player.isRunning { kill(player.processIdentifier, SIGKILL) }
        player.waitUntilExit()
    }

    /// Plays Float32 stereo samples into a sink (blocking until queued).
    public static func play(_ interleaved: [Float], sink: String = "mic") {
        let data = interleaved.withUnsafeBytes { Data($0) }
        run(realtime + ["pacat", "-d", sink, "--format=float32le", "--rate=44100", "--channels=2", "--raw"], input: data)
    }
}

/// Tone analysis for captured audio.
public enum ToneAnalysis {
    /// Amplitude and phase of frequency `f` in `x` by correlation over whole periods.
    public static func fit(_ x: ArraySlice<Float>, frequency f: Double, rate: Double) -> (amplitude: Double, phase: Double) {
        let count = Int((Double(x.count) * f / rate).rounded(.down) * rate / f)
        var s = 0.0, c = 0.0
        var k = 0
        for v in x.prefix(count) {
            let w = 2 * Double.pi * f * Double(k) / rate
            s += Double(v) * sin(w); c += Double(v) * cos(w)
            k += 1
        }
        return (2 * (s * s + c * c).squareRoot() / Double(max(count, 1)), atan2(c, s))
    }

    /// The index of the first sample whose magnitude exceeds `threshold`.
    public static func onset(_ x: [Float], threshold: Float = 0.01) -> Int? { x.firstIndex { abs($0) > threshold } }

    /// Peak magnitudes of consecutive `window`-sample blocks, two decimals each: the shape of a recording, for a
    /// failure message.
    public static func envelope(_ x: some Collection<Float>, window: Int = 2205) -> String {
        var peaks: [String] = [], peak: Float = 0, n = 0
        for v in x {
            peak = max(peak, abs(v)); n += 1
            if n == window { peaks.append(String(format: "%.2f", peak)); peak = 0; n = 0 }
        }
        return peaks.joined(separator: " ")
    }

    /// Copies a recording that failed its checks to /tmp/oca-failed-recordings (CI's machine keeps it for a look
    /// afterwards) and answers where.
    public static func keep(_ url: URL) -> String {
        let dir = URL(fileURLWithPath: "/tmp/oca-failed-recordings")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let copy = dir.appendingPathComponent("\(UUID().uuidString)-\(url.lastPathComponent)")
        return (try? FileManager.default.copyItem(at: url, to: copy)) != nil ? copy.path : "(not kept)"
    }

    /// The largest run of near-silent samples between `start` and `end` (a dropout shows as a gap).
    public static func longestGap(_ x: ArraySlice<Float>, threshold: Float = 1e-4) -> Int {
        var longest = 0, run = 0
        for v in x { if abs(v) < threshold { run += 1; longest = max(longest, run) } else { run = 0 } }
        return longest
    }
}

