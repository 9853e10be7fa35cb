import Foundation

extension AVAudioSession {
    /// Options that come with the end of an interruption (AVAudioSessionInterruptionOptionKey).
    public struct InterruptionOptions: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The application may resume playing.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }
}
