/// A buffer on its way to the device thread: the byte range to play (output) or fill (input), and the
/// volume a parameter event set for it.
struct AudioQueueEntry: BitwiseCopyable {
    var buffer: AudioQueueBufferRef
    /// Where the bytes are: the buffer's own data, or (compressed queues) its decoded payload.
    var data: UnsafeMutableRawPointer
    /// First byte to play, after the frames trimmed at the start.
    var start: Int
    /// One past the last byte to play, before the frames trimmed at the end.
    var end: Int
    /// Volume from EnqueueBufferWithParameters, or NaN for none.
    var volume: Float
    /// EnqueueBufferWithParameters' start time on the queue's timeline (-1: right after the buffer before).
    var startSample: Int = -1
}

/// A buffer the device thread is done with, back to the callback thread.
struct AudioQueueCompletion: BitwiseCopyable, @unchecked Sendable {
    var buffer: AudioQueueBufferRef
    /// Input queues: the queue time of the buffer's first frame.
    var startTime: AudioTimeStamp
}
