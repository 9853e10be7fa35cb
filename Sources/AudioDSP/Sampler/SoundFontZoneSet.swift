/// The zones of one preset or instrument: an optional global zone and a run of zones in the zone table.
struct SoundFontZoneSet: Sendable {
    /// Index of the global zone in the zone table, or -1.
    var global = -1
    var first = 0
    var count = 0
}
