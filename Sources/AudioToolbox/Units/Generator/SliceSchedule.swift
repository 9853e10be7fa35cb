import Synchronization

/// The timeline of a scheduled sound player, after Apple's AUScheduledSoundPlayer: slices handed over by
/// client threads through a lock-free ring, played in the order they were scheduled at their sample times
/// relative to the start time, completed slices handed to a worker thread through a second ring (so
/// completion procs never run on the render thread). The render side allocates nothing and takes no lock.
///
/// Rules, as Apple documents them: a slice follows the one before it (a slice due while another plays waits,
/// and what it missed is skipped and flagged BeganToRenderLate); a slice whose time stamp has no valid flags
/// plays right after the previous one (or at once); Loop repeats a slice until a later Interrupt slice is
/// due or an InterruptAtLoop slice arrives (which takes over at the next loop point); Reset completes every
/// slice and stops playback until a new start time is set.
final class SliceSchedule: @unchecked Sendable {
    /// One scheduled slice as the render thread sees it.
    struct Entry {
        var slice: UnsafeMutablePointer<ScheduledAudioSlice>
        /// A buffer of the file player's own pool (its index), or -1 for a client's slice.
        var poolIndex: Int32
        /// Player time of the first frame; nil until resolved for a slice that follows the previous one.
        var start: Int64?
        var played: Int64 = 0
        var begun = false
        /// Ends at this player time (an Interrupt slice became due).
        var stopAt = Int64.max
        /// Ends at its next loop point (an InterruptAtLoop slice arrived).
        var stopAtLoop = false
    }

    static let capacity = 1024
    /// The capacity as an instance constant (the render path may not touch class metadata).
    private let slots = SliceSchedule.capacity
    private let incoming = SingleProducerRing<Entry>(capacity: SliceSchedule.capacity)
    let completed = SingleProducerRing<Entry>(capacity: 2 * SliceSchedule.capacity)
    /// Render-thread FIFO of the slices being played or waiting.
    private let active = UnsafeMutablePointer<Entry>.allocate(capacity: SliceSchedule.capacity)
    private var head = 0, count = 0

    /// The start time a client asked for (Double bits; NaN = none) and its generation, adopted by the next render.
    private let requestedStart = Atomic<UInt64>(Double.nan.bitPattern)
    private let requestedHostTime = Atomic<UInt64>(0)
    private let startGeneration = Atomic<Int>(0)
    private var adoptedGeneration = 0
    /// Render sample time at which player time 0 falls (nil until started).
    private var startSampleTime: Double?
    /// Player time reached by the last render (-1 before the start), readable from any thread.
    private let playTime = Atomic<UInt64>((-1.0).bitPattern)
    /// The render sample time playback began at, once it has (for ScheduleStartTimeStamp's getter).
    private let startedAt = Atomic<UInt64>(Double.nan.bitPattern)
    /// Set while a render uses the schedule; a reset takes it to 2 so the two never overlap.
    private let gate = Atomic<Int>(0)
    /// Serializes client threads on the producer side of `incoming`.
    private let producer = Mutex(())

    deinit { active.deallocate() }

    // MARK: Client side

    /// Queues a slice; false when the schedule is full.
    func schedule(_ slice: UnsafeMutablePointer<ScheduledAudioSlice>, poolIndex: Int32 = -1) -> Bool {
        var flags = slice.pointee.mFlags
        flags.remove([.scheduledAudioSliceFlag_Complete, .scheduledAudioSliceFlag_BeganToRender,
                      .scheduledAudioSliceFlag_BeganToRenderLate])
        slice.pointee.mFlags = flags
        let ts = slice.pointee.mTimeStamp
        let start: Int64? = ts.mFlags.contains(.sampleTimeValid) ? nearestFrame(ts.mSampleTime) : nil
        return producer.withLock { _ in incoming.push(Entry(slice: slice, poolIndex: poolIndex, start: start)) }
    }

