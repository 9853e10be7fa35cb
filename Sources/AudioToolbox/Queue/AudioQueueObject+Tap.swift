import COCASupport
import Foundation

/// Processing taps: making and disposing them (client threads, queue stopped) and running them (device
/// thread: no allocation, lock or system call here; the client's callback has the same duty).
extension AudioQueueObject {
    /// AudioQueueProcessingTapNew: one tap per queue, made while the queue is stopped.
    func makeTap(_ callback: AudioQueueProcessingTapCallback, _ clientData: UnsafeMutableRawPointer?,
                 _ flags: AudioQueueProcessingTapFlags) -> (AudioQueueProcessingTapObject?, OSStatus) {
        lock.lock(); defer { lock.unlock() }
        guard !disposed else { return (nil, kAudioQueueErr_DisposalPending) }
        // Exactly one of PreEffects and PostEffects.
        guard flags.contains(.preEffects) != flags.contains(.postEffects) else { return (nil, kAudio_ParamError) }
        guard tap == nil else { return (nil, kAudioQueueErr_TooManyTaps) }
        guard runState == .stopped else { return (nil, kAudioQueueErr_InvalidRunState) }
        let made = AudioQueueProcessingTapObject(queue: self, callback: callback, clientData: clientData, flags: flags,
                                                 maxFrames: Self.maximumFramesPerSlice)
        _ = made.activate()
        tap = made
        return (made, noErr)
    }

    /// AudioQueueProcessingTapDispose: only while the queue is stopped (a running queue keeps its tap).
    func disposeTap(_ t: AudioQueueProcessingTapObject) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard tap === t else { return kAudioQueueErr_InvalidTapContext }
        guard runState == .stopped else { return kAudioQueueErr_InvalidRunState }
        _ = AudioQueueProcessingTapObject.handles.remove(UnsafeMutableRawPointer(t.ref), as: AudioQueueProcessingTapObject.self)
        tap = nil
        return noErr
    }

    // MARK: Device thread

    /// Asks a non-siphon tap for `frames` frames into `list` from frame `offset`, at most `maxFrames` a call.
    /// Returns the frames produced (a short answer that is not the end counts whole: the queue fills in
    /// silence) and whether the audio ended (the tap returned EndOfStream, or its source ran out and it
    /// produced less).
    func runTap(_ tap: AudioQueueProcessingTapObject, frames: Int, into list: UnsafeMutableAudioBufferListPointer, at offset: Int) -> (Int, Bool) {
        var done = 0
        while done < frames {
            let n = min(tap.maxFrames, frames - done)
            tap.queueSampleTime = Double(sampleTime.load(ordering: .relaxed) + offset + done)
            tap.queueFrameCount = UInt32(n)
            let (produced, flags) = tap.call(frames: n, siphonData: nil, at: 0)
            tap.copyOutput(produced, requested: n, into: list, at: offset + done)
            if flags.contains(.endOfStream) || (tap.sourceEnded && produced < n) {
                for c in 0..<min(list.count, pcm.channels) {
                    if let p = list[c].mData?.assumingMemoryBound(to: Float.self), frames > done + n {
                        oca_memzero(p + offset + done + n, UInt(frames - done - n) * 4)
                    }
                }
                return (done + produced, true)
            }
            done += n
        }
        return (frames, false)
    }

    /// Shows a siphon tap `frames` frames of `list` from frame `offset`, at most `maxFrames` a call.
    func siphon(_ tap: AudioQueueProcessingTapObject, _ list: UnsafeMutableAudioBufferListPointer, frames: Int, at offset: Int) {
        var done = 0
        while done < frames {
            let n = min(tap.maxFrames, frames - done)
            tap.queueSampleTime = Double(sampleTime.load(ordering: .relaxed) + offset + done)
            tap.queueFrameCount = UInt32(n)
            _ = tap.call(frames: n, siphonData: list, at: offset + done)
            done += n
        }
    }

    /// AudioQueueProcessingTapGetSourceAudio, from inside the tap's callback: the queue's audio before the
    /// tap (the decoded source for a pre-effects tap, the source with time-pitch, volume and pan for a
    /// post-effects one, the captured input for an input queue).
    func tapSource(_ tap: AudioQueueProcessingTapObject, frames requested: Int, timeStamp: UnsafeMutablePointer<AudioTimeStamp>,
                   flags: UnsafeMutablePointer<AudioQueueProcessingTapFlags>, outFrames: UnsafeMutablePointer<UInt32>,
                   data: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let list = UnsafeMutableAudioBufferListPointer(data)
        guard list.count >= pcm.channels else { return kAudio_ParamError }
        var f: AudioQueueProcessingTapFlags = []
        if tap.discontinuity { f.insert(.startOfStream) }
        tap.discontinuity = false
        if direction == .input {
            let got = min(requested, tap.inputSourceFrames - tap.inputSourceTaken)
            let source = tap.inputSource!
            for c in 0..<pcm.channels {
                let from = source[c].mData! + tap.inputSourceTaken * 4
                if list[c].mData == nil {
                    list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(got * 4), mData: from)
                } else {
                    list[c].mData!.copyMemory(from: from, byteCount: got * 4)
                    list[c].mDataByteSize = UInt32(got * 4)
                }
            }
            timeStamp.pointee = tap.inputTimeStamp
            timeStamp.pointee.mSampleTime += Double(tap.inputSourceTaken)
            tap.inputSourceTaken += got
            outFrames.pointee = UInt32(got)
            flags.pointee = f
            return noErr
        }
        let frames = min(requested, tap.sourceCapacity)
        if list[0].mData == nil {
            tap.pointAtSource(list, frames: frames)
        } else {
            for c in 0..<pcm.channels where Int(list[c].mDataByteSize) < frames * 4 { list[c].mDataByteSize = UInt32(frames * 4) }
        }
        let (got, ended) = tap.isPostEffects ? effects(frames: frames, into: list) : pullChecked(frames: frames, into: list, at: 0)
        if ended {
            f.insert(.endOfStream)
            tap.sourceEnded = true
        }
        for c in 0..<pcm.channels { list[c].mDataByteSize = UInt32(got * 4) }
        outFrames.pointee = UInt32(got)
        flags.pointee = f
        return noErr
    }

    /// Input queues: runs the tap over a captured slice in `captureList`; returns the frames to record, which
    /// `captureList` then points at.
    func tapInput(_ tap: AudioQueueProcessingTapObject, frames: Int, hostTime: UInt64) -> Int {
        tap.queueSampleTime = Double(sampleTime.load(ordering: .relaxed))
        tap.queueFrameCount = UInt32(frames)
        if tap.isSiphon {
            siphon(tap, captureList, frames: frames, at: 0)
            return frames
        }
        tap.inputSource = captureList
        tap.inputSourceFrames = frames
        tap.inputSourceTaken = 0
        tap.inputTimeStamp = AudioTimeStamp()
        tap.inputTimeStamp.mSampleTime = Double(sampleTime.load(ordering: .relaxed))
        tap.inputTimeStamp.mHostTime = hostTime
        tap.inputTimeStamp.mFlags = [.sampleTimeValid, .hostTimeValid]
        let (produced, _) = tap.call(frames: frames, siphonData: nil, at: 0)
        tap.inputSource = nil
        // The tap's output moves into the tap's own scratch (it may point into the captured slice).
        let staged = tap.outputList
        tap.pointAtSource(staged, frames: produced)
        tap.copyOutput(produced, requested: produced, into: staged, at: 0)
        for c in 0..<min(captureList.count, pcm.channels) { captureList[c] = staged[c] }
        return produced
    }
}
