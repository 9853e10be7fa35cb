import AudioToolbox
#if canImport(Glibc)
import Glibc
#endif

/// The input callback: the queue's filled buffer goes into the capture ring, then back to the queue.
private let alCaptureInput: AudioQueueInputCallback = { userData, queue, buffer, _, _, _ in
    guard let userData else { return }
    let capture = Unmanaged<ALCapture>.fromOpaque(userData).takeUnretainedValue()
    capture.store(buffer.pointee.mAudioData.assumingMemoryBound(to: Float.self), samples: Int(buffer.pointee.mAudioDataByteSize) / 4)
    if capture.running { _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
}

/// ALC_EXT_CAPTURE's device: an AudioQueue recording Float32 at the requested rate and channel count into a
/// ring of `bufferSize` frames (the oldest frames are dropped when it overflows), converted to the requested
/// format by alcCaptureSamples.
final class ALCapture: @unchecked Sendable {
    let channels: Int
    let bits: Int
    let capacity: Int
    private let ring: UnsafeMutablePointer<Float>
    private var head = 0
    private var count = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var queue: AudioQueueRef?
    private var isRunning = false
    /// Whether recording is on (read by the queue's thread, set by ALC calls: under the ring's mutex).
    var running: Bool {
        get { pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }; return isRunning }
        set { pthread_mutex_lock(mutex); isRunning = newValue; pthread_mutex_unlock(mutex) }
    }

    /// Nil if the format is not a capture format or the queue cannot be made.
    init?(frequency: Int, format: ALCenum, bufferSize: Int) {
        guard let (channels, bits) = ALBuffer.layout(format), frequency > 0, bufferSize > 0 else { return nil }
        self.channels = channels
        self.bits = bits
        capacity = bufferSize * channels
        ring = .allocate(capacity: capacity)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var asbd = AudioStreamBasicDescription(mSampleRate: Double(frequency), mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: UInt32(4 * channels),
                                               mFramesPerPacket: 1, mBytesPerFrame: UInt32(4 * channels), mChannelsPerFrame: UInt32(channels),
                                               mBitsPerChannel: 32, mReserved: 0)
        var q: AudioQueueRef?
        guard AudioQueueNewInput(&asbd, alCaptureInput, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &q) == noErr, let q else {
            return nil
        }
        queue = q
        // Three buffers of 20 ms each.
        let bytes = UInt32(max(frequency / 50, 64) * 4 * channels)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            if AudioQueueAllocateBuffer(q, bytes, &buffer) == noErr, let buffer { _ = AudioQueueEnqueueBuffer(q, buffer, 0, nil) }
        }
    }

    deinit {
        close()
        ring.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Starts recording.
    func start() {
        guard let queue, !running else { return }
        running = true
        if AudioQueueStart(queue, nil) != noErr { running = false }
    }

    /// Stops recording (what was captured stays readable).
    func stop() {
        guard let queue, running else { return }
        running = false
        _ = AudioQueueStop(queue, true)
    }

    /// Stops and disposes the queue.
    func close() {
        stop()
        if let queue { _ = AudioQueueDispose(queue, true) }
        queue = nil
    }

    /// Frames ready to read.
    var available: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return count / channels
    }

    /// Appends recorded samples (from the queue's thread), dropping the oldest on overflow.
    func store(_ samples: UnsafePointer<Float>, samples n: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        for i in 0..<n {
            ring[(head + count) % capacity] = samples[i]
            if count == capacity { head = (head + 1) % capacity } else { count += 1 }
        }
    }

    /// Takes `frames` frames out in the capture format; false if fewer are available.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let n = frames * channels
        guard n <= count else { return false }
        for i in 0..<n {
            let x = ring[(head + i) % capacity], c = max(-1, min(1, x))
            switch bits {
            case 8: buffer.storeBytes(of: UInt8(c * 127 + 128), toByteOffset: i, as: UInt8.self)
            case 16: buffer.storeBytes(of: Int16(c * 32767), toByteOffset: 2 * i, as: Int16.self)
            default: buffer.storeBytes(of: x, toByteOffset: 4 * i, as: Float.self)
            }
        }
        head = (head + n) % capacity
        count -= n
        return true
    }
}