    /// Sets the start time: a valid sample time (-1 = the next render), else a host time (0 = the next render).
    func setStart(_ ts: AudioTimeStamp) {
        if ts.mFlags.contains(.sampleTimeValid) {
            requestedStart.store(ts.mSampleTime.bitPattern, ordering: .relaxed)
            requestedHostTime.store(0, ordering: .relaxed)
        } else {
            requestedStart.store((-1.0).bitPattern, ordering: .relaxed)
            requestedHostTime.store(ts.mFlags.contains(.hostTimeValid) ? ts.mHostTime : 0, ordering: .relaxed)
        }
        startGeneration.add(1, ordering: .releasing)
    }

    /// Whether a start time has been set since the last reset.
    var hasStartTime: Bool { Double(bitPattern: requestedStart.load(ordering: .relaxed)).isNaN == false }

    /// The render sample time playback began at, or nil before it has.
    var startedSampleTime: Double? {
        let v = Double(bitPattern: startedAt.load(ordering: .relaxed))
        return v.isNaN ? nil : v
    }

    /// Frames played since the start time (-1 before it).
    var currentPlayTime: Double { Double(bitPattern: playTime.load(ordering: .relaxed)) }

    /// Clears the schedule (no render overlaps it) and returns every slice still scheduled, flagged complete,
    /// for the caller to hand to their completion procs. Playback waits for a new start time.
    func reset() -> [Entry] {
        while !gate.compareExchange(expected: 0, desired: 2, ordering: .acquiring).exchanged { sched_yield() }
        var flushed: [Entry] = []
        for i in 0..<count { flushed.append(active[(head + i) % Self.capacity]) }
        head = 0; count = 0
        while let e = incoming.pop() { flushed.append(e) }
        while let e = completed.pop() { flushed.insert(e, at: 0) }
        for e in flushed { e.slice.pointee.mFlags.insert(.scheduledAudioSliceFlag_Complete) }
        startSampleTime = nil
        requestedStart.store(Double.nan.bitPattern, ordering: .relaxed)
        startedAt.store(Double.nan.bitPattern, ordering: .relaxed)
        adoptedGeneration = startGeneration.load(ordering: .acquiring)
        playTime.store((-1.0).bitPattern, ordering: .relaxed)
        gate.store(0, ordering: .releasing)
        return flushed
    }

    // MARK: Render side

    /// Fills `frames` frames of `output` (Float32, non-interleaved) for the render at `timeStamp`; answers
    /// whether anything but silence was written. Allocation-free and lock-free (the rings are; the allocation
    /// counter and RealtimeSanitizer check it, as the compiler's @_noLocks rejects the ring objects' retains).
    func render(_ timeStamp: UnsafePointer<AudioTimeStamp>, frames: Int, into output: UnsafeMutableAudioBufferListPointer) -> Bool {
        for c in 0..<output.count { output[c].mData?.assumingMemoryBound(to: Float.self).update(repeating: 0, count: frames) }
        guard gate.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else { return false }
        defer { gate.store(0, ordering: .releasing) }
        adoptStart(timeStamp)
        guard let start = startSampleTime else { return false }
        let renderTime = timeStamp.pointee.mFlags.contains(.sampleTimeValid) ? timeStamp.pointee.mSampleTime : start
        let w0 = nearestFrame(renderTime - start)
        let w1 = w0 + Int64(frames)
        drainIncoming(at: max(w0, 0))
        var pos = w0
        var wrote = false
        if pos < 0 { pos = min(0, w1) }  // before the start time: silence
        while pos < w1, count > 0 {
            let e = active + head
            if e.pointee.start == nil { e.pointee.start = pos }
            if pos >= e.pointee.stopAt { complete(); continue }
            let sliceStart = e.pointee.start!
            if sliceStart > pos { pos = min(sliceStart, w1); continue }
            let length = Int64(e.pointee.slice.pointee.mNumberFrames)
            if !e.pointee.begun {
                let late = pos - sliceStart
                if late > 0 {
                    e.pointee.slice.pointee.mFlags.insert(.scheduledAudioSliceFlag_BeganToRenderLate)
                    let loops = e.pointee.slice.pointee.mFlags.contains(.scheduledAudioSliceFlag_Loop)
                    e.pointee.played = loops && length > 0 ? late % length : late
                }
                if e.pointee.played >= length { complete(); continue }
                e.pointee.begun = true
                e.pointee.slice.pointee.mFlags.insert(.scheduledAudioSliceFlag_BeganToRender)
            }
            let n = min(length - e.pointee.played, w1 - pos, e.pointee.stopAt - pos)
            copy(e.pointee.slice.pointee.mBufferList, from: Int(e.pointee.played), count: Int(n), to: output, at: Int(pos - w0))
            wrote = true
            e.pointee.played += n
            pos += n
            if e.pointee.played == length {
                if e.pointee.slice.pointee.mFlags.contains(.scheduledAudioSliceFlag_Loop) && !e.pointee.stopAtLoop {
                    e.pointee.played = 0
                } else {
                    complete()
                }
            }
        }
        playTime.store(Double(max(w1, 0)).bitPattern, ordering: .relaxed)
        return wrote
    }

