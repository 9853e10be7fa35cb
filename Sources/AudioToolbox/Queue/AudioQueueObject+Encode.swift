import Foundation

/// Compressed input queues: the queue's own PCM buffers cycle through the device thread, and the queue's thread
/// encodes each as it comes back (AudioQueueEncoding lays the packets into the client's buffers).
extension AudioQueueObject {
    /// Start: the queue's PCM buffers go to the device thread (all of them come back at every stop).
    func enqueueInternalBuffers() {
        guard let encoding else { return }
        encoding.makeInternalBuffers(bytesPerFrame: pcm.bytesPerFrame, sampleRate: format.mSampleRate)
        encoding.finished = false
        for b in encoding.internalBuffers { pushInternal(b) }
    }

    /// Hands a PCM buffer to the device thread (caller holds the lock).
    private func pushInternal(_ b: AudioQueueBufferRef) {
        let end = Int(b.pointee.mAudioDataBytesCapacity) / pcm.bytesPerFrame * pcm.bytesPerFrame
        _ = toDevice.push(AudioQueueEntry(buffer: b, data: b.pointee.mAudioData, start: 0, end: end, volume: .nan))
    }

    /// The queue's thread: encodes a recorded PCM buffer, delivers the client buffers it filled and, while the
    /// queue runs, sends the PCM buffer back to the device thread.
    func encodeRecorded(_ buffer: AudioQueueBufferRef, with encoding: AudioQueueEncoding) {
        let frames = Int(buffer.pointee.mAudioDataByteSize) / pcm.bytesPerFrame
        // Under the lock: client threads enqueue into the same buffer list.
        lock.lock()
        let filled = encoding.encode(buffer.pointee.mAudioData, frames: frames)
        if runState == .running && !encoding.finishPending { pushInternal(buffer) }
        lock.unlock()
        for done in filled { deliver(done) }
    }

    /// The queue's thread: after a Stop, once the PCM it returned is encoded, the encoder's last packets and the
    /// client's remaining buffers go back.
    func finishEncodingIfAsked() {
        guard let encoding else { return }
        lock.lock()
        let asked = encoding.finishPending
        lock.unlock()
        guard asked else { return }
        // Stop pushed the returned PCM before raising the flag (under the lock): encode whatever is left of it (the
        // queue is stopped, so the PCM buffers are not sent back to the device).
        while let done = completed.pop() { handleCompletion(done) }
        lock.lock()
        let finishing = encoding.finishPending
        encoding.finishPending = false
        let rest = finishing ? encoding.finish() : []
        lock.unlock()
        for done in rest { deliver(done) }
        lock.lock()
        encoding.finished = true
        lock.unlock()
    }

    /// Stop: asks the queue's thread to finish the encoding; with callbacks on that thread, waits (up to 2 s) until
    /// the last packets have been delivered, so a client that disposes right after Stop has them all.
    func finishEncodingAfterStop() {
        guard let encoding else { return }
        encoding.finishPending = true
        encoding.finished = false
        guard case .queueThread = target else { return }
        lock.unlock()
        poke()
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            lock.lock()
            let done = encoding.finished
            lock.unlock()
            if done { break }
            usleep(1000)
        }
        lock.lock()
    }
}
