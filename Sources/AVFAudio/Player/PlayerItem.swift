import Foundation

/// One scheduled buffer or file segment of a player, with where it starts and what to call when it is done.
final class PlayerItem: @unchecked Sendable {
    let buffer: AVAudioPCMBuffer?
    let stream: FileSegmentStream?
    /// Player time of the first frame; nil: right after the previous item.
    let when: Double?
    let options: AVAudioPlayerNodeBufferOptions
    let callbackType: AVAudioPlayerNodeCompletionCallbackType
    let completion: AVAudioPlayerNodeCompletionHandler?
    let frames: Int
    /// Render thread state: frames played in the current pass, and whether playing began.
    var position = 0
    var started = false
    /// Set (under the schedule's lock) by an interruptsAtLoop item: end after the current pass.
    var endLoop = false

    init(buffer: AVAudioPCMBuffer?, stream: FileSegmentStream?, when: Double?, options: AVAudioPlayerNodeBufferOptions,
         callbackType: AVAudioPlayerNodeCompletionCallbackType, completion: AVAudioPlayerNodeCompletionHandler?) {
        self.buffer = buffer
        self.stream = stream
        self.when = when
        self.options = options
        self.callbackType = callbackType
        self.completion = completion
        frames = stream?.frames ?? Int(buffer?.frameLength ?? 0)
    }
}