    /// Takes a newly set start time: a sample time (-1 = this render), or a host time (0 = this render).
    @inline(__always)
    private func adoptStart(_ timeStamp: UnsafePointer<AudioTimeStamp>) {
        let generation = startGeneration.load(ordering: .acquiring)
        guard generation != adoptedGeneration else { return }
        adoptedGeneration = generation
        let requested = Double(bitPattern: requestedStart.load(ordering: .relaxed))
        guard !requested.isNaN else { return }
        let now = timeStamp.pointee.mFlags.contains(.sampleTimeValid) ? timeStamp.pointee.mSampleTime : 0
        var start = requested < 0 ? now : requested
        let host = requestedHostTime.load(ordering: .relaxed)
        if requested < 0, host != 0, timeStamp.pointee.mFlags.contains(.hostTimeValid), timeStamp.pointee.mRateScalar >= 0 {
            // Host time to sample time through the render's own anchor (nanosecond host clock).
            let delta = (Double(host) - Double(timeStamp.pointee.mHostTime)) * 1e-9
            start = now + max(0, delta) * sampleRate
        }
        startSampleTime = start
        startedAt.store(start.bitPattern, ordering: .relaxed)
    }

    /// The output rate, for host-time start stamps (set by the unit at initialize).
    var sampleRate = 44100.0

    /// Moves slices from the client ring into the render FIFO; an Interrupt slice ends those before it when it
    /// is due, an InterruptAtLoop slice at their next loop point.
    @inline(__always)
    private func drainIncoming(at now: Int64) {
        while count < slots, var e = incoming.pop() {
            let flags = e.slice.pointee.mFlags
            if flags.contains(.scheduledAudioSliceFlag_Interrupt) {
                let due = e.start ?? now
                if e.start == nil { e.start = now }
                for i in 0..<count { active[(head + i) % slots].stopAt = min(active[(head + i) % slots].stopAt, due) }
            } else if flags.contains(.scheduledAudioSliceFlag_InterruptAtLoop) {
                for i in 0..<count { active[(head + i) % slots].stopAtLoop = true }
            }
            active[(head + count) % slots] = e
            count += 1
        }
    }

    /// Completes the head slice: flags it and hands it to the worker thread.
    @inline(__always)
    private func complete() {
        let e = active[head]
        e.slice.pointee.mFlags.insert(.scheduledAudioSliceFlag_Complete)
        _ = completed.push(e)
        head = (head + 1) % slots
        count -= 1
    }

    @inline(__always)
    private func copy(_ source: UnsafeMutablePointer<AudioBufferList>, from: Int, count n: Int,
                      to output: UnsafeMutableAudioBufferListPointer, at offset: Int) {
        let src = UnsafeMutableAudioBufferListPointer(source)
        guard src.count > 0 else { return }
        for c in 0..<output.count {
            // A mono slice feeds every channel; otherwise channel for channel, extra output channels silent.
            let sc = src.count == 1 ? 0 : c
            guard sc < src.count, let s = src[sc].mData?.assumingMemoryBound(to: Float.self),
                  let d = output[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            guard Int(src[sc].mDataByteSize) / 4 >= from + n else { continue }
            (d + offset).update(from: s + from, count: n)
        }
    }
}

/// Rounds to the nearest frame (Double.rounded() is not usable on the render path: it takes a rule type).
@inline(__always)
private func nearestFrame(_ x: Double) -> Int64 { Int64(x < 0 ? x - 0.5 : x + 0.5) }
