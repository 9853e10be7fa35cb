import Synchronization

/// Parameter events scheduled for an AUAudioUnit's render (scheduleParameterBlock, AudioUnitScheduleParameters):
/// a single-producer, single-consumer ring of preallocated slots, and on the render side the events waiting for
/// their cycle. Each render takes the events due in its slice as a time-ordered linked list of AURenderEvents in
/// preallocated memory (valid until the next render). No lock, no allocation.
final class RenderEventQueue: @unchecked Sendable {
    static var capacity: Int { 512 }
    private let ring = UnsafeMutablePointer<AUParameterEvent>.allocate(capacity: RenderEventQueue.capacity)
    private let head = Atomic<Int>(0)  // next to read (render thread)
    private let tail = Atomic<Int>(0)  // next to write (producer)
    /// Events received, not yet due (render thread only).
    private let waiting = UnsafeMutablePointer<AUParameterEvent>.allocate(capacity: RenderEventQueue.capacity)
    private var waitingCount = 0
    /// This cycle's list.
    private let due = UnsafeMutablePointer<AURenderEvent>.allocate(capacity: RenderEventQueue.capacity)

    deinit {
        ring.deallocate()
        waiting.deallocate()
        due.deallocate()
    }

    /// Queues an event; false if the ring is full. One producing thread at a time.
    @discardableResult
    func push(_ event: AUParameterEvent) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < Self.capacity else { return false }
        ring[t % Self.capacity] = event
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Drops everything pending (reset, deallocateRenderResources). Not while a render runs.
    func clear() {
        head.store(tail.load(ordering: .acquiring), ordering: .releasing)
        waitingCount = 0
    }

    /// The events due in `frames` frames from `start` (sample time), oldest first, or nil. Immediate events
    /// (AUEventSampleTimeImmediate plus an offset) fall at that offset into this slice. Render thread.
    func take(start: AUEventSampleTime, frames: AUAudioFrameCount) -> UnsafePointer<AURenderEvent>? {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        for i in h..<t {
            var e = ring[i % Self.capacity]
            let offset = e.eventSampleTime &- AUEventSampleTimeImmediate
            if offset >= 0 && offset < 1 << 31 { e.eventSampleTime = start + offset }
            guard waitingCount < Self.capacity else { break }
            // Insertion keeps `waiting` ordered by time (stable); counts are small.
            var j = waitingCount
            while j > 0 && waiting[j - 1].eventSampleTime > e.eventSampleTime { waiting[j] = waiting[j - 1]; j -= 1 }
            waiting[j] = e
            waitingCount += 1
        }
        head.store(t, ordering: .releasing)
        let end = start + AUEventSampleTime(frames)
        var n = 0
        while n < waitingCount && waiting[n].eventSampleTime < end {
            var e = waiting[n]
            // Late events happen at the start of this slice.
            if e.eventSampleTime < start { e.eventSampleTime = start }
            e.next = nil
            due[n] = AURenderEvent(parameter: e)
            if n > 0 { due[n - 1].head.next = due + n }
            n += 1
        }
        guard n > 0 else { return nil }
        for k in n..<waitingCount { waiting[k - n] = waiting[k] }
        waitingCount -= n
        return UnsafePointer(due)
    }
}
