import COCASupport
import Foundation

// Audio Queue Services (AudioQueue.h) with Apple's Swift signatures. Linear PCM queues play, record
// and render offline; output queues also play any format a codec decodes (packets decoded as they are
// enqueued), input queues record any format a codec encodes. Processing taps run on the device thread
// (AudioQueueObject+Tap); ChannelAssignments routes queue channels to device channels (AudioQueueChannelRoute).
// Threading: see AudioQueueObject.

/// The block an output queue created with a dispatch queue calls for each finished buffer.
public typealias AudioQueueOutputCallbackBlock = (AudioQueueRef, AudioQueueBufferRef) -> Void
/// The block an input queue created with a dispatch queue calls for each filled buffer.
public typealias AudioQueueInputCallbackBlock = (AudioQueueRef, AudioQueueBufferRef, UnsafePointer<AudioTimeStamp>, UInt32,
                                                 UnsafePointer<AudioStreamPacketDescription>?) -> Void

private func withQueue(_ ref: AudioQueueRef?, _ body: (AudioQueueObject) -> OSStatus) -> OSStatus {
    guard let q = AudioQueueObject.handles.object(ref.map { UnsafeMutableRawPointer($0) }, as: AudioQueueObject.self) else {
        return kAudio_ParamError
    }
    return body(q)
}

private func makeQueue(_ direction: AudioQueueObject.Direction, _ format: UnsafePointer<AudioStreamBasicDescription>,
                       _ callback: AudioQueueCallback, _ target: AudioQueueCallbackTarget, _ flags: UInt32,
                       _ out: UnsafeMutablePointer<AudioQueueRef?>) -> OSStatus {
    out.pointee = nil
    let (pcm, status) = AudioQueueObject.validate(format.pointee, direction: direction)
    guard let pcm else { return status }
    out.pointee = AudioQueueObject(direction: direction, pcm: pcm, streamFormat: format.pointee, callback: callback, target: target).activate()
    return noErr
}

private func callbackTarget(_ runLoop: CFRunLoop?, _ mode: CFString?) -> AudioQueueCallbackTarget {
    guard let runLoop else { return .queueThread }
    return .runLoop(runLoop, mode: (mode as String?) ?? "kCFRunLoopDefaultMode")
}

/// Creates a playback queue. Callbacks run on `inCallbackRunLoop` while it runs in
/// `inCallbackRunLoopMode` (the default mode when nil), or on the queue's own thread when it is nil.
@discardableResult
public func AudioQueueNewOutput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueOutputCallback,
                                _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString?,
                                _ inFlags: UInt32, _ outAQ: UnsafeMutablePointer<AudioQueueRef?>) -> OSStatus {
    makeQueue(.output, inFormat, .output(inCallbackProc, inUserData), callbackTarget(inCallbackRunLoop, inCallbackRunLoopMode), inFlags, outAQ)
}

/// Creates a recording queue (callbacks delivered as for AudioQueueNewOutput).
@discardableResult
public func AudioQueueNewInput(_ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueInputCallback,
                               _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString?,
                               _ inFlags: UInt32, _ outAQ: UnsafeMutablePointer<AudioQueueRef?>) -> OSStatus {
    makeQueue(.input, inFormat, .input(inCallbackProc, inUserData), callbackTarget(inCallbackRunLoop, inCallbackRunLoopMode), inFlags, outAQ)
}

/// Creates a playback queue whose callback block runs on `inCallbackDispatchQueue`.
@discardableResult
public func AudioQueueNewOutputWithDispatchQueue(_ outAQ: UnsafeMutablePointer<AudioQueueRef?>, _ inFormat: UnsafePointer<AudioStreamBasicDescription>,
                                                 _ inFlags: UInt32, _ inCallbackDispatchQueue: DispatchQueue,
                                                 _ inCallbackBlock: @escaping AudioQueueOutputCallbackBlock) -> OSStatus {
    makeQueue(.output, inFormat, .outputBlock(inCallbackBlock), .dispatchQueue(inCallbackDispatchQueue), inFlags, outAQ)
}

/// Creates a recording queue whose callback block runs on `inCallbackDispatchQueue`.
@discardableResult
public func AudioQueueNewInputWithDispatchQueue(_ outAQ: UnsafeMutablePointer<AudioQueueRef?>, _ inFormat: UnsafePointer<AudioStreamBasicDescription>,
                                                _ inFlags: UInt32, _ inCallbackDispatchQueue: DispatchQueue,
                                                _ inCallbackBlock: @escaping AudioQueueInputCallbackBlock) -> OSStatus {
    makeQueue(.input, inFormat, .inputBlock(inCallbackBlock), .dispatchQueue(inCallbackDispatchQueue), inFlags, outAQ)
}

