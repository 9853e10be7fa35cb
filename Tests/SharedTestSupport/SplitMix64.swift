/// SplitMix64 (Steele, Lea and Flood): a small seeded generator, so that a randomised test (chunk sizes, seek
/// targets, mutated bytes) is the same on every run and a failure can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
