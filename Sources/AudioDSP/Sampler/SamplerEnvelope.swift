/// A SoundFont DAHDSR envelope stepped in whole samples, with FluidSynth's shape: the value climbs linearly
/// from 0 to 1 in the attack, holds, then falls linearly at 1 per decay time until the sustain level, and in
/// the release falls at 1 per release time to 0. What the value means (linear amplitude in the attack, 96 dB per
/// unit afterwards for the volume envelope) is the voice's business.
struct SamplerEnvelope {
    enum Section { case delay, attack, hold, decay, sustain, release, finished }

    var section = Section.delay

    /// In the release or finished.
    var isReleasing: Bool {
        @_noLocks @_noAllocation get {
            switch section {
            case .release, .finished: return true
            default: return false
            }
        }
    }

    /// Past the attack and hold (decay, sustain, release or finished), where the value only falls.
    var isFalling: Bool {
        @_noLocks @_noAllocation get {
            switch section {
            case .decay, .sustain, .release, .finished: return true
            default: return false
            }
        }
    }
    var value = 0.0
    /// Samples spent in the current section (delay, attack, hold).
    var count = 0
    var delay = 0, attack = 1, hold = 0
    /// Value lost per sample in the decay and release sections.
    var decayRate = 1.0, releaseRate = 1.0
    var sustain = 0.0

    /// Sets the segment lengths (samples) and sustain level and restarts in the delay section.
    @_noLocks @_noAllocation
    mutating func start(delay: Int, attack: Int, hold: Int, decay: Int, sustain: Double, release: Int) {
        self.delay = max(delay, 0)
        self.attack = max(attack, 1)
        self.hold = max(hold, 0)
        decayRate = decay > 0 ? 1 / Double(decay) : 2
        releaseRate = release > 0 ? 1 / Double(release) : 2
        self.sustain = min(max(sustain, 0), 1)
        section = .delay
        value = 0
        count = 0
    }

    /// Moves the envelope `n` samples on.
    @_noLocks @_noAllocation
    mutating func advance(_ n: Int) {
        var left = n
        while left > 0 {
            switch section {
            case .delay:
                let step = min(left, delay - count)
                count += step; left -= step
                if count >= delay { section = .attack; count = 0 }
            case .attack:
                let step = min(left, attack - count)
                count += step; left -= step
                value = Double(count) / Double(attack)
                if count >= attack { value = 1; section = .hold; count = 0 }
            case .hold:
                let step = min(left, hold - count)
                count += step; left -= step
                if count >= hold { section = .decay; count = 0 }
            case .decay:
                value -= decayRate * Double(left)
                left = 0
                if value <= sustain { value = sustain; section = .sustain }
            case .sustain:
                left = 0
            case .release:
                value -= releaseRate * Double(left)
                left = 0
                if value <= 0 { value = 0; section = .finished }
            case .finished:
                left = 0
            }
        }
    }

    /// Enters the release section from wherever the envelope is; `fromAttack` converts the value first (the
    /// caller works out the equivalent level, since the attack's scale differs from the other sections').
    @_noLocks @_noAllocation
    mutating func release(convertedValue: Double?) {
        switch section {
        case .finished: return
        case .delay: value = 0
        case .attack: if let convertedValue { value = min(max(convertedValue, 0), 1) }
        default: break
        }
        section = .release
        count = 0
    }
}
