/// Receives a tap's buffers with the time of their first frame (on a service thread, not the render thread).
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void
