import OCAProperty
import AudioDSP
import COCASupport
import Foundation
internal import OCARunLoop
import Synchronization

/// What an `AudioQueueRef` points at. Three kinds of thread touch it:
/// - client threads (the API): state under `lock`, never held while a client callback runs;
/// - the device thread (the I/O unit's render or input callback, or the thread inside
///   AudioQueueOfflineRender): takes entries from `toDevice`, plays or fills them, hands them back
///   through `completed`, with no lock, allocation or system call;
/// - the queue's own thread: turns completions into client callbacks (directly, on a client's run loop
///   or dispatch queue), finishes a Stop(false) once play-out ends, and calls property listeners.
final class AudioQueueObject: @unchecked Sendable {
    static let handles = LiveHandleTable()
    /// The most frames the device thread converts in one go, and the I/O unit's slice size.
    static let maximumFramesPerSlice = 4096
    /// Buffers a queue may own (each can be enqueued once, so the rings never overflow).
    static let maximumBuffers = 4096

    enum Direction { case output, input }
    enum RunState { case stopped, running, paused }

    let direction: Direction
    let format: AudioStreamBasicDescription
    let pcm: PCMFormat
    /// Planar Float32 at the queue's rate and channel count: what the device side works in.
    let floatFormat: PCMFormat
    let callback: AudioQueueCallback
    let target: AudioQueueCallbackTarget
    /// This queue's handle, as clients see it.
    private(set) var ref: AudioQueueRef!

    // MARK: Client-side state (under `lock`)

    let lock = NSLock()
    /// `payload`: a compressed buffer's decoded audio (Float32, the device side's format), reused each time
    /// the buffer is enqueued and freed with it.
    struct BufferRecord { var enqueued = false; var frames = 0; var payload: UnsafeMutableRawPointer?; var payloadBytes = 0 }
    var buffers: [UnsafeMutableRawPointer: BufferRecord] = [:]
    var runState = RunState.stopped
    var isRunningFlag: UInt32 = 0
    var disposed = false
    var disposeAfterPlayOut = false
    var unit: AudioUnit?
    let listeners = PropertyListenerList<AudioQueuePropertyID, AudioQueuePropertyListenerProc>()
    var pendingNotifications: [AudioQueuePropertyID] = []
    var magicCookie: [UInt8] = []
    var channelLayout: [UInt8] = []
    var meteringEnabled = false
    var decodeBufferSizeFrames: UInt32 = 2048
    var timePitchEnabled = false
    var timePitchAlgorithm: UInt32 = kAudioQueueTimePitchAlgorithm_Spectral
    var timePitchBypass = false
    var deviceUID: String?
    var offlineFormat: AudioStreamBasicDescription?
    var offlineConverter: AudioConverterRef?
    /// Frames enqueued since the queue last started from zero (EnqueueBufferWithParameters' actual start time).
    var scheduledFrames = 0
    var timelines: Set<UnsafeMutableRawPointer> = []
    var timelineDiscontinuity = false

    // MARK: Shared with the device thread (atomics and preallocated memory)

