import Foundation

/// An iterator: a track and a position in it (an index; `events.count` is past the last event).
/// Positions are clamped to the track when it was edited behind the iterator's back.
final class MusicEventIteratorObject {
    static let handles = LiveHandleTable()
    let track: MusicTrackObject
    var index = 0

    init(track: MusicTrackObject) { self.track = track }

    var position: Int {
        index = min(index, track.events.count)
        return index
    }
    var hasCurrent: Bool { position < track.events.count }
}
