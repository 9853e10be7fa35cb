import Foundation

/// Writes a sequence as a format-1 Standard MIDI File: the tempo track first (tempo, time signature and
/// its other meta events), then one MTrk per track with its MIDI events (notes as note-on/note-off
/// pairs, channel messages, SysEx and meta events; extended, parameter, user and preset events have no
/// MIDI form and are left out, as Apple's writer does).
struct StandardMIDIFileWriter {
    /// `resolution`: ticks per quarter note (positive) or a SMPTE division (negative; the sequence's beats
    /// are then seconds).
    static func data(_ sequence: MusicSequenceObject, resolution: Int16) -> [UInt8] {
        var out: [UInt8] = Array("MThd".utf8) + be32(6) + be16(1) + be16(UInt16(sequence.tracks.count + 1)) + be16(UInt16(bitPattern: resolution))
        let ticksPerBeat: Double
        if resolution > 0 {
            ticksPerBeat = Double(resolution)
        } else {
            let fps = -Int(Int8(truncatingIfNeeded: resolution >> 8))
            ticksPerBeat = (fps == 29 ? 29.97 : Double(fps)) * Double(resolution & 0xFF)  // a beat is a second
        }
        let tick = { (beats: Double) -> UInt64 in UInt64(max(0, (beats * ticksPerBeat).rounded()).clamped(to: 0x0FFF_FFFF)) }
        for track in [sequence.tempoTrack!] + sequence.tracks {
            // (tick, order, bytes): note-offs (order 0) before other events at the same tick.
            var items: [(UInt64, Int, [UInt8])] = []
            for (n, e) in track.events.enumerated() {
                let t = tick(e.time + track.offset), order = n + 1
                switch e.type {
                case kMusicEventType_MIDINoteMessage:
                    let m = e.payload.load(as: MIDINoteMessage.self)
                    let ch = m.channel & 0x0F
                    items.append((t, order, [0x90 | ch, m.note & 0x7F, m.velocity & 0x7F]))
                    items.append((tick(e.end + track.offset), 0, [0x80 | ch, m.note & 0x7F, m.releaseVelocity & 0x7F]))
                case kMusicEventType_MIDIChannelMessage:
                    let m = e.payload.load(as: MIDIChannelMessage.self)
                    guard m.status >= 0x80, m.status < 0xF0 else { continue }
                    let one = (m.status & 0xE0) == 0xC0
                    items.append((t, order, one ? [m.status, m.data1 & 0x7F] : [m.status, m.data1 & 0x7F, m.data2 & 0x7F]))
                case kMusicEventType_MIDIRawData:
                    let data = e.payload.data(from: 4)
                    guard !data.isEmpty else { continue }
                    if data[0] == 0xF0 { items.append((t, order, [0xF0] + vlq(data.count - 1) + data.dropFirst())) }
                    else { items.append((t, order, [0xF7] + vlq(data.count) + data)) }
                case kMusicEventType_Meta:
                    let type = e.payload.bytes.load(as: UInt8.self)
                    guard type != 0x2F else { continue }
                    let data = e.payload.data(from: 8)
                    items.append((t, order, [0xFF, type] + vlq(data.count) + data))
                case kMusicEventType_ExtendedTempo where track.isTempoTrack && resolution > 0:
                    let bpm = e.payload.load(as: ExtendedTempoEvent.self).bpm
                    guard bpm.isFinite, bpm > 0 else { continue }
                    let us = UInt32((60_000_000 / bpm).rounded().clamped(to: 0xFF_FFFF))
                    items.append((t, order, [0xFF, 0x51, 3, UInt8(us >> 16), UInt8(us >> 8 & 0xFF), UInt8(us & 0xFF)]))
                default:
                    continue
                }
            }
            items.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            var body: [UInt8] = []
            var last: UInt64 = 0
            for (t, _, bytes) in items {
                body += vlq(Int(t - last)) + bytes
                last = t
            }
            let end = max(last, tick(track.length + track.offset))
            body += vlq(Int(end - last)) + [0xFF, 0x2F, 0x00]
            out += Array("MTrk".utf8) + be32(UInt32(body.count)) + body
        }
        return out
    }

    static func vlq(_ value: Int) -> [UInt8] {
        var v = UInt64(max(0, value)) & 0x0FFF_FFFF
        var bytes = [UInt8(v & 0x7F)]
        v >>= 7
        while v > 0 {
            bytes.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return bytes
    }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}

private extension Double {
    func clamped(to high: Double) -> Double { Swift.min(self, high) }
}