    let toDevice = SingleProducerRing<AudioQueueEntry>(capacity: AudioQueueObject.maximumBuffers)
    let completed = SingleProducerRing<AudioQueueCompletion>(capacity: AudioQueueObject.maximumBuffers)
    let volumeBits = Atomic<UInt32>(Float(1).bitPattern)
    let volumeRampBits = Atomic<UInt32>(Float(0).bitPattern)
    let panBits = Atomic<UInt32>(Float(0).bitPattern)
    let meteringOn = Atomic<Bool>(false)
    /// Set by Stop(false): the device thread reports `playedOut` once nothing is left to play.
    let stopPending = Atomic<Bool>(false)
    let playedOut = Atomic<Bool>(false)
    /// The queue time at which the played-out audio ended.
    let endSampleTime = Atomic<Int>(0)
    /// AudioQueuePause on a playing output queue: the device renders silence (taking nothing from the queue, the
    /// queue's time standing still) until what it already held has been heard, then the queue's thread stops it;
    /// `pauseFramesToHear` counts down what the device held at the pause (set once, by pause()).
    let outputPaused = Atomic<Bool>(false)
    let pauseFramesToHear = Atomic<Int>(0)
    /// Reset while the device runs: the device thread returns every entry, then sets `resetDone`.
    let resetPending = Atomic<Bool>(false)
    let resetDone = Atomic<Bool>(false)
    /// Frames the queue has played or recorded since it started from zero.
    let sampleTime = Atomic<Int>(0)
    /// Frames of silence an output queue plays before its audio (AudioQueueStart with a start time).
    let startDelay = Atomic<Int>(0)
    /// The rest of a slice after the start delay (device thread; as many buffers as channels).
    let offsetList: UnsafeMutableAudioBufferListPointer
    let deviceRunning = Atomic<Bool>(false)
    /// Per channel: peak and RMS of the last slice, as Float bit patterns.
    let meters: UnsafeMutablePointer<UInt32>

    // MARK: Device-thread state

    var current: AudioQueueEntry?
    var position = 0
    /// Silence still to play before `current` (its start time is ahead of the queue's).
    var gapFrames = 0
    var gain: Float = 1
    var pendingVolume: Float = .nan
    /// Queue format <-> planar Float32, same rate: used in place on the device thread.
    let converter: PCMConverter
    /// Compressed output queues: packets -> the device side's Float32, run on the client's thread as each
    /// buffer is enqueued (codecs may allocate; the device thread only copies decoded frames).
    private(set) var decoder: AudioConverterObject?
    /// A compressed input queue's encoder and the client buffers it fills.
    private(set) var encoding: AudioQueueEncoding?
    /// The cookie the decoder was last given.
    private var decoderCookie: [UInt8] = []
    let byteList: UnsafeMutableAudioBufferListPointer
    /// Input queues: where the I/O unit renders captured audio (planar Float32, in the scratch area).
    let captureList: UnsafeMutableAudioBufferListPointer
    /// Planar Float32, maximumFramesPerSlice per channel: captured input, or offline rendering's output.
    let scratchSamples: UnsafeMutablePointer<Float>
    var captureStart = AudioTimeStamp()
    /// The I/O unit, set before it starts (what the device-thread callbacks render with).
    var ioUnit: AudioUnit?
    /// Running peak and sum of squares per channel, and the frames they cover (see publishMeters).
    let meterSums: UnsafeMutablePointer<Double>
    var meterFrames = 0
    /// EnableTimePitch: the processor (made at start) and the input frames staged for it.
    var timePitch: AudioQueueTimePitch?
    var stagedFrames = 0
    let playRateBits = Atomic<UInt32>(Float(1).bitPattern)
    let pitchBits = Atomic<UInt32>(Float(0).bitPattern)
    /// Offline: the last render reached the end of a Stop(false).
    var lastSliceEnded = false
    /// The processing tap (set and cleared only while the queue is stopped, so the device thread never races it).
    var tap: AudioQueueProcessingTapObject?
    /// ChannelAssignments: the device channel of each queue channel (set only while stopped, with the unit made again).
    var channelRoute: AudioQueueChannelRoute?
    /// The render in progress is offline (finished buffers go back at once).
    var renderingInline = false

    // MARK: The queue's thread

    private let wake = DispatchSemaphore(value: 0)
    let dispatcherAlive = Atomic<Bool>(true)
    var runLoopSignal: RunLoopSignalSource?
    var runLoopPending: [AudioQueueCompletion] = []
    /// Stop(false) with the device running: the queue time and the wall-clock limit to wait for.
    var drainUntil: (frame: Int, deadline: Date)?

