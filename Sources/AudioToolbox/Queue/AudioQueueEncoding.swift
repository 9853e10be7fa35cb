/// A compressed input queue's encoder side. The device thread records Float32 into the queue's own PCM buffers
/// (the same path as a linear PCM input queue); the queue's thread encodes each one as it comes back and lays the
/// packets, with their descriptions, into the client's enqueued buffers, handing a buffer over when the next packet
/// does not fit (bytes or descriptions). Everything here runs on the queue's thread, or under the queue's lock with
/// the device stopped.
final class AudioQueueEncoding {
    let encoder: PacketEncoder
    /// The queue's own PCM buffers (owned here, never seen by the client).
    private(set) var internalBuffers: [AudioQueueBufferRef] = []
    /// The client's buffers waiting for packets, oldest first.
    var clientBuffers: [AudioQueueBufferRef] = []
    private var current: AudioQueueBufferRef?
    private var currentStart = AudioTimeStamp()
    /// Packets emitted since the run began (their place in the stream gives each buffer's start time).
    private var packetsEmitted = 0
    /// Set by Stop: the queue's thread finishes the encoder once the returned PCM is encoded.
    var finishPending = false
    /// Set when the final packets of a run have been handed over.
    var finished = false

    init(encoder: PacketEncoder) {
        self.encoder = encoder
    }

    deinit {
        for b in internalBuffers {
            b.pointee.mAudioData.deallocate()
            b.deallocate()
        }
    }

    /// The queue's PCM buffers: four of a tenth of a second each, made on first use.
    func makeInternalBuffers(bytesPerFrame: Int, sampleRate: Double) {
        guard internalBuffers.isEmpty else { return }
        let bytes = max(Int(sampleRate / 10), 256) * bytesPerFrame
        for _ in 0..<4 {
            let data = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            let buffer = UnsafeMutablePointer<AudioQueueBuffer>.allocate(capacity: 1)
            buffer.initialize(to: AudioQueueBuffer(mAudioDataBytesCapacity: UInt32(bytes), mAudioData: data, mAudioDataByteSize: 0,
                                                   mUserData: nil, mPacketDescriptionCapacity: 0, mPacketDescriptions: nil,
                                                   mPacketDescriptionCount: 0))
            internalBuffers.append(buffer)
        }
    }

    func isInternal(_ buffer: AudioQueueBufferRef) -> Bool { internalBuffers.contains(buffer) }

    /// Encodes `frames` frames of interleaved Float32; returns the client buffers filled (ready for their callbacks).
    func encode(_ pcm: UnsafeRawPointer, frames: Int) -> [AudioQueueCompletion] {
        var done: [AudioQueueCompletion] = []
        try? encoder.encode(pcm, frames: frames) { packet, _ in place(packet, &done) }
        return done
    }

    /// The input ended: the encoder's last packets, the partly filled buffer, then every other buffer empty.
    func finish() -> [AudioQueueCompletion] {
        var done: [AudioQueueCompletion] = []
        try? encoder.finish { packet, _ in place(packet, &done) }
        if let c = current { done.append(AudioQueueCompletion(buffer: c, startTime: currentStart)); current = nil }
        for b in clientBuffers {
            b.pointee.mAudioDataByteSize = 0
            b.pointee.mPacketDescriptionCount = 0
            done.append(AudioQueueCompletion(buffer: b, startTime: AudioTimeStamp()))
        }
        clientBuffers.removeAll()
        encoder.reset()
        packetsEmitted = 0
        return done
    }

    /// Puts one packet into the current client buffer, handing buffers over as they fill; a packet with no buffer
    /// to go into is dropped (as when a recording client does not keep buffers enqueued).
    private func place(_ packet: UnsafeRawBufferPointer, _ done: inout [AudioQueueCompletion]) {
        defer { packetsEmitted += 1 }
        for _ in 0..<2 {
            if current == nil {
                guard !clientBuffers.isEmpty else { return }
                let b = clientBuffers.removeFirst()
                b.pointee.mAudioDataByteSize = 0
                b.pointee.mPacketDescriptionCount = 0
                current = b
                currentStart = AudioTimeStamp()
                currentStart.mSampleTime = Double(max(packetsEmitted * encoder.framesPerPacket - Int(encoder.primeInfo.leadingFrames), 0))
                currentStart.mFlags = .sampleTimeValid
            }
            let b = current!
            let used = Int(b.pointee.mAudioDataByteSize)
            let fits = used + packet.count <= Int(b.pointee.mAudioDataBytesCapacity)
                && b.pointee.mPacketDescriptionCount < b.pointee.mPacketDescriptionCapacity
            if fits {
                (b.pointee.mAudioData + used).copyMemory(from: packet.baseAddress!, byteCount: packet.count)
                b.pointee.mPacketDescriptions![Int(b.pointee.mPacketDescriptionCount)] =
                    AudioStreamPacketDescription(mStartOffset: Int64(used), mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
                b.pointee.mPacketDescriptionCount += 1
                b.pointee.mAudioDataByteSize = UInt32(used + packet.count)
                return
            }
            // Full: hand it over and try the next buffer (an empty buffer too small for one packet drops it).
            current = nil
            done.append(AudioQueueCompletion(buffer: b, startTime: currentStart))
            if used == 0 { return }
        }
    }
}
