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

    /// Starts the server (named `name`, else oca-test-<random>) and waits (up to 10 s) until clients can connect. Throws if jackd is missing: these
    /// tests must fail, not pass, without it.
    init(name fixedName: String? = nil) throws {
        name = fixedName ?? "oca-test-\(UInt32.random(in: 0...UInt32.max))"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let path = Self.which("jackd") else { throw Missing(description: "jackd is missing (package jackd2, scripts/setup.sh)") }
        Self.reclaimStaleTestServers()
        jackd = Self.supervised(path, ["-n", name, "-d", "dummy", "-r", "48000", "-p", "256"], stopSignal: "TERM")
        jackd.environment = Self.environment(server: nil)
        let log = directory.appendingPathComponent("jackd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        jackd.standardOutput = try FileHandle(forWritingTo: log)
        jackd.standardError = jackd.standardOutput
        try jackd.run()
        // jack_wait -w returns once the server takes clients (or after 10 s).
        if try run("jack_wait", ["-s", name, "-w", "-t", "10"]).contains("server is available") { return }
        stop()
        throw Missing(description: "jackd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// A process running `program` under a watchdog shell: terminating the process (SIGTERM to the shell) stops the
    /// program with `stopSignal`, and so does the test process's death (a crash or abort skips every `stop`), so
    /// that no server or tool outlives the tests (a live leftover jackd would hold its registry slot for good).
    static func supervised(_ program: String, _ arguments: [String], stopSignal: String) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // A dead test process may stay a zombie (nobody reaps it in a container), which kill -0 still finds: the
        // watchdog reads its state from /proc instead.
        let script = """
            alive() { s=$(sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -c1); [ -n "$s" ] && [ "$s" != Z ]; }
            "$@" & child=$!
            trap 'kill -\(stopSignal) $child 2>/dev/null; wait $child; exit 0' TERM
            while alive \(getpid()) && alive $child; do sleep 0.2; done
            kill -\(stopSignal) $child 2>/dev/null; wait $child
            """
        p.arguments = ["-c", script, "sh", program] + arguments
        return p
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
        let p = Self.supervised(stdbuf, ["-oL", path] + arguments, stopSignal: "KILL")  // jack_midiseq ignores SIGTERM
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

    /// JACK keeps at most 8 servers in its registry (/dev/shm/jack-shm-registry) and frees a dead server's slot only
    /// when a server of the same name starts: a test server that died without unregistering (killed, crashed) would
    /// hold its slot for good, and with random names 8 of them block every JACK server on the machine. Frees the
    /// slots of our test servers ("oca-test-" names) whose process is gone, as jackd frees a same-named one.
    static func reclaimStaleTestServers() {
        guard let f = FileHandle(forUpdatingAtPath: "/dev/shm/jack-shm-registry") else { return }
        defer { try? f.close() }
        // Header: magic 'JACK', protocol, type, size, header length, entry length; then 8 x {pid_t, char name[260]}.
        guard let header = try? f.read(upToCount: 24), header.count == 24,
              header.withUnsafeBytes({ $0.loadUnaligned(as: UInt32.self) }) == 0x4A41_434B else { return }
        let prefix = "jack-\(getuid()):oca-test-"
        for i in 0..<8 {
            let offset = UInt64(24 + 264 * i)
            guard (try? f.seek(toOffset: offset)) != nil, let entry = try? f.read(upToCount: 264), entry.count == 264 else { return }
            let pid = entry.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            let name = String(decoding: entry.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
            guard pid > 0, name.hasPrefix(prefix), kill(pid_t(pid), 0) != 0 && errno == ESRCH else { continue }
            try? f.seek(toOffset: offset)
            try? f.write(contentsOf: Data(count: 264))
        }
    }

    /// Stops a tool started here: SIGTERM to its watchdog shell (which passes on its stop signal), SIGKILL after
    /// `patience` seconds (jackd gets longer: it unregisters itself on SIGTERM and would leak its registry slot on SIGKILL).
    func stop(_ tool: Process, patience: Double = 1) {
        if tool.isRunning { tool.terminate() }
        let end = Date().addingTimeInterval(patience)
        while tool.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        if tool.isRunning { kill(tool.processIdentifier, SIGKILL) }
        tool.waitUntilExit()
    }

    /// Stops the tools started here, then the server (only these processes).
    func stop() {
        for t in tools { stop(t) }
        tools = []
        stop(jackd, patience: 10)
        try? FileManager.default.removeItem(at: directory)
    }
}
