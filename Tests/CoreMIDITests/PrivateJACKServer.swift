import Foundation

/// A private JACK server for the JACK MIDI tests (`jackd -n oca-test-<random> -d dummy -r 48000 -p 256`, no audio
/// device reservation): nothing the user runs is touched, and `stop` ends only this jackd and the tools started here.
final class PrivateJACKServer: @unchecked Sendable {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    private let jackd: Process
    private var tools: [Process] = []
    let directory: URL

    /// Starts the server and waits (up to 10 s) until clients can connect. Throws if jackd is missing: these
    /// tests must fail, not pass, without it.
    init() throws {
        name = "oca-test-\(UInt32.random(in: 0...UInt32.max))"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let path = Self.which("jackd") else { throw Missing(description: "jackd is missing (package jackd2, scripts/setup.sh)") }
        jackd = Process()
        jackd.executableURL = URL(fileURLWithPath: path)
        jackd.arguments = ["-n", name, "-d", "dummy", "-r", "48000", "-p", "256"]
        jackd.environment = Self.environment(server: nil)
        let log = directory.appendingPathComponent("jackd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        jackd.standardOutput = try FileHandle(forWritingTo: log)
        jackd.standardError = jackd.standardOutput
        try jackd.run()
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if try run("jack_wait", ["-s", name, "-c"]).split(separator: "\n").contains("running") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw Missing(description: "jackd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// The environment of our processes, JACK_DEFAULT_SERVER pointing at `server`.
    static func environment(server: String?) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["JACK_NO_AUDIO_RESERVATION"] = "1"
        env["JACK_DEFAULT_SERVER"] = server
        return env
    }

    /// The full path of a program on PATH.
    static func which(_ program: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs a JACK tool against this server to completion and returns its output.
    @discardableResult func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let path = Self.which(tool) else { throw Missing(description: "\(tool) is missing (package jackd2)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = Self.environment(server: name)
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts a JACK tool against this server in the background (line-buffered output into `output`, if given).
    @discardableResult func start(_ tool: String, _ arguments: [String], output: URL? = nil) throws -> Process {
        guard let path = Self.which(tool), let stdbuf = Self.which("stdbuf") else { throw Missing(description: "\(tool) or stdbuf is missing") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: stdbuf)
        p.arguments = ["-oL", path] + arguments
        p.environment = Self.environment(server: name)
        if let output {
            FileManager.default.createFile(atPath: output.path, contents: nil)
            p.standardOutput = try FileHandle(forWritingTo: output)
        } else {
            p.standardOutput = FileHandle.nullDevice
        }
        p.standardError = FileHandle.nullDevice
        try p.run()
        tools.append(p)
        return p
    }

    /// Waits until `jack_lsp` lists a port whose name contains `fragment`.
    func waitForPort(_ fragment: String, seconds: Double = 5) throws -> String? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let line = try run("jack_lsp", []).split(separator: "\n").first(where: { $0.contains(fragment) }) { return String(line) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// Stops a tool started here: SIGTERM, then SIGKILL after a second (jack_midiseq ignores SIGTERM).
    func stop(_ tool: Process) {
        if tool.isRunning { tool.terminate() }
        let end = Date().addingTimeInterval(1)
        while tool.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        if tool.isRunning { kill(tool.processIdentifier, SIGKILL) }
        tool.waitUntilExit()
    }

    /// Stops the tools started here, then the server (only these processes).
    func stop() {
        for t in tools { stop(t) }
        tools = []
        stop(jackd)
        try? FileManager.default.removeItem(at: directory)
    }
}
