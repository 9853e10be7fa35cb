import COCASupport
import Synchronization

/// Events for an instrument's next render from any number of threads (a control thread, a MIDI thread,
/// the render thread's own notifications): a bounded multi-producer, single-consumer ring of preallocated
/// slots (Vyukov's design: each slot carries a sequence number that says whose turn it is). Neither side
/// locks or allocates; a push into a full ring fails and the caller answers an error.
final class MusicDeviceEventQueue: @unchecked Sendable {
    static var capacity: Int { musicDeviceEventQueueCapacity }
    private let slots: UnsafeMutablePointer<MusicDeviceEvent>
    private let sequences: UnsafeMutablePointer<UInt64>
    private let tail = Atomic<Int>(0)  // next slot to claim (producers)
    private var head = 0               // next slot to read (the render thread alone)

    init() {
        slots = .allocate(capacity: musicDeviceEventQueueCapacity)
        slots.initialize(repeating: MusicDeviceEvent(), count: musicDeviceEventQueueCapacity)
        sequences = .allocate(capacity: musicDeviceEventQueueCapacity)
        for i in 0..<musicDeviceEventQueueCapacity { sequences[i] = UInt64(i) }
    }

    deinit {
        slots.deallocate()
        sequences.deallocate()
    }

    /// Adds an event; false when the ring is full. Safe on any thread, the render thread included.
    @_noLocks @_noAllocation
    func push(_ event: MusicDeviceEvent) -> Bool {
        let mask = musicDeviceEventQueueCapacity - 1
        var position = tail.load(ordering: .relaxed)
        while true {
            let slot = position & mask
            let sequence = Int(truncatingIfNeeded: oca_atomic_load_u64(sequences + slot))
            if sequence == position {
                let (exchanged, current) = tail.compareExchange(expected: position, desired: position + 1, ordering: .relaxed)
                if exchanged {
                    slots[slot] = event
                    oca_atomic_store_u64(sequences + slot, UInt64(position + 1))
                    return true
                }
                position = current
            } else if sequence < position {
                return false
            } else {
                position = tail.load(ordering: .relaxed)
            }
        }
    }

    /// Takes the oldest complete event, if any. The render thread only.
    @_noLocks @_noAllocation
    func pop() -> MusicDeviceEvent? {
        let mask = musicDeviceEventQueueCapacity - 1
        let slot = head & mask
        guard Int(truncatingIfNeeded: oca_atomic_load_u64(sequences + slot)) == head + 1 else { return nil }
        let event = slots[slot]
        oca_atomic_store_u64(sequences + slot, UInt64(head + musicDeviceEventQueueCapacity))
        head += 1
        return event
    }
}

/// Slots in an instrument's event queue (a power of two; a computed constant, so no lazy global on the render
/// path). Enough for a dense MIDI file's events in one slice of 4,096 frames.
var musicDeviceEventQueueCapacity: Int { 2048 }
