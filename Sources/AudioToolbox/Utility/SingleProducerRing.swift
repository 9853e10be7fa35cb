import Synchronization

/// A fixed-capacity FIFO of plain values between one producer thread and one consumer thread, without
/// locks or allocation after init: how the Audio Queue hands buffers to the device thread and back.
/// A side that is shared by several threads must be serialized by its owner.
final class SingleProducerRing<Element: BitwiseCopyable>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element>
    let capacity: Int
    private let head = Atomic<Int>(0)  // elements pushed (written by the producer)
    private let tail = Atomic<Int>(0)  // elements popped (written by the consumer)

    /// A ring holding at most `capacity` elements.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        slots = .allocate(capacity: self.capacity)
    }

    deinit { slots.deallocate() }

    /// Elements waiting (exact for either side's own view, a snapshot otherwise).
    var count: Int { head.load(ordering: .acquiring) - tail.load(ordering: .acquiring) }
    var isEmpty: Bool { count == 0 }

    /// Producer side: appends `element`, or returns false when the ring is full.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let h = head.load(ordering: .relaxed)
        guard h - tail.load(ordering: .acquiring) < capacity else { return false }
        (slots + h % capacity).initialize(to: element)
        head.store(h + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: the oldest element without removing it.
    func peek() -> Element? {
        let t = tail.load(ordering: .relaxed)
        guard head.load(ordering: .acquiring) > t else { return nil }
        return slots[t % capacity]
    }

    /// Consumer side: removes and returns the oldest element.
    func pop() -> Element? {
        let t = tail.load(ordering: .relaxed)
        guard head.load(ordering: .acquiring) > t else { return nil }
        let element = slots[t % capacity]
        tail.store(t + 1, ordering: .releasing)
        return element
    }
}