/// Disposes of a queue and its buffers: at once (no callback follows), or after what is enqueued has played.
@discardableResult
public func AudioQueueDispose(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    withQueue(inAQ) { $0.dispose(immediate: inImmediate) }
}

/// Allocates a buffer owned by the queue.
@discardableResult
public func AudioQueueAllocateBuffer(_ inAQ: AudioQueueRef, _ inBufferByteSize: UInt32, _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>) -> OSStatus {
    withQueue(inAQ) { q in
        let (buffer, status) = q.allocateBuffer(bytes: inBufferByteSize, packets: 0)
        outBuffer.pointee = buffer
        return status
    }
}

/// Allocates a buffer with room for packet descriptions (for variable-bit-rate data).
@discardableResult
public func AudioQueueAllocateBufferWithPacketDescriptions(_ inAQ: AudioQueueRef, _ inBufferByteSize: UInt32, _ inNumberPacketDescriptions: UInt32,
                                                           _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>) -> OSStatus {
    withQueue(inAQ) { q in
        let (buffer, status) = q.allocateBuffer(bytes: inBufferByteSize, packets: inNumberPacketDescriptions)
        outBuffer.pointee = buffer
        return status
    }
}

/// Frees a buffer that is not enqueued.
@discardableResult
public func AudioQueueFreeBuffer(_ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef) -> OSStatus {
    withQueue(inAQ) { $0.freeBuffer(inBuffer) }
}

/// Adds a buffer to the queue: audio to play (output) or room to record into (input).
@discardableResult
public func AudioQueueEnqueueBuffer(_ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef, _ inNumPacketDescs: UInt32,
                                    _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
    withQueue(inAQ) { $0.enqueue(inBuffer, packetCount: inNumPacketDescs, packets: inPacketDescs) }
}

/// Adds a buffer with frames trimmed from its start and end and parameter events (volume) that take
/// effect when it begins to play, at `inStartTime` (a sample time on the queue's timeline or a host time; silence
/// plays up to it) or right after the buffers before it; `outActualStartTime` receives the queue time it will start
/// at.
@discardableResult
public func AudioQueueEnqueueBufferWithParameters(_ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef, _ inNumPacketDescs: UInt32,
                                                  _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?,
                                                  _ inTrimFramesAtStart: UInt32, _ inTrimFramesAtEnd: UInt32,
                                                  _ inNumParamValues: UInt32, _ inParamValues: UnsafePointer<AudioQueueParameterEvent>?,
                                                  _ inStartTime: UnsafePointer<AudioTimeStamp>?,
                                                  _ outActualStartTime: UnsafeMutablePointer<AudioTimeStamp>?) -> OSStatus {
    withQueue(inAQ) { q in
        q.enqueue(inBuffer, packetCount: inNumPacketDescs, packets: inPacketDescs, trimStart: inTrimFramesAtStart, trimEnd: inTrimFramesAtEnd,
                  events: UnsafeBufferPointer(start: inParamValues, count: inParamValues == nil ? 0 : Int(inNumParamValues)),
                  startTime: inStartTime?.pointee, actualStart: outActualStartTime)
    }
}

/// Starts playing or recording: now (nil), or for an output queue at a sample time on the queue's timeline or a
/// host time (silence plays until then). An input queue starts now whatever the time.
@discardableResult
public func AudioQueueStart(_ inAQ: AudioQueueRef, _ inStartTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    withQueue(inAQ) { $0.start(at: inStartTime?.pointee) }
}

/// Prepares enqueued audio for playback: linear PCM needs no decoding, so this reports the frames
/// ready (up to `inNumberOfFramesToPrepare`, all of them for 0).
@discardableResult
public func AudioQueuePrime(_ inAQ: AudioQueueRef, _ inNumberOfFramesToPrepare: UInt32, _ outNumberOfFramesPrepared: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueue(inAQ) { q in
        guard q.direction == .output else { return kAudioQueueErr_InvalidQueueType }
        let ready = q.framesEnqueued()
        outNumberOfFramesPrepared?.pointee = UInt32(min(inNumberOfFramesToPrepare == 0 ? ready : Int(inNumberOfFramesToPrepare), ready))
        return noErr
    }
}

