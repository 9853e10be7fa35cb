import Foundation

/// AudioQueueSetOfflineRenderFormat / AudioQueueOfflineRender: an output queue rendered into buffers
/// instead of a device. Finished buffers go back to the client inside OfflineRender, on its thread, so
/// a client that refills from its callback (as Apple's AQOfflineRenderTest does) never starves.
extension AudioQueueObject {
    /// Enters offline mode with `format` (interleaved linear PCM), or leaves it with nil.
    func setOfflineRenderFormat(_ format: AudioStreamBasicDescription?, layout: [UInt8]) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard !disposed else { return kAudioQueueErr_DisposalPending }
        guard direction == .output else { return kAudioQueueErr_InvalidQueueType }
        guard runState == .stopped else { return kAudioQueueErr_InvalidRunState }
        if let c = offlineConverter { AudioConverterDispose(c) }
        offlineConverter = nil
        offlineFormat = nil
        guard var out = format else { return noErr }
        guard let pcmOut = PCMFormat(out), pcmOut.isInterleaved || pcmOut.channels == 1 else { return kAudioFormatUnsupportedDataFormatError }
        var source = floatFormat.description
        var made: AudioConverterRef?
        let status = AudioConverterNew(&source, &out, &made)
        guard status == noErr, let made else { return status == noErr ? kAudioFormatUnsupportedDataFormatError : status }
        offlineConverter = made
        offlineFormat = out
        if !layout.isEmpty { channelLayout = layout }
        return noErr
    }

    /// Renders up to `frames` frames in the offline format into `buffer`; fewer once a Stop(false) has
    /// played everything out (then the queue stops and IsRunning changes).
    func offlineRender(_ buffer: AudioQueueBufferRef, frames: UInt32) -> OSStatus {
        lock.lock()
        guard !disposed else { lock.unlock(); return kAudioQueueErr_DisposalPending }
        guard let converter = offlineConverter, let out = offlineFormat else { lock.unlock(); return kAudioQueueErr_InvalidOfflineMode }
        guard buffers[UnsafeMutableRawPointer(buffer)] != nil else { lock.unlock(); return kAudioQueueErr_InvalidBuffer }
        let running = runState == .running
        lock.unlock()
        let bytes = UInt64(frames) * UInt64(out.mBytesPerFrame)
        guard bytes <= UInt64(buffer.pointee.mAudioDataBytesCapacity) else { return kAudioQueueErr_InvalidBuffer }
        buffer.pointee.mAudioDataByteSize = 0
        guard frames > 0, running, !lastSliceEnded else { return noErr }
        var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: out.mChannelsPerFrame,
                                                                              mDataByteSize: UInt32(bytes), mData: buffer.pointee.mAudioData))
        var produced = frames
        let status = AudioConverterFillComplexBuffer(converter, Self.offlinePull, Unmanaged.passUnretained(self).toOpaque(), &produced, &list, nil)
        buffer.pointee.mAudioDataByteSize = produced * out.mBytesPerFrame
        publishMeters()
        return status
    }

    /// The offline converter's input: the queue's audio, rendered on the caller's thread.
    static let offlinePull: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, user in
        let q = Unmanaged<AudioQueueObject>.fromOpaque(user!).takeUnretainedValue()
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        guard !q.lastSliceEnded else {
            ioPackets.pointee = 0
            return noErr
        }
        let n = min(Int(ioPackets.pointee), maximumFramesPerSlice)
        q.pointAtScratch(list, frames: n)
        let played = q.render(frames: n, into: list, inline: true)
        let frames = q.lastSliceEnded ? played : n
        for c in 0..<list.count { list[c].mDataByteSize = UInt32(frames * 4) }
        ioPackets.pointee = UInt32(frames)
        return noErr
    }
}
