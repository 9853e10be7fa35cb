import Foundation

/// What an AVAudioPlayer tells its delegate. Apple's protocol has optional Objective-C methods; here every
/// method has a default that does nothing, so a delegate implements only what it needs. The player calls these
/// on its own serial dispatch queue (not the main thread).
public protocol AVAudioPlayerDelegate: AnyObject {
    /// Playback reached the end of the file (and its loops): `flag` is true, or false when it ended because a
    /// packet could not be decoded. Not called after stop() or pause().
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)

    /// A packet could not be read or decoded; playback stops (audioPlayerDidFinishPlaying follows with false).
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
}

extension AVAudioPlayerDelegate {
    /// Does nothing.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}

    /// Does nothing.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
}
