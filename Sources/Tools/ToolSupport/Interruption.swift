// SIGINT, SIGTERM and SIGHUP as a flag the tools poll, so that they finish the file they are writing
// (header sizes up to date) instead of dying with it half written.
import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag. After `install()`, the signals no longer kill the
/// process; the tool checks `isSet` between chunks of work, finishes its file and exits.
public enum Interruption {
    private static let flag = Atomic<Int32>(0)
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Starts catching the signals (call once, before the work).
    public static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { flag.store(sig, ordering: .releasing) }
            source.resume()
            sources.append(source)
        }
    }

    /// True once one of the signals arrived.
    public static var isSet: Bool { flag.load(ordering: .acquiring) != 0 }

    /// The signal that arrived (0: none).
    public static var caught: Int32 { flag.load(ordering: .acquiring) }

    /// The exit status a shell expects after the signal (128 + its number).
    public static var exitStatus: Int32 { 128 + caught }
}
