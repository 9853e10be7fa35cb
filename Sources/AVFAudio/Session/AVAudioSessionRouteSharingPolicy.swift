import Foundation

extension AVAudioSession {
    /// Where the session's output is routed relative to other sessions.
    public enum RouteSharingPolicy: UInt, Sendable {
        /// The normal rules.
        case `default` = 0
        /// The shared long-form audio output (music, podcasts).
        case longFormAudio = 1
        /// Set by the system for route-picker video.
        case independent = 2
        /// The shared long-form video output.
        case longFormVideo = 3

        /// The former name of longFormAudio.
        @available(*, deprecated, renamed: "longFormAudio")
        public static var longForm: RouteSharingPolicy { .longFormAudio }
    }
}
