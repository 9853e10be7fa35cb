import Foundation

/// The PulseAudio server the device tests play to and record from (scripts/pulse-server.sh starts it):
/// null sinks "out" (default output) and "mic" (its monitor is the default input). Helpers run the
/// server's own tools: parec to hear what was played, pacat to play into the "mic".
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

    /// Makes sure the server runs and the defaults are the null sinks (the tests' routing).
    public static func prepare() -> Bool {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/pulse-server.sh").path
        // Not through `run`: the daemon the script may start must not hold a pipe of ours open.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return false }
        run(["pactl", "set-default-sink", "out"])
        run(["pactl", "set-default-source", "mic.monitor"])
        return true
    }

    /// The server's default sink and source, if a server runs.
    public static func defaults() -> (sink: String, source: String)? {
        let sink = run(["pactl", "get-default-sink"]), source = run(["pactl", "get-default-source"])
        guard sink.0 == 0, source.0 == 0 else { return nil }
        func text(_ d: Data) -> String { String(decoding: d, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        return (text(sink.1), text(source.1))
    }

    public static func restore(_ saved: (sink: String, source: String)) {
        run(["pactl", "set-default-sink", saved.sink])
        run(["pactl", "set-default-source", saved.source])
    }

    /// A running capture of a sink's monitor (Float32 stereo at 44.1 kHz), written by parec to a file.
    public final class Capture: @unchecked Sendable {
        let process = Process()
        let file: URL

        public init(sink: String = "out") throws {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("oca-capture-\(UUID().uuidString).raw")
            FileManager.default.createFile(atPath: file.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["parec", "-d", "\(sink).monitor", "--format=float32le", "--rate=44100", "--channels=2",
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
    public static func startPlaying(_ interleaved: [Float], sink: String = "mic") throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pacat", "-d", sink, "--format=float32le", "--rate=44100", "--channels=2", "--raw", "--latency-msec=20"]
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = interleaved.withUnsafeBytes { Data($0) }
        let handle = pipe.fileHandleForWriting
        Thread.detachNewThread { try? handle.write(contentsOf: data); try? handle.close() }
        return process
    }

    /// Stops a player started by `startPlaying` now and waits for it (pacat ignores SIGTERM as spawned here,
    /// and one left playing bleeds into the next test's recording).
    public static func stop(_ player: Process) {
        // The thread still feeding it must get EPIPE, not the process-killing SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        if player.isRunning { kill(player.processIdentifier, SIGKILL) }
        player.waitUntilExit()
    }

    /// Plays Float32 stereo samples into a sink (blocking until queued).
    public static func play(_ interleaved: [Float], sink: String = "mic") {
        let data = interleaved.withUnsafeBytes { Data($0) }
        run(["pacat", "-d", sink, "--format=float32le", "--rate=44100", "--channels=2", "--raw"], input: data)
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

    /// The largest run of near-silent samples between `start` and `end` (a dropout shows as a gap).
    public static func longestGap(_ x: ArraySlice<Float>, threshold: Float = 1e-4) -> Int {
        var longest = 0, run = 0
        for v in x { if abs(v) < threshold { run += 1; longest = max(longest, run) } else { run = 0 } }
        return longest
    }
}