/// Stops the queue: at once, returning every buffer, or after what is enqueued has played.
@discardableResult
public func AudioQueueStop(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus {
    withQueue(inAQ) { $0.stop(immediate: inImmediate) }
}

/// Pauses; AudioQueueStart resumes where it paused.
@discardableResult
public func AudioQueuePause(_ inAQ: AudioQueueRef) -> OSStatus {
    withQueue(inAQ) { $0.pause() }
}

/// Makes sure everything enqueued is played (linear PCM keeps no decoder state, so nothing is held back).
@discardableResult
public func AudioQueueFlush(_ inAQ: AudioQueueRef) -> OSStatus {
    withQueue(inAQ) { _ in noErr }
}

/// Returns every enqueued buffer through the callback and clears the queue's state; a running queue keeps running.
@discardableResult
public func AudioQueueReset(_ inAQ: AudioQueueRef) -> OSStatus {
    withQueue(inAQ) { $0.reset() }
}

/// Reads a parameter (Volume, PlayRate, Pitch, VolumeRampTime, Pan).
@discardableResult
public func AudioQueueGetParameter(_ inAQ: AudioQueueRef, _ inParamID: AudioQueueParameterID,
                                   _ outValue: UnsafeMutablePointer<AudioQueueParameterValue>) -> OSStatus {
    withQueue(inAQ) { q in
        let (v, status) = q.parameter(inParamID)
        if status == noErr { outValue.pointee = v }
        return status
    }
}

/// Sets a parameter; Volume applies from the next slice (ramped over VolumeRampTime).
@discardableResult
public func AudioQueueSetParameter(_ inAQ: AudioQueueRef, _ inParamID: AudioQueueParameterID, _ inValue: AudioQueueParameterValue) -> OSStatus {
    withQueue(inAQ) { $0.setParameter(inParamID, inValue) }
}

/// Reads a property.
@discardableResult
public func AudioQueueGetProperty(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ outData: UnsafeMutableRawPointer,
                                  _ ioDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withQueue(inAQ) { $0.getProperty(inID, outData, ioDataSize) }
}

/// Sets a property.
@discardableResult
public func AudioQueueSetProperty(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ inData: UnsafeRawPointer, _ inDataSize: UInt32) -> OSStatus {
    withQueue(inAQ) { $0.setProperty(inID, inData, inDataSize) }
}

/// The size of a property's value.
@discardableResult
public func AudioQueueGetPropertySize(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID, _ outDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withQueue(inAQ) { q in
        let (size, status) = q.propertySize(inID)
        if status == noErr { outDataSize.pointee = size }
        return status
    }
}

/// Calls `inProc` (on the queue's thread) when the property changes; IsRunning changes on start and
/// when play-out really ends.
@discardableResult
public func AudioQueueAddPropertyListener(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID,
                                          _ inProc: @escaping AudioQueuePropertyListenerProc, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    withQueue(inAQ) { $0.addListener(inID, inProc, inUserData) }
}

/// Removes a listener added with the same proc and user data.
@discardableResult
public func AudioQueueRemovePropertyListener(_ inAQ: AudioQueueRef, _ inID: AudioQueuePropertyID,
                                             _ inProc: @escaping AudioQueuePropertyListenerProc, _ inUserData: UnsafeMutableRawPointer?) -> OSStatus {
    withQueue(inAQ) { $0.removeListener(inID, inProc, inUserData) }
}

/// Creates a timeline, through which GetCurrentTime reports discontinuities (device changes, overloads).
@discardableResult
public func AudioQueueCreateTimeline(_ inAQ: AudioQueueRef, _ outTimeline: UnsafeMutablePointer<AudioQueueTimelineRef?>) -> OSStatus {
    withQueue(inAQ) { q in
        q.lock.lock(); defer { q.lock.unlock() }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        q.timelines.insert(raw)
        outTimeline.pointee = OpaquePointer(raw)
        return noErr
    }
}

/// Disposes of a timeline.
@discardableResult
public func AudioQueueDisposeTimeline(_ inAQ: AudioQueueRef, _ inTimeline: AudioQueueTimelineRef) -> OSStatus {
    withQueue(inAQ) { q in
        q.lock.lock(); defer { q.lock.unlock() }
        guard let raw = q.timelines.remove(UnsafeMutableRawPointer(inTimeline)) else { return kAudio_ParamError }
        raw.deallocate()
        return noErr
    }
}

/// The queue's time: frames played (or recorded) since it started, with the host time now.
/// A queue that is not running answers kAudioQueueErr_InvalidRunState.
@discardableResult
public func AudioQueueGetCurrentTime(_ inAQ: AudioQueueRef, _ inTimeline: AudioQueueTimelineRef?, _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>?,
                                     _ outTimelineDiscontinuity: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withQueue(inAQ) { q in
        q.lock.lock(); defer { q.lock.unlock() }
        guard q.runState != .stopped else { return kAudioQueueErr_InvalidRunState }
        if let inTimeline, !q.timelines.contains(UnsafeMutableRawPointer(inTimeline)) { return kAudio_ParamError }
        if let outTimeStamp {
            var t = AudioTimeStamp()
            t.mSampleTime = Double(q.sampleTime.load(ordering: .acquiring))
            t.mHostTime = oca_monotonic_nanoseconds()
            t.mRateScalar = 1
            t.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
            outTimeStamp.pointee = t
        }
        outTimelineDiscontinuity?.pointee = DarwinBoolean(q.timelineDiscontinuity)
        q.timelineDiscontinuity = false
        return noErr
    }
}

/// The queue's device's current time (needs a running queue).
@discardableResult
public func AudioQueueDeviceGetCurrentTime(_ inAQ: AudioQueueRef, _ outTimeStamp: UnsafeMutablePointer<AudioTimeStamp>) -> OSStatus {
    withQueue(inAQ) { q in
        guard q.deviceRunning.load(ordering: .acquiring), let id = q.deviceID() else { return kAudioQueueErr_InvalidRunState }
        return AudioDeviceGetCurrentTime(id, outTimeStamp)
    }
}

/// Converts a device time: fills the sample or host time from the other, at the device's nominal rate.
@discardableResult
public func AudioQueueDeviceTranslateTime(_ inAQ: AudioQueueRef, _ inTime: UnsafePointer<AudioTimeStamp>,
                                          _ outTime: UnsafeMutablePointer<AudioTimeStamp>) -> OSStatus {
    withQueue(inAQ) { q in
        guard q.deviceRunning.load(ordering: .acquiring), let id = q.deviceID(), let rate = q.deviceFormat()?.mSampleRate else {
            return kAudioQueueErr_InvalidRunState
        }
        var now = AudioTimeStamp()
        let status = AudioDeviceGetCurrentTime(id, &now)
        guard status == noErr else { return status }
        var t = inTime.pointee
        if t.mFlags.contains(.sampleTimeValid) {
            let delta = (t.mSampleTime - now.mSampleTime) / rate * 1e9
            t.mHostTime = UInt64(max(0, Double(now.mHostTime) + delta))
        } else if t.mFlags.contains(.hostTimeValid) {
            t.mSampleTime = now.mSampleTime + (Double(t.mHostTime) - Double(now.mHostTime)) / 1e9 * rate
        } else {
            return kAudio_ParamError
        }
        t.mRateScalar = 1
        t.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        outTime.pointee = t
        return noErr
    }
}

/// The nearest time at which the device can start: the requested one (this HAL starts at any sample).
@discardableResult
public func AudioQueueDeviceGetNearestStartTime(_ inAQ: AudioQueueRef, _ ioRequestedStartTime: UnsafeMutablePointer<AudioTimeStamp>,
                                                _ inFlags: UInt32) -> OSStatus {
    withQueue(inAQ) { q in q.deviceRunning.load(ordering: .acquiring) ? noErr : kAudioQueueErr_InvalidRunState }
}

/// Puts an output queue in offline mode with this output format (nil: back to the device).
@discardableResult
public func AudioQueueSetOfflineRenderFormat(_ inAQ: AudioQueueRef, _ inFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                             _ inLayout: UnsafePointer<AudioChannelLayout>?) -> OSStatus {
    withQueue(inAQ) { q in
        var layout: [UInt8] = []
        if let inLayout {
            let count = Int(inLayout.pointee.mNumberChannelDescriptions)
            let size = MemoryLayout<AudioChannelLayout>.size + max(count - 1, 0) * MemoryLayout<AudioChannelDescription>.size
            layout = Array(UnsafeRawBufferPointer(start: inLayout, count: size))
        }
        return q.setOfflineRenderFormat(inFormat?.pointee, layout: layout)
    }
}

/// Renders `inNumberFrames` frames of an offline queue into `ioBuffer` (in the offline format).
@discardableResult
public func AudioQueueOfflineRender(_ inAQ: AudioQueueRef, _ inTimestamp: UnsafePointer<AudioTimeStamp>, _ ioBuffer: AudioQueueBufferRef,
                                    _ inNumberFrames: UInt32) -> OSStatus {
    withQueue(inAQ) { $0.offlineRender(ioBuffer, frames: inNumberFrames) }
}

/// Installs a processing tap on a stopped queue: `inCallback` then processes the queue's audio on the
/// device thread (output: the decoded audio before or after volume, pan and time-pitch; input: the captured
/// audio before it is recorded), in `outProcessingFormat` (planar Float32 at the queue's rate and channel
/// count), at most `outMaxFrames` frames a call. One tap per queue (kAudioQueueErr_TooManyTaps); exactly one
/// of PreEffects and PostEffects (kAudio_ParamError otherwise).
@discardableResult
public func AudioQueueProcessingTapNew(_ inAQ: AudioQueueRef, _ inCallback: AudioQueueProcessingTapCallback, _ inClientData: UnsafeMutableRawPointer?,
                                       _ inFlags: AudioQueueProcessingTapFlags, _ outMaxFrames: UnsafeMutablePointer<UInt32>,
                                       _ outProcessingFormat: UnsafeMutablePointer<AudioStreamBasicDescription>,
                                       _ outAQTap: UnsafeMutablePointer<AudioQueueProcessingTapRef?>) -> OSStatus {
    outAQTap.pointee = nil
    return withQueue(inAQ) { q in
        let (tap, status) = q.makeTap(inCallback, inClientData, inFlags)
        guard let tap else { return status }
        outMaxFrames.pointee = UInt32(tap.maxFrames)
        outProcessingFormat.pointee = q.floatFormat.description
        outAQTap.pointee = tap.ref
        return noErr
    }
}

private func withTap(_ ref: AudioQueueProcessingTapRef, _ body: (AudioQueueProcessingTapObject) -> OSStatus) -> OSStatus {
    guard let t = AudioQueueProcessingTapObject.handles.object(UnsafeMutableRawPointer(ref), as: AudioQueueProcessingTapObject.self) else {
        return kAudioQueueErr_InvalidTapContext
    }
    return body(t)
}

/// Removes a processing tap; like AudioQueueProcessingTapNew, only while its queue is stopped
/// (kAudioQueueErr_InvalidRunState otherwise: a running queue keeps its tap). Disposing the queue disposes its tap.
@discardableResult
public func AudioQueueProcessingTapDispose(_ inAQTap: AudioQueueProcessingTapRef) -> OSStatus {
    withTap(inAQTap) { $0.queue.disposeTap($0) }
}

/// From inside the tap's callback only (kAudioQueueErr_InvalidTapContext elsewhere): up to `inNumberFrames`
/// frames of the audio the tap processes. NULL buffer pointers in `ioData` receive the queue's own (valid
/// during the callback); others receive a copy. `outFlags` carries StartOfStream after a start or reset and
/// EndOfStream once a Stop(false) has nothing more; `outNumberFrames` may be less than asked.
@discardableResult
public func AudioQueueProcessingTapGetSourceAudio(_ inAQTap: AudioQueueProcessingTapRef, _ inNumberFrames: UInt32,
                                                  _ ioTimeStamp: UnsafeMutablePointer<AudioTimeStamp>,
                                                  _ outFlags: UnsafeMutablePointer<AudioQueueProcessingTapFlags>,
                                                  _ outNumberFrames: UnsafeMutablePointer<UInt32>,
                                                  _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    // On the device thread: no handle-table lookup (it locks); a tap's memory outlives its handle in quarantine.
    let tap = Unmanaged<AudioQueueProcessingTapObject>.fromOpaque(UnsafeRawPointer(inAQTap)).takeUnretainedValue()
    guard tap.inCallback, !tap.isSiphon else { return kAudioQueueErr_InvalidTapContext }
    return tap.queue.tapSource(tap, frames: Int(inNumberFrames), timeStamp: ioTimeStamp, flags: outFlags, outFrames: outNumberFrames, data: ioData)
}

/// From inside an output queue's tap callback (kAudioQueueErr_InvalidTapContext elsewhere,
/// kAudioQueueErr_InvalidTapType on an input queue): the queue time where the chunk being processed starts and
/// the frames of queue time it covers.
@discardableResult
public func AudioQueueProcessingTapGetQueueTime(_ inAQTap: AudioQueueProcessingTapRef, _ outQueueSampleTime: UnsafeMutablePointer<Float64>,
                                                _ outQueueFrameCount: UnsafeMutablePointer<UInt32>) -> OSStatus {
    let tap = Unmanaged<AudioQueueProcessingTapObject>.fromOpaque(UnsafeRawPointer(inAQTap)).takeUnretainedValue()
    guard tap.inCallback else { return kAudioQueueErr_InvalidTapContext }
    guard tap.queue.direction == .output else { return kAudioQueueErr_InvalidTapType }
    outQueueSampleTime.pointee = tap.queueSampleTime
    outQueueFrameCount.pointee = tap.queueFrameCount
    return noErr
}
