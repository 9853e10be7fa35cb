import Foundation

/// What an `AudioQueueProcessingTapRef` points at: the client's callback and the memory the device thread
/// calls it with, all allocated when the tap is made. Made and disposed only while its queue is stopped, so
/// the device thread never sees it change; used there without locks or allocation.
final class AudioQueueProcessingTapObject: @unchecked Sendable {
    static let handles = LiveHandleTable()
    /// The callback as C sees it: the client data may be NULL.
    typealias Callback = @convention(c) (UnsafeMutableRawPointer?, AudioQueueProcessingTapRef, UInt32, UnsafeMutablePointer<AudioTimeStamp>,
                                         UnsafeMutablePointer<AudioQueueProcessingTapFlags>, UnsafeMutablePointer<UInt32>,
                                         UnsafeMutablePointer<AudioBufferList>) -> Void

    /// The queue owns its tap; the tap is disposed before the queue goes.
    unowned(unsafe) let queue: AudioQueueObject
    let callback: Callback
    let clientData: UnsafeMutableRawPointer?
    let flags: AudioQueueProcessingTapFlags
    let channels: Int
    /// The most frames the tap is asked for at once (outMaxFrames).
    let maxFrames: Int
    /// The most source frames one GetSourceAudio hands out (room for a tap that changes the rate by up to 4x).
    let sourceCapacity: Int
    private(set) var ref: AudioQueueProcessingTapRef!

    var isSiphon: Bool { flags.contains(.siphon) }
    var isPostEffects: Bool { flags.contains(.postEffects) }

    // MARK: Device-thread state

    /// Set while the callback runs: GetSourceAudio and GetQueueTime answer only then.
    var inCallback = false
    /// The next GetSourceAudio (and callback) reports StartOfStream: after a start or a reset.
    var discontinuity = true
    /// GetSourceAudio found the queue drained by a Stop(false) during this callback.
    var sourceEnded = false
    /// Where this chunk's queue time starts and how many frames of queue time it covers (GetQueueTime).
    var queueSampleTime = 0.0
    var queueFrameCount: UInt32 = 0
    /// The tap's output time (the callback's continuous timestamp).
    var outputSampleTime = 0.0
    /// Input queues: the slice GetSourceAudio hands out, and how much of it is taken.
    var inputSource: UnsafeMutableAudioBufferListPointer?
    var inputSourceFrames = 0
    var inputSourceTaken = 0
    var inputTimeStamp = AudioTimeStamp()

    /// Planar Float32 behind GetSourceAudio when the tap passes NULL buffer pointers.
    let sourceSamples: UnsafeMutablePointer<Float>
    /// The callback's arguments, preallocated.
    let ioList: UnsafeMutableAudioBufferListPointer
    /// Input queues: the tap's output, copied into `sourceSamples`, as the recorder reads it.
    let outputList: UnsafeMutableAudioBufferListPointer
    let timeStamp: UnsafeMutablePointer<AudioTimeStamp>
    let ioFlags: UnsafeMutablePointer<AudioQueueProcessingTapFlags>
    let outFrames: UnsafeMutablePointer<UInt32>

    init(queue: AudioQueueObject, callback: AudioQueueProcessingTapCallback, clientData: UnsafeMutableRawPointer?,
         flags: AudioQueueProcessingTapFlags, maxFrames: Int) {
        self.queue = queue
        self.callback = unsafeBitCast(callback, to: Callback.self)
        self.clientData = clientData
        self.flags = flags.intersection([.preEffects, .postEffects, .siphon])
        channels = queue.pcm.channels
        self.maxFrames = maxFrames
        sourceCapacity = 4 * maxFrames
        sourceSamples = .allocate(capacity: channels * sourceCapacity)
        sourceSamples.initialize(repeating: 0, count: channels * sourceCapacity)
        ioList = AudioBufferList.allocate(maximumBuffers: channels)
        outputList = AudioBufferList.allocate(maximumBuffers: channels)
        timeStamp = .allocate(capacity: 1)
        timeStamp.initialize(to: AudioTimeStamp())
        ioFlags = .allocate(capacity: 1)
        ioFlags.initialize(to: [])
        outFrames = .allocate(capacity: 1)
        outFrames.initialize(to: 0)
    }

    /// Registers the tap and returns its handle.
    func activate() -> AudioQueueProcessingTapRef {
        ref = OpaquePointer(Self.handles.add(self))
        return ref
    }

    deinit {
        sourceSamples.deallocate()
        free(ioList.unsafeMutablePointer)
        free(outputList.unsafeMutablePointer)
        timeStamp.deallocate()
        ioFlags.deallocate()
        outFrames.deallocate()
    }

    /// Points the source list's buffers at the tap's own scratch (GetSourceAudio with NULL pointers).
    func pointAtSource(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for c in 0..<min(list.count, channels) {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                  mData: UnsafeMutableRawPointer(sourceSamples + c * sourceCapacity))
        }
    }

    /// Calls the client with `frames` frames to produce (or, for a siphon, to look at in `siphonData`).
    /// Returns the frames the tap produced and the flags it returned; its output is in `ioList`.
    func call(frames: Int, siphonData: UnsafeMutableAudioBufferListPointer?, at offset: Int) -> (frames: Int, flags: AudioQueueProcessingTapFlags) {
        ioList.count = channels
        for c in 0..<channels {
            if let siphonData, c < siphonData.count, let p = siphonData[c].mData {
                ioList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: p + offset * 4)
            } else {
                ioList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: nil)
            }
        }
        var f = flags
        if discontinuity { f.insert(.startOfStream) }
        if siphonData != nil { discontinuity = false }
        ioFlags.pointee = f
        outFrames.pointee = siphonData != nil ? UInt32(frames) : 0
        timeStamp.pointee = AudioTimeStamp()
        timeStamp.pointee.mSampleTime = outputSampleTime
        timeStamp.pointee.mFlags = .sampleTimeValid
        sourceEnded = false
        inCallback = true
        callback(clientData, ref, UInt32(frames), timeStamp, ioFlags, outFrames, ioList.unsafeMutablePointer)
        inCallback = false
        let produced = siphonData != nil ? frames : min(Int(outFrames.pointee), frames)
        outputSampleTime += Double(frames)
        return (produced, ioFlags.pointee)
    }

    /// Copies the tap's output (`produced` frames in `ioList`) into `list` from frame `offset`, silence after.
    func copyOutput(_ produced: Int, requested: Int, into list: UnsafeMutableAudioBufferListPointer, at offset: Int) {
        for c in 0..<min(list.count, channels) {
            guard let dst = list[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let room = Int(ioList[c].mDataByteSize) / 4
            let n = ioList[c].mData == nil ? 0 : min(produced, room)
            if n > 0, let src = ioList[c].mData?.assumingMemoryBound(to: Float.self), src != dst + offset {
                (dst + offset).update(from: src, count: n)
            }
            if n < requested { (dst + offset + n).update(repeating: 0, count: requested - n) }
        }
    }
}
