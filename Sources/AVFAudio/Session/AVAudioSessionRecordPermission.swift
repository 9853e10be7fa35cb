import Foundation

extension AVAudioSession {
    /// Whether the application may record (AVAudioSessionRecordPermission). Linux has no such permission: it is always granted.
    public enum RecordPermission: UInt, Sendable {
        /// Not asked yet ('undt').
        case undetermined = 1970168948
        /// Denied ('deny').
        case denied = 1684369017
        /// Granted ('grnt').
        case granted = 1735552628
    }
}
