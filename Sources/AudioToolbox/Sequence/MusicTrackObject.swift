import CoreMIDI
import Foundation

/// A track: events in time order (equal times keep the order they were added in) and the track
/// properties. Guarded by `MusicSequenceObject.lock`, like everything of a sequence.
final class MusicTrackObject {
    static let handles = LiveHandleTable()

    weak var sequence: MusicSequenceObject?
    let isTempoTrack: Bool
    var events: [MusicEventRecord] = []
    var loopInfo = MusicTrackLoopInfo(loopDuration: 0, numberOfLoops: 0)
    var offset: MusicTimeStamp = 0
    var muted = false
    var soloed = false
    var automatedParameters: UInt32 = 0
    /// A length the client set (kSequenceTrackProperty_TrackLength); the property answers the larger
    /// of this and the end of the last event.
    var userLength: MusicTimeStamp = 0
    var destNode: AUNode?
    var destEndpoint: MIDIEndpointRef?
    private(set) var handle: MusicTrack?

    init(sequence: MusicSequenceObject, isTempoTrack: Bool) {
        self.sequence = sequence
        self.isTempoTrack = isTempoTrack
    }

    func activate() -> MusicTrack {
        let h = OpaquePointer(Self.handles.add(self))
        handle = h
        return h
    }

    func deactivate() {
        if let handle { _ = Self.handles.remove(UnsafeMutableRawPointer(handle), as: MusicTrackObject.self) }
        handle = nil
    }

    /// The index of the first event later than `time` (where an event at `time` is added).
    func insertionIndex(_ time: MusicTimeStamp) -> Int {
        var low = 0, high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].time <= time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the first event at or after `time`.
    func firstIndex(atOrAfter time: MusicTimeStamp) -> Int {
        var low = 0, high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].time < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    @discardableResult
    func insert(_ event: MusicEventRecord) -> Int {
        let i = insertionIndex(event.time)
        events.insert(event, at: i)
        return i
    }

    /// The end of the last sounding event.
    var eventsEnd: MusicTimeStamp { events.reduce(0) { max($0, $1.end) } }

    /// kSequenceTrackProperty_TrackLength.
    var length: MusicTimeStamp { max(userLength, eventsEnd) }

    /// Events in [start, end).
    func range(_ start: MusicTimeStamp, _ end: MusicTimeStamp) -> Range<Int> {
        let a = firstIndex(atOrAfter: start)
        let b = max(a, firstIndex(atOrAfter: end))
        return a..<b
    }

    /// The end of an edit range: kMusicTimeStamp_EndOfTrack means the track's length (for shifts).
    func resolvedEnd(_ end: MusicTimeStamp) -> MusicTimeStamp { end >= kMusicTimeStamp_EndOfTrack ? length : end }

    func moveEvents(_ start: MusicTimeStamp, _ end: MusicTimeStamp, by delta: MusicTimeStamp) {
        let r = range(start, end)
        let moved = events[r].map { $0.moved(to: max(0, $0.time + delta)) }
        events.removeSubrange(r)
        for e in moved { insert(e) }
    }

    func clear(_ start: MusicTimeStamp, _ end: MusicTimeStamp) { events.removeSubrange(range(start, end)) }

    func cut(_ start: MusicTimeStamp, _ end: MusicTimeStamp) {
        let shift = resolvedEnd(end) - start
        clear(start, end)
        let later = firstIndex(atOrAfter: start)
        for i in later..<events.count { events[i].time = max(start, events[i].time - shift) }
    }

    /// Copies of the events in [start, end) with times relative to `start`.
    func copies(_ start: MusicTimeStamp, _ end: MusicTimeStamp) -> [MusicEventRecord] {
        events[range(start, end)].map { $0.moved(to: $0.time - start) }
    }

    func merge(_ copies: [MusicEventRecord], at time: MusicTimeStamp) {
        for e in copies { insert(e.moved(to: time + e.time)) }
    }

    func copyInsert(_ copies: [MusicEventRecord], duration: MusicTimeStamp, at time: MusicTimeStamp) {
        let later = firstIndex(atOrAfter: time)
        for i in later..<events.count { events[i].time += duration }
        merge(copies, at: time)
    }
}
