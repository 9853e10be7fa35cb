import Foundation

/// Text to speak, with its voice, rate, pitch, volume and the pauses around it.
open class AVSpeechUtterance: NSObject, @unchecked Sendable {
    /// The text.
    public let speechString: String
    /// The text as an attributed string (attributes are not applied here).
    public let attributedSpeechString: NSAttributedString
    /// The voice; nil speaks the user's current language.
    open var voice: AVSpeechSynthesisVoice?
    /// The speaking rate, AVSpeechUtteranceMinimumSpeechRate (0, about 80 words per minute) to
    /// AVSpeechUtteranceMaximumSpeechRate (1, about 450); the default 0.5 is 175 words per minute.
    open var rate: Float = AVSpeechUtteranceDefaultSpeechRate
    /// The pitch, 0.5 to 2 times the voice's (default 1).
    open var pitchMultiplier: Float = 1
    /// The volume, 0 to 1 (default 1).
    open var volume: Float = 1
    /// Seconds of silence before the utterance.
    open var preUtteranceDelay: TimeInterval = 0
    /// Seconds of silence after the utterance.
    open var postUtteranceDelay: TimeInterval = 0
    /// Whether the system's assistive-technology speech settings override these (there are none here).
    open var prefersAssistiveTechnologySettings = false

    /// An utterance of `string`.
    public init(string: String) {
        speechString = string
        attributedSpeechString = NSAttributedString(string: string)
        super.init()
    }

    /// An utterance of an attributed string's text.
    public init(attributedString string: NSAttributedString) {
        speechString = string.string
        attributedSpeechString = string
        super.init()
    }

    /// The rate in words per minute: 0...0.5 maps to 80...175 and 0.5...1 to 175...450, linearly.
    var wordsPerMinute: Double {
        let r = Double(min(max(rate, AVSpeechUtteranceMinimumSpeechRate), AVSpeechUtteranceMaximumSpeechRate))
        return r <= 0.5 ? 80 + r / 0.5 * 95 : 175 + (r - 0.5) / 0.5 * 275
    }

    /// The voice's baseline pitch times the multiplier (98 Hz is the engine's default voice's baseline).
    var pitchHertz: Double { 98 * Double(min(max(pitchMultiplier, 0.5), 2)) }
}
