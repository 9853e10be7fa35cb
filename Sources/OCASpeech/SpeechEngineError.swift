/// Errors thrown by ``SpeechEngine``.
public enum SpeechEngineError: Error, Equatable, Sendable {
    /// espeak-ng could not be initialised (library present but its data, e.g.
    /// `espeak-ng-data`, missing or unreadable). The message is espeak-ng's own.
    case initializationFailed(String)
    /// No espeak-ng voice matches the requested name, identifier or language.
    case voiceNotFound(String)
    /// `espeak_Synth` reported an error (the raw `espeak_ERROR` value).
    case synthesisFailed(Int32)
    /// The selected voice produces audio at a rate other than ``SpeechEngine/sampleRate``
    /// (only MBROLA voices do; they are not supported).
    case unsupportedSampleRate(Int)
    /// A chunk consumer called back into the engine while its own utterance was
    /// being synthesised (the engine's lock is held then; waiting would deadlock).
    case reentrantCall
}
