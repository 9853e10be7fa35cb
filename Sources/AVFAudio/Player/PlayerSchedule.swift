import Foundation
import Synchronization

/// The timeline of an AVAudioPlayerNode, shared by client threads and the render thread under a
/// RenderTryLock: the render thread only tries it (a slice of silence when a client holds it), clients hold it
/// for a few instructions. Items are kept as unmanaged references in rings that only clients grow, and finished
/// items go to a second ring the service thread empties, so the render thread never allocates or releases.
final class PlayerSchedule: @unchecked Sendable {
    let lock = RenderTryLock()

    // Items waiting or playing (pending) and finished ones not yet completed (done).
    private var pending = UnmanagedRing()
    private var done = UnmanagedRing()

    /// Requested by the client: whether the player plays.
    private(set) var playing = false
    /// Render time at which playing starts (nan: the next render).
    private var startAt = Double.nan
    /// Whether the timeline is running: `origin` is the render time of player time 0.
    private var running = false
    private var origin = 0.0
    /// Player time reached when paused (the timeline resumes from it).
    private var pausedAt = 0.0
    /// The end of the last render (render time), and its host time.
    private(set) var lastRenderEnd = Double.nan
    private(set) var lastHostTime: UInt64 = 0
    /// Offline manual rendering: wait for file data instead of playing silence, and for the lock instead of
    /// skipping a slice (an offline render must be deterministic).
    var waitsForData = false
    /// Finished items waiting for the service thread: it takes the lock only when there are some, so it rarely
    /// meets a render.
    let finishedCount = Atomic<Int>(0)
    /// File streams to read ahead, kept apart from the render's lock (only clients and the service thread use it).
    private var streamList: [FileSegmentStream] = []
    private let streamLock = NSLock()

    deinit {
        while let item = pending.pop() { item.release() }
        while let item = done.pop() { item.release() }
    }

    // MARK: Client side (call with `lock` held)

    /// Adds an item; `.interrupts` first finishes everything scheduled, `.interruptsAtLoop` ends the current loop.
    func schedule(_ item: PlayerItem) {
        if item.options.contains(.interrupts) {
            while let old = pending.pop() { done.push(old); finishedCount.add(1, ordering: .relaxed) }
        } else if item.options.contains(.interruptsAtLoop) {
            pending.forEach { $0.takeUnretainedValue().endLoop = true }
        }
        pending.push(Unmanaged.passRetained(item))
        if let stream = item.stream { streamLock.withLock { streamList.append(stream) } }
    }

    /// Starts (or resumes) at render time `time` (nan: next render).
    func play(at time: Double) {
        playing = true
        if !running { startAt = time }
    }

    /// Stops the timeline where it is; play resumes from there.
    func pause() {
        if running, !lastRenderEnd.isNaN { pausedAt = lastRenderEnd - origin }
        running = false
        playing = false
        startAt = .nan
    }

    /// Finishes every item and rewinds the timeline.
    func stop() {
        while let old = pending.pop() { done.push(old); finishedCount.add(1, ordering: .relaxed) }
        running = false
        playing = false
        startAt = .nan
        pausedAt = 0
    }

    /// Player time of render time `t`, while the timeline runs.
    func playerTime(_ t: Double) -> Double? { running ? t - origin : nil }
    /// Render time of player time `p`, while the timeline runs.
    func renderTime(_ p: Double) -> Double? { running ? p + origin : nil }

    /// Takes the finished items (for the service thread to complete); call with the lock held.
    func takeDone() -> [PlayerItem] {
        var items: [PlayerItem] = []
        while let item = done.pop() { items.append(item.takeRetainedValue()) }
        finishedCount.store(0, ordering: .relaxed)
        return items
    }

    /// The file streams still being read, for the service thread to top up (no render lock needed).
    func streams() -> [FileSegmentStream] {
        streamLock.withLock { streamList.filter { !$0.isComplete } }
    }

    /// Forgets the streams of finished items.
    func forgetStreams(of items: [PlayerItem]) {
        let gone = Set(items.compactMap { $0.stream.map(ObjectIdentifier.init) })
        guard !gone.isEmpty else { return }
        streamLock.withLock { streamList.removeAll { gone.contains(ObjectIdentifier($0)) } }
    }

    /// Room for finished items, made by clients so the render thread never has to.
    func reserve() {
        done.reserve(pending.count + 1)
    }

    // MARK: Render side

    /// Renders `frames` frames starting at render time `time` into `output` (deinterleaved Float32).
    /// Returns whether anything but silence was written.
    func render(_ output: UnsafeMutableAudioBufferListPointer, frames: Int, time: Double, hostTime: UInt64) -> Bool {
        // The output is written once, not cleared first: `silentFrom` is how far it has been written or zeroed.
        var silentFrom = 0
        if waitsForData {
            lock.lock()  // offline: a slice is never skipped
        } else if !lock.tryLock() {
            Self.zero(output, from: 0, to: frames)
            return false
        }
        let wrote = renderLocked(output, frames: frames, time: time, hostTime: hostTime, silentFrom: &silentFrom)
        lock.unlock()
        Self.zero(output, from: silentFrom, to: frames)
        return wrote
    }

