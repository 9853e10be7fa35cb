import Foundation

extension AVAudioSession {
    /// Options for setActive(_:options:).
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Tell other sessions they may resume when this one deactivates.
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }
}
