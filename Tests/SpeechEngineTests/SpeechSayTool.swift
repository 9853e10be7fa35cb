import Foundation

/// Runs the package's `speech-say` executable, i.e. SpeechEngine in a fresh process.
enum SpeechSayTool {
    enum Failure: Error { case notBuilt(String), exited(Int32, String) }

    /// `speech-say` sits beside the test executable in the build directory.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("speech-say")
    }

    /// `speech-say [arguments…] -o <tmp>.wav text`, read back as a ``RIFFWave``.
    static func wave(text: String, arguments: [String]) throws -> RIFFWave {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure.notBuilt(executable.path)
        }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("speech-say-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["-o", url.path, text]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure.exited(process.terminationStatus, message)
        }
        return try RIFFWave(contentsOf: url)
    }
}
