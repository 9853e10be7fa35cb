import Foundation

/// The NSError Apple's AVFAudio throws for an OSStatus: NSOSStatusErrorDomain with the status as its code.
enum AVAudioError {
    /// The error for `status`.
    static func make(_ status: OSStatus) -> NSError { NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }

    /// Throws the error for `status` unless it is noErr.
    static func check(_ status: OSStatus) throws {
        if status != noErr { throw make(status) }
    }
}