    /// The device side's PCM for a format, or Apple's status when it cannot be queued:
    /// `kAudioFormatUnsupportedDataFormatError` for deinterleaved PCM and for compressed formats no codec
    /// decodes (output) or encodes (input). A compressed output queue plays interleaved Float32 at the stream's rate,
    /// decoded as buffers are enqueued; a compressed input queue records it and encodes on the queue's thread.
    static func validate(_ f: AudioStreamBasicDescription, direction: Direction = .output) -> (PCMFormat?, OSStatus) {
        if f.mFormatID != kAudioFormatLinearPCM, direction == .input {
            // Recording a compressed format: Float32 from the device, encoded on the queue's thread.
            // The device side records the PCM the encoder takes (Float32 for AAC and Opus, integers for ALAC and FLAC).
            let float = CodecPCMFormat.float32(rate: f.mSampleRate, channels: f.mChannelsPerFrame)
            guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 8, f.mSampleRate > 0,
                  let entry = CodecRegistry.entry(f.mFormatID), let make = entry.makeEncoder,
                  let complete = entry.completeFormat(f, nil), let encoder = try? make(complete, float),
                  let pcm = PCMFormat(encoder.pcmFormat), pcm.isInterleaved || pcm.channels == 1 else {
                return (nil, kAudioFormatUnsupportedDataFormatError)
            }
            return (pcm, noErr)
        }
        if f.mFormatID != kAudioFormatLinearPCM {
            guard direction == .output, CodecRegistry.entry(f.mFormatID)?.makeDecoder != nil, f.mChannelsPerFrame >= 1,
                  f.mChannelsPerFrame <= 64, PCMConverter.checkRates(input: f.mSampleRate, output: f.mSampleRate) == noErr else {
                return (nil, kAudioFormatUnsupportedDataFormatError)
            }
            return (PCMFormat(CodecPCMFormat.float32(rate: f.mSampleRate, channels: f.mChannelsPerFrame)), noErr)
        }
        guard let pcm = PCMFormat(f), pcm.isInterleaved || pcm.channels == 1 else { return (nil, kAudioFormatUnsupportedDataFormatError) }
        guard PCMConverter.checkRates(input: f.mSampleRate, output: f.mSampleRate) == noErr else {
            return (nil, kAudioFormatUnsupportedDataFormatError)
        }
        return (pcm, noErr)
    }

    init(direction: Direction, pcm: PCMFormat, streamFormat: AudioStreamBasicDescription? = nil, callback: AudioQueueCallback,
         target: AudioQueueCallbackTarget) {
        self.direction = direction
        self.pcm = pcm
        if direction == .input, let streamFormat, streamFormat.mFormatID != kAudioFormatLinearPCM,
           let entry = CodecRegistry.entry(streamFormat.mFormatID), let make = entry.makeEncoder,
           let complete = entry.completeFormat(streamFormat, nil),
           let encoder = try? make(complete, CodecPCMFormat.float32(rate: streamFormat.mSampleRate, channels: streamFormat.mChannelsPerFrame)) {
            encoding = AudioQueueEncoding(encoder: encoder)
            format = encoder.format
            magicCookie = encoder.magicCookie ?? []
        } else if let streamFormat, streamFormat.mFormatID != kAudioFormatLinearPCM,
           case .success(let d) = AudioConverterObject.make(input: streamFormat, output: pcm.description) {
            decoder = d
            // The client's description with the codec's fixed fields filled in.
            format = d.inputFormat
        } else {
            format = streamFormat ?? pcm.description
        }
        self.callback = callback
        self.target = target
        floatFormat = PCMFormat(OCAFormat.canonical(sampleRate: pcm.description.mSampleRate, channels: UInt32(pcm.channels)))!
        converter = direction == .output ? PCMConverter(input: pcm, output: floatFormat)
                                         : PCMConverter(input: floatFormat, output: pcm)
        byteList = AudioBufferList.allocate(maximumBuffers: 1)
        captureList = AudioBufferList.allocate(maximumBuffers: pcm.channels)
        offsetList = AudioBufferList.allocate(maximumBuffers: max(pcm.channels, 1))
        scratchSamples = .allocate(capacity: pcm.channels * Self.maximumFramesPerSlice)
        scratchSamples.initialize(repeating: 0, count: pcm.channels * Self.maximumFramesPerSlice)
        meters = .allocate(capacity: 2 * pcm.channels)
        meters.initialize(repeating: 0, count: 2 * pcm.channels)
        meterSums = .allocate(capacity: 2 * pcm.channels)
        meterSums.initialize(repeating: 0, count: 2 * pcm.channels)
    }

