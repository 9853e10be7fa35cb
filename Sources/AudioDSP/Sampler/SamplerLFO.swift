/// A SoundFont LFO as FluidSynth runs it: a triangle in -1...1 that starts at 0 rising, after a delay.
struct SamplerLFO {
    /// Position in the cycle, 0..<4 (0 → 0, 1 → +1, 2 → 0, 3 → -1).
    var phase = 0.0
    /// Phase gained per sample (4 × frequency / sample rate).
    var increment = 0.0
    var delay = 0
    var elapsed = 0

    @_noLocks @_noAllocation
    mutating func start(delay: Int, increment: Double) {
        self.delay = max(delay, 0)
        self.increment = increment
        phase = 0
        elapsed = 0
    }

    @_noLocks @_noAllocation
    mutating func advance(_ n: Int) {
        var running = n
        if elapsed < delay {
            let wait = min(delay - elapsed, n)
            elapsed += wait
            running -= wait
        }
        if running > 0 {
            phase += increment * Double(running)
            if phase >= 4 { phase -= 4 * Double(Int(phase / 4)) }
        }
    }

    var value: Double {
        @_noLocks @_noAllocation get {
            if phase < 1 { return phase }
            if phase < 3 { return 2 - phase }
            return phase - 4
        }
    }
}
