/// A gain that moves to a new target in a straight line over a fixed number of samples and then lands on it
/// exactly (a one-pole glide in Float stalls an ulp short, which would spoil bit-exact dry or unity settings).
/// Used for the reverbs' mix, gain and duck levels; copy it into a local in a render loop and store it back.
struct LinearRamp {
    /// The level applied now.
    private(set) var value: Float
    /// Where the level is heading.
    private(set) var target: Float
    private var step: Float = 0
    private var remaining = 0
    /// Samples a change takes.
    let length: Int

    /// A ramp resting at `value` whose changes take `length` samples (at least one).
    init(value: Float, length: Int) {
        self.value = value
        target = value
        self.length = length > 0 ? length : 1
    }

    /// True while a change is under way.
    var isMoving: Bool {
        @_noLocks @_noAllocation get { remaining > 0 }
    }

    /// Heads for `newTarget` from wherever the level is now (a no-op when it is already the target).
    @_noLocks @_noAllocation
    mutating func set(_ newTarget: Float) {
        if newTarget == target { return }
        target = newTarget
        remaining = length
        step = (newTarget - value) / Float(length)
    }

    /// Jumps to the target (before the first audio, or at a reset).
    @_noLocks @_noAllocation
    mutating func settle() {
        value = target
        remaining = 0
    }

    /// Advances one sample and returns the level for it.
    @inline(__always) @_noLocks @_noAllocation
    mutating func next() -> Float {
        if remaining > 0 {
            remaining -= 1
            value = remaining == 0 ? target : value + step
        }
        return value
    }
}
