import Foundation

extension AVAudioSession {
    /// Variations of a category (AVAudioSessionCategoryOptions), with Apple's bit values. Each option is accepted
    /// only with the categories Apple allows it with; on Linux they are stored and reported.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Mix with other applications' audio (playback, playAndRecord, multiRoute).
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other applications' audio while active (ambient, playback, playAndRecord, multiRoute).
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Bluetooth hands-free devices may be inputs (record, playAndRecord).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Play to the speaker rather than the receiver (playAndRecord).
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// Interrupt spoken-audio sessions and mix with the rest (playback, playAndRecord, multiRoute).
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// Bluetooth A2DP devices may be outputs (playAndRecord).
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// AirPlay devices may be outputs (playAndRecord).
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        /// Keep running when the built-in microphone is muted in hardware (record, playAndRecord).
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }
}
