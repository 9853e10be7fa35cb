import Foundation

/// Where stopping or pausing speech takes effect.
public enum AVSpeechBoundary: Int, @unchecked Sendable {
    /// At once.
    case immediate = 0
    /// After the word being spoken.
    case word = 1
}

/// A voice's quality.
public enum AVSpeechSynthesisVoiceQuality: Int, @unchecked Sendable {
    /// The standard voice (every voice here).
    case `default` = 1
    /// An enhanced voice.
    case enhanced = 2
    /// A premium voice.
    case premium = 3
}

/// A voice's gender.
public enum AVSpeechSynthesisVoiceGender: Int, @unchecked Sendable {
    /// Not stated by the voice.
    case unspecified = 0
    /// A male voice.
    case male = 1
    /// A female voice.
    case female = 2
}

/// The slowest speaking rate an utterance takes.
public let AVSpeechUtteranceMinimumSpeechRate: Float = 0
/// The fastest speaking rate an utterance takes.
public let AVSpeechUtteranceMaximumSpeechRate: Float = 1
/// The default speaking rate.
public let AVSpeechUtteranceDefaultSpeechRate: Float = 0.5
/// The identifier of the Alex voice (not installed here: `AVSpeechSynthesisVoice(identifier:)` answers nil).
public let AVSpeechSynthesisVoiceIdentifierAlex = "com.apple.speech.synthesis.voice.Alex"
/// The attributed-string key for a word's IPA pronunciation (not applied here).
public let AVSpeechSynthesisIPANotationAttribute = "com.apple.speech.synthesis.IPANotation"
