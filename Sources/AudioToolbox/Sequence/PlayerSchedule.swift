import CoreMIDI
import Foundation

/// A sequence flattened for playing from a beat: every event that will play, with its sequence time in
/// seconds, its target and (for notes) the note-off as its own event. Muted tracks and tracks silenced by
/// another's solo are left out; track offsets and loops are applied; note-offs sort before other events
/// at the same time. Built off the render thread, under the sequence lock.
struct PlayerSchedule {
    enum Target: Hashable {
        case unit(AudioUnit)
        case endpoint(MIDIEndpointRef)
        case none
    }
    enum Action {
        case midi(UInt8, UInt8, UInt8)
        case sysEx([UInt8])
        case parameter(ParameterEvent)
        case user(MusicEventPayload, track: MusicTrack?)
        case preset(MusicEventPayload)
        /// An extended note's start (its event data) and end; `slot` pairs the two.
        case startNote(MusicEventPayload, slot: Int)
        case stopNote(group: MusicDeviceGroupID, slot: Int)
    }
    struct Item {
        var beat: Double
        var seconds: Double
        var target: Target
        var action: Action
        var order: Int
        /// For a note-on: the index (after sorting) of its note-off.
        var noteOff: Int = -1
        var isNoteOff = false
    }

    private(set) var items: [Item] = []
    /// How many extended notes the schedule holds (slots 0..<noteSlots).
    private(set) var noteSlots = 0
    let startBeat: Double
    let startSeconds: Double
    let tempo: TempoMap

    /// Loops that the track says repeat forever are unrolled this many beats past the start (and at most
    /// `maximumItems` events are scheduled): a player runs for hours before it would run out.
    static let foreverHorizon: Double = 100_000
    static let maximumItems = 1_000_000

