/// Work besides rendering that a unit's render path may have to do, as bits of one atomic word in AUBase, so that
/// an idle unit tests one word instead of visiting its notify list, parameter queue, parameter tables and meter
/// (each a separate object: in a 64-unit chain those visits were cache misses that dominated the dispatch cost).
struct RenderWork: OptionSet {
    let rawValue: UInt32
    /// The unit has render-notify callbacks.
    static let notifies = RenderWork(rawValue: 1)
    /// Scheduled parameter events are queued, or a parameter curve was active in the last slice.
    static let parameters = RenderWork(rawValue: 2)
    /// A graph measures the unit's render load.
    static let meter = RenderWork(rawValue: 4)
}
