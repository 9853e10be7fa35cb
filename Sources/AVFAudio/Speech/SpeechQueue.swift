import AudioToolbox
import Foundation
import OCASpeech
import Synchronization

/// An output audio queue playing a SpeechStream (22,050 Hz mono Float32) on the default device: three buffers of
/// 2,048 frames refilled on the queue's thread; when the stream has ended and is played out the queue stops itself.
final class SpeechQueue: @unchecked Sendable {
    private var queue: AudioQueueRef?
    private let stream: SpeechStream
    private var buffers: [AudioQueueBufferRef] = []
    private var readOffset = 0  // the queue's thread only (and start(), before the queue runs)
    private let stopIssued = Atomic<Bool>(false)
    private var primed = false
    static let bufferFrames = 2048

    init?(stream: SpeechStream) {
        self.stream = stream
        var format = AudioStreamBasicDescription(mSampleRate: SpeechEngine.sampleRate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
                                                 mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&format, Self.callback, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &made) == noErr,
              let made else { return nil }
        queue = made
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            guard AudioQueueAllocateBuffer(made, UInt32(Self.bufferFrames * 4), &buffer) == noErr, let buffer else { return nil }
            buffers.append(buffer)
        }
    }

    private static let callback: AudioQueueOutputCallback = { user, _, buffer in
        Unmanaged<SpeechQueue>.fromOpaque(user!).takeUnretainedValue().refill(buffer)
    }

    /// Fills `buffer` from the stream and enqueues it; at the stream's end, stops the queue once what is enqueued has
    /// played. While synthesis lags, a short silence keeps the queue going.
    private func refill(_ buffer: AudioQueueBufferRef) {
        guard let queue, !stopIssued.load(ordering: .relaxed) else { return }
        let data = buffer.pointee.mAudioData.assumingMemoryBound(to: Float.self)
        let (n, ended) = stream.read(into: data, from: readOffset, count: Self.bufferFrames)
        readOffset += n
        if n > 0 {
            buffer.pointee.mAudioDataByteSize = UInt32(n * 4)
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        } else if ended {
            if !stopIssued.exchange(true, ordering: .relaxed) { AudioQueueStop(queue, false) }
        } else {
            data.update(repeating: 0, count: 256)
            buffer.pointee.mAudioDataByteSize = 256 * 4
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        }
    }

    /// Starts (or resumes) playing; false if the queue would not start.
    func start() -> Bool {
        guard let queue else { return false }
        if !primed {
            primed = true
            for buffer in buffers { refill(buffer) }
        }
        return AudioQueueStart(queue, nil) == noErr
    }

    func pause() {
        if let queue { AudioQueuePause(queue) }
    }

    /// Stops at once.
    func stop() {
        guard let queue else { return }
        stopIssued.store(true, ordering: .relaxed)
        AudioQueueStop(queue, true)
    }

    /// The frames heard so far (the queue's sample time).
    func framesPlayed() -> Int {
        guard let queue else { return 0 }
        var time = AudioTimeStamp()
        guard AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr, time.mFlags.contains(.sampleTimeValid) else { return 0 }
        return Int(time.mSampleTime)
    }

    /// Whether the stream has been played to its end and the queue has stopped.
    var hasEnded: Bool {
        guard let queue, stopIssued.load(ordering: .relaxed) else { return false }
        var running: UInt32 = 1
        var size: UInt32 = 4
        guard AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size) == noErr else { return true }
        return running == 0
    }

    func dispose() {
        if let queue { AudioQueueDispose(queue, true) }
        queue = nil
    }
}
