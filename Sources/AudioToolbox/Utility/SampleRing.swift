import Synchronization

/// A fixed-capacity FIFO of Float32 samples between one producer thread and one consumer thread: bulk writes and
/// reads, no lock, no allocation after init. How the speech unit's synthesis thread hands audio to the render thread.
final class SampleRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    let capacity: Int
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    /// A ring holding at most `capacity` samples.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
        storage.initialize(repeating: 0, count: self.capacity)
    }

    deinit { storage.deallocate() }

    /// Samples waiting (exact for either side's own view).
    var count: Int { written.load(ordering: .acquiring) - read.load(ordering: .acquiring) }

    /// Producer: appends as many of `samples` as fit; returns how many.
    func write(_ samples: UnsafePointer<Float>, count n: Int) -> Int {
        let w = written.load(ordering: .relaxed)
        let room = capacity - (w - read.load(ordering: .acquiring))
        let k = min(n, room)
        for i in 0..<k { storage[(w + i) % capacity] = samples[i] }
        written.store(w + k, ordering: .releasing)
        return k
    }

    /// Consumer: moves up to `n` samples into `destination`; returns how many.
    func read(into destination: UnsafeMutablePointer<Float>, count n: Int) -> Int {
        let r = read.load(ordering: .relaxed)
        let k = min(n, written.load(ordering: .acquiring) - r)
        for i in 0..<k { destination[i] = storage[(r + i) % capacity] }
        read.store(r + k, ordering: .releasing)
        return k
    }

    /// Consumer: drops everything waiting.
    func discardAll() { read.store(written.load(ordering: .acquiring), ordering: .releasing) }

    /// Samples written so far (a position `discard(upTo:)` takes).
    var writePosition: Int { written.load(ordering: .acquiring) }

    /// Drops what was written before `position` and is still unread, keeping anything written after (reader side).
    func discard(upTo position: Int) {
        let r = read.load(ordering: .relaxed)
        let target = min(position, written.load(ordering: .acquiring))
        if target > r { read.store(target, ordering: .releasing) }
    }
}
