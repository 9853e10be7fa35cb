import Foundation

/// The module's own MIDI thread: runs deliveries in timestamp order (ties in the order they were
/// scheduled), each when the host clock reaches it, as Apple's server thread does. A timed queue
/// rather than a dispatch queue so that MIDIFlushOutput can take back what is still pending.
final class MIDIScheduler: @unchecked Sendable {
    private struct Item {
        let due: UInt64
        let order: UInt64
        /// The destination a MIDISend went to (MIDIFlushOutput drops these), else 0.
        let destination: MIDIEndpointRef
        let work: () -> Void
    }

    private let condition = NSCondition()
    private var pending: [Item] = []
    private var nextOrder: UInt64 = 0

    /// Starts the MIDI thread (user-interactive priority).
    init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "OCA.CoreMIDI"  // the kernel keeps 15 bytes: a longer name is refused, racing the one run() sets
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Runs `work` on the MIDI thread at host time `due` (now if it has passed).
    func schedule(at due: UInt64, destination: MIDIEndpointRef = 0, _ work: @escaping () -> Void) {
        let now = AudioGetCurrentHostTime()
        condition.lock()
        nextOrder += 1
        let item = Item(due: max(due, now), order: nextOrder, destination: destination, work: work)
        // Binary search: after everything due no later (the new item's order is the largest).
        var low = 0, high = pending.count
        while low < high {
            let mid = (low + high) / 2
            if pending[mid].due <= item.due { low = mid + 1 } else { high = mid }
        }
        pending.insert(item, at: low)
        condition.signal()
        condition.unlock()
    }

    /// Drops pending deliveries to `destination` (every destination for 0).
    func flush(_ destination: MIDIEndpointRef) {
        condition.lock()
        pending.removeAll { $0.destination != 0 && (destination == 0 || $0.destination == destination) }
        condition.unlock()
    }

    private func run() {
        setKernelThreadName("OCA.CoreMIDI")
        condition.lock()
        while true {
            guard let first = pending.first else { condition.wait(); continue }
            let now = AudioGetCurrentHostTime()
            if first.due > now {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(first.due - now) / 1e9))
                continue
            }
            pending.removeFirst()
            condition.unlock()
            first.work()
            condition.lock()
        }
    }
}
