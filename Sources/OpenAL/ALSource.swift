import Synchronization

/// An OpenAL source: its properties and its buffer queue with the play cursor. The AL thread changes it
/// holding ALState's lock; the render callback of its mixer input advances the cursor holding the same lock
/// (taken with tryLock), so both see one consistent state. Whoever moves the cursor publishes state, entry and
/// frame as one atomic word, which queries read without the render lock (a poller never costs a render its slice).
final class ALSource {
    /// What a query needs of the play cursor: one consistent reading.
    struct Playback {
        var state: ALenum
        var current: Int
        var cursor: Int
    }

    /// state (2 bits), current (24 bits) and cursor (38 bits), as last published.
    private let published = Atomic<UInt64>(0)

    let id: ALuint
    /// The mixer input this source renders through.
    let bus: Int
    var position = SIMD3<Float>(0, 0, 0)
    var velocity = SIMD3<Float>(0, 0, 0)
    var direction = SIMD3<Float>(0, 0, 0)
    var gain: Float = 1
    var minGain: Float = 0
    var maxGain: Float = 1
    var pitch: Float = 1
    var looping = false
    var relative = false
    var referenceDistance: Float = 1
    var rolloff: Float = 1
    var maxDistance: Float = .greatestFiniteMagnitude
    var coneInner: Float = 360
    var coneOuter: Float = 360
    var coneOuterGain: Float = 0
    var state: ALenum = AL_INITIAL
    var type: ALenum = AL_UNDETERMINED
    var queue: [ALBuffer] = []
    /// The queue entry playing and the frame in it.
    var current = 0
    var cursor = 0
    /// An offset (in frames) set while not playing: applied by the next play.
    var pendingOffset: Int?
    /// Whether the last play/stop/pause/rewind call left it playing: its mixer input's Enable. Kept apart from
    /// `state` (which the render thread changes) so that setting a position never takes the render lock.
    var audible = false
    /// Whether the mixer input was last set to bypass (stereo buffers, as the spec says, or a mono device).
    var stereoMode = false

    init(id: ALuint, bus: Int) {
        self.id = id
        self.bus = bus
    }

    var totalFrames: Int { queue.reduce(0) { $0 + $1.frames } }

    /// Publishes state, current and cursor for lock-free queries (by the holder of the render lock, after a change).
    @inline(__always) func publish() {
        let code: UInt64 = state == AL_PLAYING ? 1 : state == AL_PAUSED ? 2 : state == AL_STOPPED ? 3 : 0
        let entry = UInt64(min(max(current, 0), (1 << 24) - 1)), frame = UInt64(min(max(cursor, 0), (1 << 38) - 1))
        published.store(code << 62 | entry << 38 | frame, ordering: .releasing)
    }

    /// The play cursor as last published (any thread; the queue itself is read under the API lock).
    var playback: Playback {
        let word = published.load(ordering: .acquiring)
        let code = word >> 62
        let state = code == 1 ? AL_PLAYING : code == 2 ? AL_PAUSED : code == 3 ? AL_STOPPED : AL_INITIAL
        return Playback(state: state, current: Int((word >> 38) & ((1 << 24) - 1)), cursor: Int(word & ((1 << 38) - 1)))
    }

    /// AL_BUFFERS_PROCESSED at `p`: none while looping or for a static source, all once stopped.
    func processed(at p: Playback) -> Int {
        if looping || type != AL_STREAMING { return 0 }
        switch p.state {
        case AL_STOPPED: return queue.count
        case AL_PLAYING, AL_PAUSED: return min(p.current, queue.count)
        default: return 0
        }
    }

    /// AL_BUFFERS_PROCESSED now (the render lock held).
    var processed: Int { processed(at: Playback(state: state, current: current, cursor: cursor)) }

    /// The play position at `p` in frames from the start of the queue (0 unless playing or paused).
    func sampleOffset(at p: Playback) -> Int {
        guard p.state == AL_PLAYING || p.state == AL_PAUSED else { return 0 }
        var frames = 0
        for i in 0..<min(p.current, queue.count) { frames += queue[i].frames }
        return frames + p.cursor
    }

    /// Moves the cursor to `frame` frames from the start of the queue (the caller has checked the range).
    func seek(_ frame: Int) {
        var rest = frame
        current = 0
        while current < queue.count, rest >= queue[current].frames, queue[current].frames > 0 || rest > 0 {
            rest -= queue[current].frames
            current += 1
        }
        cursor = rest
    }

    /// The first queued buffer (the format of the whole queue).
    var firstBuffer: ALBuffer? { queue.first }
}
