import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Announces an enabled session over DNS-SD (Bonjour: `_apple-midi._udp` at its control port, under its network
/// name) through avahi's `avahi-publish` tool, kept running while the session is enabled, so that a Mac's Audio
/// MIDI Setup lists the session in its directory. Nothing is announced where the tool is not installed (it
/// also needs a running avahi daemon); peers then connect by address and port.
final class RTPMIDIBonjourAdvertiser {
    /// The tool, looked up on PATH once (tests point it at a stand-in).
    nonisolated(unsafe) static var toolPath: String? = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/avahi-publish" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private let process = Process()

    /// Starts announcing `name` at `port`; nil when the tool is missing or does not start.
    init?(name: String, port: UInt16) {
        guard let tool = Self.toolPath else { return nil }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-s", name, MIDINetworkBonjourServiceType, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
    }

    /// Whether the announcement is still up.
    var isRunning: Bool { process.isRunning }

    /// Withdraws the announcement: ends the tool (the avahi daemon drops the services of a client that goes).
    /// SIGKILL, because a child started from a libdispatch worker thread inherits its blocked signals,
    /// SIGTERM among them.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
