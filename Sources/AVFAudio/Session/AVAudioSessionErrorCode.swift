import Foundation

extension AVAudioSession {
    /// The codes of the NSOSStatusErrorDomain errors the session throws (AVAudioSessionErrorCode).
    public enum ErrorCode: Int, Sendable {
        /// No error.
        case none = 0
        /// The media server failed ('msrv').
        case mediaServicesFailed = 1836282486
        /// The session could not be deactivated while I/O runs ('!act').
        case isBusy = 560030580
        /// The category does not allow the operation ('!cat').
        case incompatibleCategory = 560161140
        /// A mixable session cannot interrupt others ('!int').
        case cannotInterruptOthers = 560557684
        /// An entitlement is missing ('ent?').
        case missingEntitlement = 1701737535
        /// Siri is recording ('siri').
        case siriIsRecording = 1936290409
        /// Playback could not start ('!pla').
        case cannotStartPlaying = 561015905
        /// Recording could not start ('!rec').
        case cannotStartRecording = 561145187
        /// An argument was invalid (-50).
        case badParam = -50
        /// Another session has priority ('!pri').
        case insufficientPriority = 561017449
        /// The hardware is not available ('!res').
        case resourceNotAvailable = 561145203
        /// Something else failed ('what').
        case unspecified = 2003329396
        /// The session expired ('!ses').
        case expiredSession = 561210739
        /// The session is not active ('inac').
        case sessionNotActive = 1768841571
    }
}
