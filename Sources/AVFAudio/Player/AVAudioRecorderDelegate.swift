import Foundation

/// What an AVAudioRecorder tells its delegate. Apple's protocol has optional Objective-C methods; here every
/// method has a default that does nothing. The recorder calls these on its own serial dispatch queue.
public protocol AVAudioRecorderDelegate: AnyObject {
    /// A recording ended: stop() was called or recordForDuration's length was reached (`flag` true), or encoding
    /// or writing failed (`flag` false).
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)

    /// Encoding or writing the file failed; the recording stops.
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?)
}

extension AVAudioRecorderDelegate {
    /// Does nothing.
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}

    /// Does nothing.
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) {}
}