    /// `carryingNoteOffs`: notes that began before `beat` and end after it keep their note-offs (a replan
    /// after an edit, where those notes are sounding).
    init(_ sequence: MusicSequenceObject, from beat: Double, carryingNoteOffs: Bool = false) {
        startBeat = beat
        tempo = sequence.tempoMap
        startSeconds = tempo.seconds(forBeats: beat)
        let graph = sequence.graph ?? sequence.ownedGraph
        let defaultNode = sequence.defaultNode()
        let soloing = sequence.tracks.contains { $0.soloed }
        var raw: [Item] = []
        var order = 0
        for track in sequence.tracks where !track.muted && (!soloing || track.soloed) {
            let target: Target
            if let e = track.destEndpoint {
                target = .endpoint(e)
            } else if let graph, let node = track.destNode ?? defaultNode {
                var unit: AudioUnit?
                AUGraphNodeInfo(graph, node, nil, &unit)
                target = unit.map { .unit($0) } ?? .none
            } else {
                target = .none
            }
            // Passes: the whole track once, then the loop region again (numberOfLoops passes in all).
            let length = track.length
            let loop = track.loopInfo
            var shifts: [(shift: Double, from: Double)] = [(0, 0)]
            if loop.loopDuration > 0 {
                let from = max(0, length - loop.loopDuration)
                // Bounded however short the loop: by the horizon and by the events the passes would make.
                let perPass = max(1, track.events.count - track.firstIndex(atOrAfter: from))
                let cap = min(Self.maximumItems / perPass, 100_000)
                let passes = min(loop.numberOfLoops == 0 ? Int.max : Int(loop.numberOfLoops), cap)
                var k = 1
                while k < passes {
                    let shift = Double(k) * loop.loopDuration
                    if from + shift + track.offset > beat + Self.foreverHorizon { break }
                    shifts.append((shift, from))
                    k += 1
                }
            }
            for (shift, from) in shifts where raw.count < Self.maximumItems {
                for e in track.events where e.time >= from {
                    if shift > 0 && e.time >= length { continue }
                    let t = e.time + shift + track.offset
                    order += 1
                    switch e.type {
                    case kMusicEventType_MIDINoteMessage:
                        let m = e.payload.load(as: MIDINoteMessage.self)
                        let off = t + max(0, Double(m.duration))
                        let ch = m.channel & 0x0F
                        guard t >= beat else {
                            if carryingNoteOffs && off >= beat {
                                raw.append(Item(beat: off, seconds: 0, target: target, action: .midi(0x80 | ch, m.note & 0x7F, m.releaseVelocity & 0x7F),
                                                order: order, isNoteOff: true))
                            }
                            continue
                        }
                        raw.append(Item(beat: t, seconds: 0, target: target, action: .midi(0x90 | ch, m.note & 0x7F, m.velocity & 0x7F), order: order))
                        raw.append(Item(beat: off, seconds: 0, target: target, action: .midi(0x80 | ch, m.note & 0x7F, m.releaseVelocity & 0x7F),
                                        order: order, isNoteOff: true))
                    case kMusicEventType_MIDIChannelMessage where t >= beat:
                        let m = e.payload.load(as: MIDIChannelMessage.self)
                        guard m.status >= 0x80 else { continue }
                        raw.append(Item(beat: t, seconds: 0, target: target, action: .midi(m.status, m.data1 & 0x7F, m.data2 & 0x7F), order: order))
                    case kMusicEventType_MIDIRawData where t >= beat:
                        raw.append(Item(beat: t, seconds: 0, target: target, action: .sysEx(e.payload.data(from: 4)), order: order))
                    case kMusicEventType_Parameter where t >= beat:
                        raw.append(Item(beat: t, seconds: 0, target: target, action: .parameter(e.payload.load(as: ParameterEvent.self)), order: order))
                    case kMusicEventType_ExtendedNote where t >= beat:
                        let group = e.payload.uint32(at: 4)
                        let duration = Double(e.payload.bytes.loadUnaligned(fromByteOffset: 8, as: Float32.self))
                        let slot = noteSlots
                        noteSlots += 1
                        if case .endpoint = target {
                            // A MIDI endpoint gets the nearest MIDI note.
                            let pitch = e.payload.bytes.loadUnaligned(fromByteOffset: 16, as: Float32.self)
                            let velocity = e.payload.bytes.loadUnaligned(fromByteOffset: 20, as: Float32.self)
                            let note = UInt8(clamping: Int(pitch.isFinite ? pitch.rounded() : 0).clamped(0, 127))
                            let vel = UInt8(clamping: Int(velocity.isFinite ? velocity.rounded() : 0).clamped(1, 127))
                            let ch = UInt8(group & 0x0F)
                            raw.append(Item(beat: t, seconds: 0, target: target, action: .midi(0x90 | ch, note, vel), order: order))
                            raw.append(Item(beat: t + max(0, duration), seconds: 0, target: target, action: .midi(0x80 | ch, note, 0),
                                            order: order, isNoteOff: true))
                        } else {
                            raw.append(Item(beat: t, seconds: 0, target: target, action: .startNote(e.payload, slot: slot), order: order))
                            raw.append(Item(beat: t + max(0, duration), seconds: 0, target: target, action: .stopNote(group: group, slot: slot),
                                            order: order, isNoteOff: true))
                        }
                    case kMusicEventType_AUPreset where t >= beat:
                        raw.append(Item(beat: t, seconds: 0, target: target, action: .preset(e.payload), order: order))
                    case kMusicEventType_User where t >= beat:
                        raw.append(Item(beat: t, seconds: 0, target: .none, action: .user(e.payload, track: track.handle), order: order))
                    default:
                        continue
                    }
                    if raw.count >= Self.maximumItems { break }
                }
            }
        }
        for i in raw.indices { raw[i].seconds = tempo.seconds(forBeats: raw[i].beat) }
        // Note-offs first at equal times, then the order the events were added in.
        let sorted = raw.indices.sorted { a, b in
            let x = raw[a], y = raw[b]
            if x.seconds != y.seconds { return x.seconds < y.seconds }
            if x.isNoteOff != y.isNoteOff { return x.isNoteOff }
            return x.order < y.order
        }
        items = sorted.map { raw[$0] }
        // Pair each note-on with its note-off (same order number).
        var offs: [Int: Int] = [:]
        for (i, item) in items.enumerated() where item.isNoteOff { offs[item.order] = i }
        for i in items.indices where !items[i].isNoteOff {
            if case .midi(let s, _, _) = items[i].action, s & 0xF0 == 0x90 { items[i].noteOff = offs[items[i].order] ?? -1 }
        }
    }
}

private extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(high, Swift.max(low, self)) }
}
