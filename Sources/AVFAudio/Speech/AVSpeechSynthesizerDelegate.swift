import Foundation

/// What an AVSpeechSynthesizer tells its delegate. Apple's protocol has optional Objective-C methods; here every
/// method has a default that does nothing. The synthesizer calls these on its own serial dispatch queue (not the
/// main thread), in the order the events happen.
public protocol AVSpeechSynthesizerDelegate: AnyObject {
    /// The utterance began (after its pre-utterance delay).
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance)
    /// The utterance was spoken to its end.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance)
    /// Speaking paused.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance)
    /// Speaking resumed after a pause.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance)
    /// The utterance was stopped before its end, or never started because speaking stopped.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance)
    /// The word at `characterRange` (UTF-16 units of the speech string) is about to be heard.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                           utterance: AVSpeechUtterance)
}

extension AVSpeechSynthesizerDelegate {
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                                  utterance: AVSpeechUtterance) {}
}
