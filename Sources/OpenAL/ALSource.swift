/// An OpenAL source: its properties and its buffer queue with the play cursor. The AL thread changes it
/// holding ALState's lock; the render callback of its mixer input advances the cursor holding the same lock
/// (taken with tryLock), so both see one consistent state.
final class ALSource {
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

    /// AL_BUFFERS_PROCESSED: none while looping or for a static source, all once stopped.
    var processed: Int {
        if looping || type != AL_STREAMING { return 0 }
        switch state {
        case AL_STOPPED: return queue.count
        case AL_PLAYING, AL_PAUSED: return min(current, queue.count)
        default: return 0
        }
    }

    /// The play position in frames from the start of the queue (0 unless playing or paused).
    var sampleOffset: Int {
        guard state == AL_PLAYING || state == AL_PAUSED else { return 0 }
        var frames = 0
        for i in 0..<min(current, queue.count) { frames += queue[i].frames }
        return frames + cursor
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
