import Foundation

extension AVAudioSession {
    /// Options for activating a session (reserved by Apple).
    public struct ActivationOptions: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

    }
}
