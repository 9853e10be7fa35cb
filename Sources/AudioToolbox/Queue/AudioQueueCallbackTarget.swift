import Foundation

/// Where a queue's callbacks run: its own thread, a client's run loop (delivered only while that thread
/// runs the loop in the given mode), or a dispatch queue.
enum AudioQueueCallbackTarget {
    case queueThread
    case runLoop(CFRunLoop, mode: String)
    case dispatchQueue(DispatchQueue)
}

/// The client's callback, in one of the four shapes AudioQueue.h offers.
enum AudioQueueCallback {
    case output(AudioQueueOutputCallback, UnsafeMutableRawPointer?)
    case input(AudioQueueInputCallback, UnsafeMutableRawPointer?)
    case outputBlock((AudioQueueRef, AudioQueueBufferRef) -> Void)
    case inputBlock((AudioQueueRef, AudioQueueBufferRef, UnsafePointer<AudioTimeStamp>, UInt32,
                     UnsafePointer<AudioStreamPacketDescription>?) -> Void)

    /// Calls the client for one finished buffer.
    func call(_ queue: AudioQueueRef, _ completion: AudioQueueCompletion) {
        var time = completion.startTime
        let buffer = completion.buffer
        switch self {
        case .output(let proc, let user): proc(user, queue, buffer)
        case .outputBlock(let block): block(queue, buffer)
        case .input(let proc, let user):
            proc(user, queue, buffer, &time, buffer.pointee.mPacketDescriptionCount,
                 buffer.pointee.mPacketDescriptionCount > 0 ? UnsafePointer(buffer.pointee.mPacketDescriptions) : nil)
        case .inputBlock(let block):
            withUnsafePointer(to: &time) { t in
                block(queue, buffer, t, buffer.pointee.mPacketDescriptionCount,
                      buffer.pointee.mPacketDescriptionCount > 0 ? UnsafePointer(buffer.pointee.mPacketDescriptions) : nil)
            }
        }
    }
}
