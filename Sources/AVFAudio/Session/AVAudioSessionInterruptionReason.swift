import Foundation

extension AVAudioSession {
    /// Why the session was interrupted (AVAudioSessionInterruptionReasonKey).
    public enum InterruptionReason: UInt, Sendable {
        /// Another session was activated.
        case `default` = 0
        /// The application was suspended (no longer reported by Apple).
        case appWasSuspended = 1
        /// The built-in microphone was muted.
        case builtInMicMuted = 2
        /// The route was disconnected.
        case routeDisconnected = 4
    }
}
