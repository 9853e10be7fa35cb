import Foundation

/// Bars and beats from the tempo track's time-signature meta events (FF 58 nn dd cc bb); 4/4 until
/// the first. A beat is the signature's denominator note (an eighth in 6/8); beat times are in quarters.
struct TimeSignatureMap {
    struct Segment {
        var beat: Double        // where the signature starts (quarters)
        var bar: Int            // bar number (0-based) there
        var numerator: Int
        var unit: Double        // quarters per signature beat
        var barLength: Double { Double(numerator) * unit }
    }
    private(set) var segments: [Segment] = [Segment(beat: 0, bar: 0, numerator: 4, unit: 1)]

    init(track: MusicTrackObject) {
        for e in track.events where e.type == kMusicEventType_Meta {
            let meta = e.payload.data(from: 0)
            guard meta.count >= 10, meta[0] == 0x58, e.payload.uint32(at: 4) >= 2 else { continue }
            let numerator = Int(meta[8]), power = Int(meta[9])
            guard numerator > 0, power <= 8 else { continue }
            add(beat: max(0, e.time), numerator: numerator, unit: 4 / Double(1 << power))
        }
    }

    private mutating func add(beat: Double, numerator: Int, unit: Double) {
        let last = segments[segments.count - 1]
        if beat <= last.beat {
            segments[segments.count - 1].numerator = numerator
            segments[segments.count - 1].unit = unit
            return
        }
        // A signature that falls inside a bar starts a new bar there.
        let bars = Int(((beat - last.beat) / last.barLength).rounded(.up))
        segments.append(Segment(beat: beat, bar: last.bar + bars, numerator: numerator, unit: unit))
    }

    func barBeatTime(_ beats: Double, subbeatDivisor: UInt32) -> CABarBeatTime {
        var i = segments.count - 1
        while i > 0 && segments[i].beat > beats { i -= 1 }
        let s = segments[i]
        let within = beats - s.beat
        let bars = (within / s.barLength).rounded(.down)
        let inBar = within - bars * s.barLength
        let beatIndex = min(Double(s.numerator - 1), max(0, (inBar / s.unit).rounded(.down)))
        let fraction = max(0, inBar / s.unit - beatIndex)
        let divisor = UInt16(clamping: subbeatDivisor)
        let sub = min(Double(max(divisor, 1) - 1), (fraction * Double(divisor)).rounded(.down))
        let bar = Int32(clamping: s.bar + Int(bars.clamped(-2e9, 2e9)) + 1)
        return CABarBeatTime(bar: bar, beat: UInt16(beatIndex) + 1, subbeat: divisor == 0 ? 0 : UInt16(sub),
                             subbeatDivisor: divisor, reserved: 0)
    }

    func beats(_ t: CABarBeatTime) -> Double {
        let bar = Int(t.bar) - 1
        var i = segments.count - 1
        while i > 0 && segments[i].bar > bar { i -= 1 }
        let s = segments[i]
        let sub = t.subbeatDivisor == 0 ? 0 : Double(t.subbeat) / Double(t.subbeatDivisor)
        return s.beat + Double(bar - s.bar) * s.barLength + (Double(t.beat) - 1 + sub) * s.unit
    }
}

private extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}
