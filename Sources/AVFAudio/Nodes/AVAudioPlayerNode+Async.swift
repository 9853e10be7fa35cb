// The async forms Swift gives Apple's completion-handler scheduling methods (AVAudioPlayerNode.h, imported
// with async variants): each schedules as its completion-handler twin does and returns when that handler
// would have been called. As on Apple's platforms, in an async context a call without a completion
// handler resolves to these, so `await player.scheduleBuffer(buffer, at: nil, options: .loops)` waits
// for a looping buffer forever.
import Foundation

extension AVAudioPlayerNode {
    /// Schedules `buffer` after what is scheduled; returns when its data has been consumed.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduleBuffer(buffer, completionHandler: { continuation.resume() })
        }
    }

    /// Schedules `buffer` after what is scheduled; returns at the stage `callbackType` names, with that type.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer,
                               completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType) async
        -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { continuation in
            scheduleBuffer(buffer, completionCallbackType: callbackType, completionHandler: { continuation.resume(returning: $0) })
        }
    }

    /// Schedules `buffer` at player time `when` with `options`; returns when its data has been consumed.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = []) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduleBuffer(buffer, at: when, options: options, completionHandler: { continuation.resume() })
        }
    }

    /// Schedules `buffer` at player time `when` with `options`; returns at the stage `callbackType` names.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
                               completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType) async
        -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { continuation in
            scheduleBuffer(buffer, at: when, options: options, completionCallbackType: callbackType,
                           completionHandler: { continuation.resume(returning: $0) })
        }
    }

    /// Schedules all of `file` at player time `when`; returns when its data has been consumed.
    public func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduleFile(file, at: when, completionHandler: { continuation.resume() })
        }
    }

    /// Schedules all of `file` at player time `when`; returns at the stage `callbackType` names, with that type.
    public func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?,
                             completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType) async
        -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { continuation in
            scheduleFile(file, at: when, completionCallbackType: callbackType, completionHandler: { continuation.resume(returning: $0) })
        }
    }

    /// Schedules `numberFrames` frames of `file` from `startFrame` at player time `when`; returns when they have been consumed.
    public func scheduleSegment(_ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
                                at when: AVAudioTime?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduleSegment(file, startingFrame: startFrame, frameCount: numberFrames, at: when, completionHandler: { continuation.resume() })
        }
    }

    /// Schedules a segment of `file` at player time `when`; returns at the stage `callbackType` names, with that type.
    public func scheduleSegment(_ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
                                at when: AVAudioTime?,
                                completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType) async
        -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { continuation in
            scheduleSegment(file, startingFrame: startFrame, frameCount: numberFrames, at: when, completionCallbackType: callbackType,
                            completionHandler: { continuation.resume(returning: $0) })
        }
    }
}
