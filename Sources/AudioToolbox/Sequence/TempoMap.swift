import Foundation

/// Beats <-> seconds from a tempo track's ExtendedTempo events: 120 BPM until the first one, each
/// tempo holding until the next. Made on demand from the tempo track (cheap; sequences have few).
struct TempoMap {
    /// Segment starts: beat, seconds at that beat, tempo from there on.
    private(set) var points: [(beat: Double, seconds: Double, bpm: Double)] = [(0, 0, 120)]

    static let defaultBPM = 120.0

    init(tempoEvents: [(beat: Double, bpm: Double)]) {
        for e in tempoEvents where e.bpm.isFinite && e.bpm > 0 && e.beat.isFinite {
            let beat = max(0, e.beat)
            let last = points[points.count - 1]
            if beat <= last.beat {
                points[points.count - 1].bpm = e.bpm  // same beat: the later event wins
            } else {
                points.append((beat, last.seconds + (beat - last.beat) * 60 / last.bpm, e.bpm))
            }
        }
    }

    init(track: MusicTrackObject) {
        self.init(tempoEvents: track.events.compactMap { e in
            e.type == kMusicEventType_ExtendedTempo ? (e.time, e.payload.load(as: ExtendedTempoEvent.self).bpm) : nil
        })
    }

    func seconds(forBeats beats: Double) -> Double {
        guard beats > 0 else { return beats * 60 / points[0].bpm }
        var i = points.count - 1
        while i > 0 && points[i].beat > beats { i -= 1 }
        let p = points[i]
        return p.seconds + (beats - p.beat) * 60 / p.bpm
    }

    func beats(forSeconds seconds: Double) -> Double {
        guard seconds > 0 else { return seconds * points[0].bpm / 60 }
        var i = points.count - 1
        while i > 0 && points[i].seconds > seconds { i -= 1 }
        let p = points[i]
        return p.beat + (seconds - p.seconds) * p.bpm / 60
    }
}
