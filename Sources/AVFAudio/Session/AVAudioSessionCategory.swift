import Foundation

extension AVAudioSession {
    /// What the application does with audio (AVAudioSessionCategory): the raw values are Apple's strings.
    /// On Linux the category decides whether the route has inputs and which category options are allowed.
    public struct Category: RawRepresentable, Hashable, Sendable {
        /// Apple's string for the category.
        public let rawValue: String
        /// The category with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The category with this string.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Sound that mixes with other audio and is not essential.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: sound that is not essential and silences other audio.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Playback that matters to the application (music, speech).
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording only: the route has inputs and no outputs.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Recording and playback at once (VoIP, music apps that monitor input).
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Separate streams to several outputs at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
        /// Offline processing without playing or recording (deprecated by Apple).
        @available(*, deprecated, message: "No longer supported")
        public static let audioProcessing = Category(rawValue: "AVAudioSessionCategoryAudioProcessing")
    }
}
