import Foundation

extension AVAudioSession {
    /// Whether input and output share one I/O callback (setAggregatedIOPreference).
    public enum IOType: UInt, Sendable {
        /// No preference.
        case notSpecified = 0
        /// Input and output in the same callback.
        case aggregated = 1
    }
}
