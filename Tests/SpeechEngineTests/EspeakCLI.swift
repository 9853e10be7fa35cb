import Foundation

/// Runs the `espeak-ng` command-line tool to produce a reference WAV.
enum EspeakCLI {
    enum Failure: Error { case exited(Int32, String) }

    /// `espeak-ng -v voice [extra…] -w <tmp>.wav text`, read back as a ``RIFFWave``.
    static func wave(text: String, voice: String, extraArguments: [String] = []) throws -> RIFFWave {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("speech-engine-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        // Through env so the tool is found wherever PATH puts it; a missing tool fails the test.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-v", voice] + extraArguments + ["-w", url.path, text]
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
