import Foundation

extension AVAudioSession {
    /// An output override for overrideOutputAudioPort(_:).
    public enum PortOverride: UInt, Sendable {
        /// No override: the category's own route.
        case none = 0
        /// The built-in speaker ('spkr').
        case speaker = 1936747378
    }
}
