import Synchronization

/// Parameter events scheduled for the next render: a single-producer, single-consumer ring of
/// preallocated slots. `AudioUnitScheduleParameters` pushes (from one thread at a time: the render
/// thread's pre-render notification or a control thread); the render drains at the start of a slice.
final class ParameterEventQueue: @unchecked Sendable {
    static var capacity: Int { parameterEventQueueCapacity }
    private let slots: UnsafeMutablePointer<AudioUnitParameterEvent>
    private let head = Atomic<Int>(0)  // next to read (consumer)
    private let tail = Atomic<Int>(0)  // next to write (producer)

    init() {
        slots = .allocate(capacity: parameterEventQueueCapacity)
    }

    deinit { slots.deallocate() }

    /// Appends events; false (and nothing added) if they do not all fit. Safe on the render thread.
    @_noLocks @_noAllocation
    func push(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: Int) -> Bool {
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        guard t - h + count <= parameterEventQueueCapacity else { return false }
        for i in 0..<count { slots[(t + i) % parameterEventQueueCapacity] = events[i] }
        tail.store(t + count, ordering: .releasing)
        return true
    }

    /// Moves every pending event into `out` (capacity `capacity`), sorted by start offset (stable).
    /// Returns the count. Safe on the render thread.
    @_noLocks @_noAllocation
    func drain(into out: UnsafeMutablePointer<AudioUnitParameterEvent>) -> Int {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        let n = t - h
        guard n > 0 else { return 0 }
        for i in 0..<n {
            // Insertion sort by start offset; n is small.
            let e = slots[(h + i) % parameterEventQueueCapacity]
            var j = i
            while j > 0 && parameterEventOffset(out[j - 1]) > parameterEventOffset(e) { out[j] = out[j - 1]; j -= 1 }
            out[j] = e
        }
        head.store(t, ordering: .releasing)
        return n
    }
}

/// Slots in a unit's parameter event queue (a computed constant: no lazy global on the render path).
var parameterEventQueueCapacity: Int { 1024 }

/// Where in the slice an event starts.
@_noLocks @_noAllocation @inline(__always)
func parameterEventOffset(_ e: AudioUnitParameterEvent) -> Int {
    e.eventType == .parameterEvent_Ramped ? Int(e.eventValues.ramp.startBufferOffset) : Int(e.eventValues.immediate.bufferOffset)
}