    /// Registers the queue, attaches it to its run loop and starts its thread.
    func activate() -> AudioQueueRef {
        ref = OpaquePointer(Self.handles.add(self))
        if case .runLoop(let loop, let mode) = target {
            runLoopSignal = RunLoopSignalSource(loop: loop._loop, mode: mode) { [weak self] in self?.deliverOnRunLoop() }
        }
        let thread = Thread { self.dispatcherLoop() }
        thread.name = "AudioQueue"
        thread.start()
        return ref
    }

    deinit {
        // The buffers are gone already: the queue's thread frees them when it ends, and it holds the queue till then.
        free(byteList.unsafeMutablePointer)
        free(captureList.unsafeMutablePointer)
        free(offsetList.unsafeMutablePointer)
        scratchSamples.deallocate()
        meters.deallocate()
        meterSums.deallocate()
    }

    // MARK: Buffers

    /// A buffer of `bytes` bytes (and room for `packets` packet descriptions), owned by this queue.
    func allocateBuffer(bytes: UInt32, packets: UInt32) -> (AudioQueueBufferRef?, OSStatus) {
        lock.lock(); defer { lock.unlock() }
        guard !disposed else { return (nil, kAudioQueueErr_DisposalPending) }
        guard buffers.count < Self.maximumBuffers else { return (nil, kAudioQueueErr_InvalidBuffer) }
        let data = UnsafeMutableRawPointer.allocate(byteCount: max(Int(bytes), 1), alignment: 16)
        memset(data, 0, max(Int(bytes), 1))
        // A compressed input queue describes what it records: its buffers get room for a packet per 4 bytes.
        let packets = encoding != nil && packets == 0 ? max(bytes / 4, 16) : packets
        let descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>? = packets > 0 ? .allocate(capacity: Int(packets)) : nil
        let buffer = UnsafeMutablePointer<AudioQueueBuffer>.allocate(capacity: 1)
        buffer.initialize(to: AudioQueueBuffer(mAudioDataBytesCapacity: bytes, mAudioData: data, mAudioDataByteSize: 0, mUserData: nil,
                                               mPacketDescriptionCapacity: packets, mPacketDescriptions: descriptions,
                                               mPacketDescriptionCount: 0))
        buffers[UnsafeMutableRawPointer(buffer)] = BufferRecord()
        return (buffer, noErr)
    }

    static func freeBuffer(_ buffer: AudioQueueBufferRef, _ record: BufferRecord) {
        record.payload?.deallocate()
        buffer.pointee.mAudioData.deallocate()
        buffer.pointee.mPacketDescriptions?.deallocate()
        buffer.deallocate()
    }

