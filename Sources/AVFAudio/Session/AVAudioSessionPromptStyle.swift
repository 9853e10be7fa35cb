import Foundation

extension AVAudioSession {
    /// What kind of voice prompt suits the moment.
    public enum PromptStyle: UInt, Sendable {
        /// No prompts ('none').
        case none = 1852796517
        /// Short, non-verbal prompts ('shrt').
        case short = 1936224884
        /// Normal prompts ('nrml').
        case normal = 1852992876
    }
}
