import Foundation

extension AVAudioSession {
    /// Whether an interruption (AVAudioSessionInterruptionTypeKey) began or ended. Linux has no session that preempts
    /// another, so no interruption is posted.
    public enum InterruptionType: UInt, Sendable {
        /// The session was interrupted.
        case began = 1
        /// The interruption ended.
        case ended = 0
    }
}