    /// Zeroes frames `from..<to` of every channel. (A static function: a nested one capturing the render's
    /// variables would allocate a context in a debug build.)
    @inline(__always)
    private static func zero(_ output: UnsafeMutableAudioBufferListPointer, from: Int, to: Int) {
        guard to > from else { return }
        for c in 0..<output.count {
            if let p = output[c].mData?.assumingMemoryBound(to: Float.self) { (p + from).update(repeating: 0, count: to - from) }
        }
    }

    private func renderLocked(_ output: UnsafeMutableAudioBufferListPointer, frames: Int, time: Double, hostTime: UInt64,
                              silentFrom: inout Int) -> Bool {
        let channels = output.count
        lastRenderEnd = time + Double(frames)
        lastHostTime = hostTime
        guard playing else { return false }
        var f = 0
        if !running {
            if startAt.isNaN { startAt = time }
            if startAt >= time + Double(frames) { return false }
            f = max(0, Int((startAt - time).rounded(.up)))
            origin = startAt - pausedAt
            running = true
        }
        var wrote = false
        while f < frames, let handle = pending.peek() {
            let item = handle.takeUnretainedValue()
            if !item.started {
                if let when = item.when {
                    let now = time + Double(f) - origin
                    if when > now {
                        f += min(Int((when - now).rounded(.up)), frames - f)
                        continue
                    }
                }
                item.started = true
            }
            let want = min(item.frames - item.position, frames - f)
            Self.zero(output, from: silentFrom, to: f)
            silentFrom = max(silentFrom, f)
            var n = 0
            if let buffer = item.buffer {
                n = want
                let source = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
                let sourceChannels = Int(buffer.format.channelCount)
                for c in 0..<channels {
                    guard let out = output[c].mData?.assumingMemoryBound(to: Float.self),
                          let data = source[min(c % max(sourceChannels, 1), source.count - 1)].mData?.assumingMemoryBound(to: Float.self)
                    else { continue }
                    (out + f).update(from: data + item.position, count: n)
                }
            } else if let stream = item.stream {
                n = stream.copy(into: output, channels: channels, offset: f, count: want)
                while n < want && waitsForData && !(stream.isComplete && stream.available == 0) {
                    usleep(200)  // offline: the service thread is reading; real time never waits
                    n += stream.copy(into: output, channels: channels, offset: f + n, count: want - n)
                }
                if n < want && stream.isComplete && stream.available == 0 {
                    item.position = item.frames - n  // the file ended early: finish it
                }
            }
            if n > 0 { wrote = true }
            silentFrom = max(silentFrom, f + n)
            item.position += n
            if item.position >= item.frames {
                if item.options.contains(.loops) && !item.endLoop && item.frames > 0 {
                    item.position = 0
                } else if done.hasRoom {
                    done.push(pending.pop()!)
                    finishedCount.add(1, ordering: .releasing)
                } else {
                    break  // no room to hand it over: finish it next slice
                }
            } else if n < want {
                break  // a file underran: the rest of the slice is silence
            }
            f += n
        }
        return wrote
    }
}

/// A ring of unmanaged object references: grown only by clients (under the schedule's lock), so pushes from
/// the render thread never allocate; `hasRoom` says whether one would fit.
struct UnmanagedRing: ~Copyable {
    private var slots = UnsafeMutablePointer<Unmanaged<PlayerItem>>.allocate(capacity: 16)
    private var capacity = 16
    private var head = 0
    private(set) var count = 0

    var hasRoom: Bool { count < capacity }

    deinit { slots.deallocate() }

    mutating func reserve(_ n: Int) {
        guard n > capacity else { return }
        var newCapacity = capacity
        while newCapacity < n { newCapacity *= 2 }
        let newSlots = UnsafeMutablePointer<Unmanaged<PlayerItem>>.allocate(capacity: newCapacity)
        for i in 0..<count { newSlots[i] = slots[(head + i) % capacity] }
        slots.deallocate()
        slots = newSlots
        capacity = newCapacity
        head = 0
    }

    mutating func push(_ item: Unmanaged<PlayerItem>) {
        if count == capacity { reserve(capacity * 2) }
        slots[(head + count) % capacity] = item
        count += 1
    }

    func peek() -> Unmanaged<PlayerItem>? { count > 0 ? slots[head] : nil }

    mutating func pop() -> Unmanaged<PlayerItem>? {
        guard count > 0 else { return nil }
        let item = slots[head]
        head = (head + 1) % capacity
        count -= 1
        return item
    }

    func forEach(_ body: (Unmanaged<PlayerItem>) -> Void) {
        for i in 0..<count { body(slots[(head + i) % capacity]) }
    }
}
