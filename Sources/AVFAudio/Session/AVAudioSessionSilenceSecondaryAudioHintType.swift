import Foundation

extension AVAudioSession {
    /// Whether other audio asks secondary audio to be silenced (AVAudioSessionSilenceSecondaryAudioHintTypeKey).
    public enum SilenceSecondaryAudioHintType: UInt, Sendable {
        /// Secondary audio should be silenced.
        case begin = 1
        /// Secondary audio may play again.
        case end = 0
    }
}