    func freeBuffer(_ buffer: AudioQueueBufferRef) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        let key = UnsafeMutableRawPointer(buffer)
        guard let record = buffers[key] else { return kAudioQueueErr_InvalidBuffer }
        guard !record.enqueued else { return kAudioQueueErr_BufferInQueue }
        buffers[key] = nil
        Self.freeBuffer(buffer, record)
        return noErr
    }

    /// AudioQueueEnqueueBuffer(WithParameters): hands a buffer to the device thread.
    func enqueue(_ buffer: AudioQueueBufferRef, packetCount: UInt32, packets: UnsafePointer<AudioStreamPacketDescription>?,
                 trimStart: UInt32 = 0, trimEnd: UInt32 = 0, events: UnsafeBufferPointer<AudioQueueParameterEvent> = .init(start: nil, count: 0),
                 startTime: AudioTimeStamp? = nil, actualStart: UnsafeMutablePointer<AudioTimeStamp>? = nil) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard !disposed, !disposeAfterPlayOut else { return kAudioQueueErr_DisposalPending }
        let key = UnsafeMutableRawPointer(buffer)
        guard var record = buffers[key] else { return kAudioQueueErr_InvalidBuffer }
        guard !record.enqueued else { return kAudioQueueErr_BufferEnqueuedTwice }
        let bpf = pcm.bytesPerFrame
        var entry = AudioQueueEntry(buffer: buffer, data: buffer.pointee.mAudioData, start: 0, end: 0, volume: .nan)
        switch direction {
        case .output:
            let size = Int(buffer.pointee.mAudioDataByteSize)
            guard size > 0 else { return kAudioQueueErr_BufferEmpty }
            guard size <= Int(buffer.pointee.mAudioDataBytesCapacity) else { return kAudioQueueErr_InvalidBuffer }
            // Packet descriptions: the call's, else the buffer's own; when given they must lie inside the data.
            var packetCount = Int(packetCount)
            var packets = packets
            if packets == nil, let own = buffer.pointee.mPacketDescriptions, buffer.pointee.mPacketDescriptionCount > 0 {
                packets = UnsafePointer(own)
                packetCount = Int(min(buffer.pointee.mPacketDescriptionCount, buffer.pointee.mPacketDescriptionCapacity))
            }
            if let packets {
                for i in 0..<packetCount where packets[i].mStartOffset < 0
                    || Int(packets[i].mStartOffset) + Int(packets[i].mDataByteSize) > size {
                    return kAudioQueueErr_InvalidBuffer
                }
            }
            var frames = size / bpf
            if let decoder {
                switch decode(buffer, size: size, packetCount: packetCount, packets: packets, with: decoder, record: &record) {
                case .failure(let e): return e.status
                case .success(let n): frames = n
                }
                entry.data = record.payload!
            }
            let start = min(Int(trimStart), frames), end = max(start, frames - Int(trimEnd))
            entry.start = start * bpf
            entry.end = end * bpf
            record.frames = end - start
            for e in events {
                switch e.mID {
                case kAudioQueueParam_Volume: entry.volume = min(max(e.mValue, 0), 1)
                case kAudioQueueParam_PlayRate, kAudioQueueParam_Pitch, kAudioQueueParam_VolumeRampTime, kAudioQueueParam_Pan: break
                default: return kAudioQueueErr_InvalidParameter
                }
            }
        case .input where encoding != nil:
            // Packets go in on the queue's thread as the recording is encoded.
            encoding!.clientBuffers.append(buffer)
            record.enqueued = true
            buffers[key] = record
            return noErr
        case .input:
            entry.end = Int(buffer.pointee.mAudioDataBytesCapacity) / bpf * bpf
            guard entry.end > 0 else { return kAudioQueueErr_InvalidBuffer }
            record.frames = entry.end / bpf
        }
        // The buffer starts after those before it, or later when a start time asks (the device thread plays
        // silence up to it); a start time already passed means "right after".
        var begins = max(scheduledFrames, sampleTime.load(ordering: .acquiring))
        if direction == .output, let t = startTime {
            var requested = -1
            if t.mFlags.contains(.sampleTimeValid) {
                requested = Int(t.mSampleTime.rounded())
            } else if t.mFlags.contains(.hostTimeValid) {
                let now = AudioGetCurrentHostTime()
                let ahead = t.mHostTime > now ? Double(AudioConvertHostTimeToNanos(t.mHostTime - now)) / 1e9 : 0
                requested = sampleTime.load(ordering: .acquiring) + Int(ahead * format.mSampleRate)
            }
            if requested > begins {
                entry.startSample = requested
                begins = requested
            }
        }
        if let actualStart {
            actualStart.pointee = AudioTimeStamp()
            actualStart.pointee.mSampleTime = Double(begins)
            actualStart.pointee.mFlags = .sampleTimeValid
        }
        scheduledFrames = begins + record.frames
        guard toDevice.push(entry) else { return kAudioQueueErr_BufferInQueue }
        record.enqueued = true
        buffers[key] = record
        return noErr
    }

    /// A compressed buffer's packets decoded into its record's payload (grown as needed, on this, the
    /// client's thread); returns the frames. The decoder's state runs on from buffer to buffer.
    private func decode(_ buffer: AudioQueueBufferRef, size: Int, packetCount: Int, packets: UnsafePointer<AudioStreamPacketDescription>?,
                        with decoder: AudioConverterObject, record: inout BufferRecord) -> Result<Int, OSStatusError> {
        if magicCookie != decoderCookie {
            let status = decoder.setDecompressionCookie(magicCookie)
            guard status == noErr else { return .failure(OSStatusError(status)) }
            decoderCookie = magicCookie
        }
        let variable = format.mBytesPerPacket == 0
        guard !variable || packets != nil else { return .failure(OSStatusError(kAudioQueueErr_InvalidBuffer)) }
        let count = variable ? packetCount : size / Int(max(format.mBytesPerPacket, 1))
        guard count > 0 else { return .failure(OSStatusError(kAudioQueueErr_BufferEmpty)) }
        let perPacket = max(Int(format.mFramesPerPacket), decoder.decodeStage?.decoder.maximumFramesPerPacket ?? 1, 1)
        let needed = count * perPacket * pcm.bytesPerFrame
        if record.payloadBytes < needed {
            record.payload?.deallocate()
            record.payload = .allocate(byteCount: needed, alignment: 16)
            record.payloadBytes = needed
        }
        /// The buffer's packets, handed to the decoder as many at a time as it asks for.
        final class Source {
            let data: UnsafeMutableRawPointer, count: Int, packetBytes: Int
            let descriptions: UnsafePointer<AudioStreamPacketDescription>?
            var next = 0
            /// Descriptions of the packets handed out, rebased to the data pointer given with them.
            let rebased: UnsafeMutablePointer<AudioStreamPacketDescription>
            init(_ d: UnsafeMutableRawPointer, _ c: Int, _ b: Int, _ p: UnsafePointer<AudioStreamPacketDescription>?) {
                data = d; count = c; packetBytes = b; descriptions = p
                rebased = .allocate(capacity: max(c, 1))
            }
            deinit { rebased.deallocate() }
        }
        let source = Source(buffer.pointee.mAudioData, count, Int(format.mBytesPerPacket), packets)
        let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, user in
            let s = Unmanaged<Source>.fromOpaque(user!).takeUnretainedValue()
            let n = min(Int(ioPackets.pointee), s.count - s.next)
            guard n > 0 else { ioPackets.pointee = 0; return kAudioQueueDecodeNoMoreInput }
            ioData.pointee.mNumberBuffers = 1
            if let d = s.descriptions {
                let base = d[s.next].mStartOffset
                let end = d[s.next + n - 1].mStartOffset + Int64(d[s.next + n - 1].mDataByteSize)
                for i in 0..<n {
                    s.rebased[i] = d[s.next + i]
                    s.rebased[i].mStartOffset -= base
                }
                ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: 0, mDataByteSize: UInt32(end - base), mData: s.data + Int(base))
                outDescriptions?.pointee = s.rebased
            } else {
                ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: 0, mDataByteSize: UInt32(n * s.packetBytes),
                                                      mData: s.data + s.next * s.packetBytes)
                outDescriptions?.pointee = nil
            }
            s.next += n
            ioPackets.pointee = UInt32(n)
            return noErr
        }
        var frames = 0
        let capacity = record.payloadBytes / pcm.bytesPerFrame
        while frames < capacity {
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(pcm.channels),
                mDataByteSize: UInt32((capacity - frames) * pcm.bytesPerFrame), mData: record.payload! + frames * pcm.bytesPerFrame))
            let (n, status) = decoder.fill(UnsafeMutableAudioBufferListPointer(&list), capacity: capacity - frames, descriptions: nil,
                                           proc: proc, userData: Unmanaged.passUnretained(source).toOpaque())
            frames += n
            if status == kAudioQueueDecodeNoMoreInput || n == 0 { break }
            if status != noErr { return .failure(OSStatusError(status)) }
        }
        return .success(frames)
    }

    /// Forgets the decoder's state (Stop, Reset): the next buffer starts a new stream.
    func resetDecoder() { decoder?.reset() }

    /// Frames enqueued and not yet handed back.
    func framesEnqueued() -> Int {
        lock.lock(); defer { lock.unlock() }
        return buffers.values.reduce(0) { $0 + ($1.enqueued ? $1.frames : 0) }
    }

    // MARK: The queue's thread

    /// Wakes the queue's thread (after a client call that left work for it).
    func poke() { wake.signal() }

    private func dispatcherLoop() {
        while true {
            deliverCompletions()
            if playedOut.load(ordering: .acquiring) && heardToTheEnd() { finishPlayOut() }
            if outputPaused.load(ordering: .acquiring) && deviceRunning.load(ordering: .acquiring)
                && pauseFramesToHear.load(ordering: .acquiring) <= 0 { finishPause() }
            deliverNotifications()
            if !dispatcherAlive.load(ordering: .acquiring) { break }
            _ = wake.wait(timeout: .now() + .milliseconds(deviceRunning.load(ordering: .relaxed) ? 2 : 20))
        }
        runLoopSignal?.invalidate()
        runLoopSignal = nil
        // Disposed and the device stopped: nothing else touches the buffers now.
        lock.lock()
        for (raw, record) in buffers { Self.freeBuffer(raw.assumingMemoryBound(to: AudioQueueBuffer.self), record) }
        buffers.removeAll()
        lock.unlock()
    }

    /// Hands finished buffers to the client (on this thread, its run loop or its dispatch queue).
    func deliverCompletions() {
        while let done = completed.pop() { handleCompletion(done) }
        finishEncodingIfAsked()
    }

    /// One finished buffer: the queue's own PCM buffer of a compressed recording is encoded, a client's delivered.
    func handleCompletion(_ done: AudioQueueCompletion) {
        if let encoding, encoding.isInternal(done.buffer) {
            encodeRecorded(done.buffer, with: encoding)
        } else {
            deliver(done)
        }
    }

    /// Hands one finished buffer to the client (on this thread, its run loop or its dispatch queue).
    func deliver(_ done: AudioQueueCompletion) {
        lock.lock()
        let gone = disposed
        buffers[UnsafeMutableRawPointer(done.buffer)]?.enqueued = false
        lock.unlock()
        if gone { return }  // no callbacks after an immediate dispose
        switch target {
        case .queueThread: callback.call(ref, done)
        case .dispatchQueue(let queue):
            queue.async { [self] in callback.call(ref, done) }
        case .runLoop:
            lock.lock()
            runLoopPending.append(done)
            lock.unlock()
            runLoopSignal?.signal()
        }
    }

    /// Run-loop target: called on the client's thread while it runs the loop in the queue's mode.
    private func deliverOnRunLoop() {
        lock.lock()
        let batch = runLoopPending
        runLoopPending.removeAll()
        let gone = disposed
        lock.unlock()
        if gone { return }
        for done in batch { callback.call(ref, done) }
    }

    /// Queues a property-changed notification for the queue's thread.
    func notify(_ id: AudioQueuePropertyID) {
        pendingNotifications.append(id)
        wake.signal()
    }

    private func deliverNotifications() {
        lock.lock()
        let ids = pendingNotifications
        pendingNotifications.removeAll()
        let gone = disposed
        lock.unlock()
        if gone { return }
        for id in ids { listeners.fire(id) { l in l.proc(l.userData, ref, id) } }
    }

    /// What the device holds beyond the frame being rendered (its latency, buffer and safety offset at the queue's rate),
    /// plus 20 ms for the sound server's own buffering.
    func deviceHoldFrames() -> Int {
        var latency = 0.0
        if let id = deviceID(), let device = deviceFormat() {
            for selector in [kAudioDevicePropertyLatency, kAudioDevicePropertyBufferFrameSize, kAudioDevicePropertySafetyOffset] {
                var address = AudioObjectPropertyAddress(mSelector: selector, mScope: kAudioObjectPropertyScopeOutput,
                                                         mElement: kAudioObjectPropertyElementMain)
                var frames: UInt32 = 0
                var size = UInt32(4)
                if AudioObjectGetPropertyData(id, &address, 0, nil, &size, &frames) == noErr { latency += Double(frames) }
            }
            latency *= format.mSampleRate / device.mSampleRate
        }
        return Int(latency + 0.02 * format.mSampleRate)
    }

    /// A pause's audio has left the device: stop it, unless Start came first.
    private func finishPause() {
        lock.lock(); defer { lock.unlock() }
        guard outputPaused.load(ordering: .acquiring), runState == .paused else { return }
        stopDevice()
    }

    /// Whether the end of a Stop(false)'s audio has left the device: the device keeps running (on
    /// silence) for its latency past the last frame, so stopping it does not cut off what it still holds.
    private func heardToTheEnd() -> Bool {
        guard deviceRunning.load(ordering: .acquiring) else { return true }
        if drainUntil == nil {
            drainUntil = (endSampleTime.load(ordering: .relaxed) + deviceHoldFrames(), Date().addingTimeInterval(2))
        }
        guard let (frame, deadline) = drainUntil else { return true }
        return sampleTime.load(ordering: .acquiring) >= frame || Date() > deadline
    }

    /// Stop(false) reached the end of the enqueued audio: stop the device and tell the listeners.
    private func finishPlayOut() {
        drainUntil = nil
        playedOut.store(false, ordering: .releasing)
        lock.lock()
        stopPending.store(false, ordering: .releasing)
        stopDevice()
        if runState != .stopped {
            runState = .stopped
            setRunning(false)
        }
        let thenDispose = disposeAfterPlayOut
        lock.unlock()
        if thenDispose { dispose() }
    }

    /// Sets IsRunning and queues its notification when it changes (caller holds the lock).
    func setRunning(_ on: Bool) {
        let value: UInt32 = on ? 1 : 0
        guard isRunningFlag != value else { return }
        isRunningFlag = value
        notify(kAudioQueueProperty_IsRunning)
    }

    // MARK: Disposal

    /// AudioQueueDispose: a playing output queue asked to dispose later plays what is enqueued first
    /// (finishPlayOut then disposes it); otherwise it goes now.
    func dispose(immediate: Bool) -> OSStatus {
        if !immediate && direction == .output {
            lock.lock()
            let playing = runState == .running
            if playing { disposeAfterPlayOut = true }
            lock.unlock()
            if playing { return stop(immediate: false) }
        }
        dispose()
        return noErr
    }

    /// Ends the queue: the device stops, no callback follows, the thread exits and frees the buffers.
    func dispose() {
        lock.lock()
        guard !disposed else { lock.unlock(); return }
        disposed = true
        stopDevice()
        if let u = unit { AudioComponentInstanceDispose(u) }
        unit = nil
        if let c = offlineConverter { AudioConverterDispose(c) }
        offlineConverter = nil
        if let t = tap { _ = AudioQueueProcessingTapObject.handles.remove(UnsafeMutableRawPointer(t.ref), as: AudioQueueProcessingTapObject.self) }
        tap = nil
        lock.unlock()
        _ = Self.handles.remove(UnsafeMutableRawPointer(ref), as: AudioQueueObject.self)
        dispatcherAlive.store(false, ordering: .releasing)
        wake.signal()
    }
}

/// Between the enqueue path and its decoder's input proc: "this buffer's packets are all given".
let kAudioQueueDecodeNoMoreInput: OSStatus = 0x6171_6D6F  // 'aqmo'
