/// A preset or instrument zone as parsed: its key and velocity ranges, its generators (a slice of the SoundFont's
/// generator table, at most one entry per generator) and modulators, and what it links to.
struct SoundFontZone: Sendable {
    var keyLow = 0, keyHigh = 127, velocityLow = 0, velocityHigh = 127
    /// The zone's generators: `generatorIDs[generatorStart ..< generatorStart + generatorCount]` with their values.
    var generatorStart = 0, generatorCount = 0
    /// Bit n set when generator n is present.
    var generatorMask: UInt64 = 0
    /// The zone's modulators: `modulators[modulatorStart ..< modulatorStart + modulatorCount]`.
    var modulatorStart = 0, modulatorCount = 0
    /// The instrument (preset zones) or sample (instrument zones) index; -1 in a global zone.
    var link = -1

    @_noLocks @_noAllocation
    func contains(key: Int, velocity: Int) -> Bool {
        key >= keyLow && key <= keyHigh && velocity >= velocityLow && velocity <= velocityHigh
    }
}
