import Foundation

extension AVAudioSession {
    /// A specialisation of the category (AVAudioSessionMode), with Apple's strings. On Linux a mode is stored
    /// and reported; it engages no signal processing (VoiceProcessingIO does that for an application that asks).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        /// Apple's string for the mode.
        public let rawValue: String
        /// The mode with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The mode with this string.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// No specialisation.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Two-way voice communication (VoIP).
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// Voice chat for Game Center.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// Recording video.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Measurement: the least processing of input and output.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Playing movies.
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        /// Two-way video conferencing.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        /// Continuous spoken audio (podcasts, audio books).
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// Short spoken prompts (navigation).
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }
}
