/// A sender's side of the recovery journal, one per peer: the latest note, controller, program and pitch wheel
/// state of each channel with the (extended) sequence number of the packet that last changed it. The journal
/// of the next packet codes everything changed at or after the checkpoint; the peer's RS feedback moves the
/// checkpoint forward, so the journal stays small while the peer keeps up.
struct RTPMIDIJournalHistory {
    private struct Entry { var value: UInt8 = 0; var value2: UInt8 = 0; var on = false; var changed: Int64 = -1 }

    private var notes = [Entry](repeating: Entry(), count: 16 * 128)
    private var controllers = [Entry](repeating: Entry(), count: 16 * 128)
    private var programs = [Entry](repeating: Entry(), count: 16)
    private var wheels = [Entry](repeating: Entry(), count: 16)
    /// The last bank select MSB/LSB (controllers 0 and 32) seen before a program change, per channel.
    private var banks = [(UInt8?, UInt8?)](repeating: (nil, nil), count: 16)
    /// The checkpoint, as an extended sequence number (the wire carries its low 16 bits).
    private(set) var checkpoint: Int64

    /// A history whose first packet will have extended sequence number `first`.
    init(first: Int64) { checkpoint = first }

    /// Records the commands of the packet with extended sequence number `sequence`.
    mutating func record(_ command: [UInt8], sequence: Int64) {
        guard let status = command.first, status >= 0x80, status < 0xF0 else { return }
        let ch = Int(status & 0x0F)
        switch status & 0xF0 {
        case 0x80, 0x90:
            guard command.count >= 3 else { return }
            let on = status & 0xF0 == 0x90 && command[2] != 0
            notes[ch * 128 + Int(command[1] & 0x7F)] = Entry(value: command[2], on: on, changed: sequence)
        case 0xB0:
            guard command.count >= 3 else { return }
            let number = Int(command[1] & 0x7F)
            controllers[ch * 128 + number] = Entry(value: command[2], on: true, changed: sequence)
            if number == 0 { banks[ch].0 = command[2] }
            if number == 32 { banks[ch].1 = command[2] }
        case 0xC0:
            guard command.count >= 2 else { return }
            programs[ch] = Entry(value: command[1], on: true, changed: sequence)
        case 0xE0:
            guard command.count >= 3 else { return }
            wheels[ch] = Entry(value: command[1], value2: command[2], on: true, changed: sequence)
        default:
            break
        }
    }

    /// The peer acknowledged (RS) the packet whose 16-bit sequence number is `sequence`; `latest` is the
    /// extended number of the last packet sent. The checkpoint only moves forward.
    mutating func acknowledge(_ sequence: UInt16, latest: Int64) {
        let back = Int64(UInt16(truncatingIfNeeded: latest) &- sequence)
        let acked = latest - back
        if acked > checkpoint { checkpoint = acked }
    }

    /// Moves the checkpoint to `sequence` (an extended number) if that is later: used when packets are old
    /// enough to be taken as received even though the peer sent no feedback for them.
    mutating func advance(to sequence: Int64) {
        if sequence > checkpoint { checkpoint = sequence }
    }

    /// The journal for the next packet (the history before it), or nil when nothing changed since the checkpoint.
    func journal() -> RTPMIDIJournal? {
        var out = RTPMIDIJournal(checkpoint: UInt16(truncatingIfNeeded: checkpoint))
        for ch in 0..<16 {
            var c = RTPMIDIJournal.Channel(channel: UInt8(ch))
            if programs[ch].changed >= checkpoint {
                c.program = programs[ch].value
                c.bankMSB = banks[ch].0
                c.bankLSB = banks[ch].1
            }
            for n in 0..<128 where controllers[ch * 128 + n].changed >= checkpoint {
                c.controllers.append((UInt8(n), controllers[ch * 128 + n].value))
            }
            if wheels[ch].changed >= checkpoint { c.pitchWheel = (wheels[ch].value, wheels[ch].value2) }
            for n in 0..<128 where notes[ch * 128 + n].changed >= checkpoint {
                let e = notes[ch * 128 + n]
                if e.on { c.noteOns.append(.init(note: UInt8(n), velocity: e.value)) } else { c.noteOffs.append(UInt8(n)) }
            }
            // A chapter N holds 127 note logs (128 would need LOW 15 HIGH 0, which then leaves no OFFBITS).
            if c.noteOns.count > 127 { c.noteOns.removeLast(c.noteOns.count - 127) }
            if c.program != nil || !c.controllers.isEmpty || c.pitchWheel != nil || !c.noteOns.isEmpty || !c.noteOffs.isEmpty {
                out.channels.append(c)
            }
        }
        return out.channels.isEmpty ? nil : out
    }
}
