/// MIDI 1.0 byte streams <-> Universal MIDI Packets (MIDI 1.0 and MIDI 2.0 protocol), per the UMP spec's
/// default translation and min-center-max scaling.
enum MIDIConversion {
    /// Scales a `from`-bit value up to `to` bits (UMP spec: the centre maps to the centre, the maximum to the maximum).
    static func scaleUp(_ value: UInt32, from: Int, to: Int) -> UInt32 {
        let shift = to - from
        var out = value << shift
        guard value > 1 << (from - 1) else { return out }
        let repeatBits = from - 1
        var repeatValue = value & ((1 << repeatBits) - 1)
        repeatValue = shift > repeatBits ? repeatValue << (shift - repeatBits) : repeatValue >> (repeatBits - shift)
        while repeatValue != 0 { out |= repeatValue; repeatValue >>= repeatBits }
        return out
    }

    /// Data bytes after a status byte (nil for SysEx start, which runs to F7).
    static func dataCount(_ status: UInt8) -> Int? {
        switch status {
        case 0x80..<0xC0, 0xE0..<0xF0, 0xF2: return 2
        case 0xC0..<0xE0, 0xF1, 0xF3: return 1
        case 0xF0: return nil
        default: return 0
        }
    }

    /// The UMP words for one packet, in `protocolID`. Bytes go through `parser` (the receiver's, so a
    /// SysEx split across packets stays one message); UMPs of the other protocol are converted one by
    /// one (channel voice only: utility, system and SysEx UMPs are the same in both protocols).
    static func words(of packet: MIDIMessageBatch.Packet, in protocolID: MIDIProtocolID, parser: inout MIDIByteParser) -> [UInt32] {
        guard let words = packet.words else { return parser.words(packet.bytes ?? [], protocolID) }
        if packet.protocolID == protocolID { return words }
        var out: [UInt32] = []
        var i = 0
        while i < words.count {
            let size = umpWordCounts[Int(words[i] >> 28)]
            let ump = Array(words[i..<min(i + size, words.count)])
            let type = words[i] >> 28
            if type == 0x2 || type == 0x4 {
                var fresh = MIDIByteParser()
                out += fresh.words(bytes(fromUMP: ump), protocolID, group: UInt8(words[i] >> 24 & 0xF))
            } else {
                out += ump
            }
            i += size
        }
        return out
    }

    /// Parses a complete MIDI 1.0 byte stream (running status allowed) into UMPs.
    static func words(fromBytes bytes: [UInt8], _ protocolID: MIDIProtocolID, group: UInt8 = 0) -> [UInt32] {
        var parser = MIDIByteParser()
        return parser.words(bytes, protocolID, group: group)
    }

    /// One MIDI 1.0 channel voice message as a UMP: MIDI 1.0 protocol, or MIDI 2.0 with the spec's scaling.
    static func channelVoice(_ status: UInt8, _ d1: UInt8, _ d2: UInt8, _ protocolID: MIDIProtocolID, group: UInt8) -> [UInt32] {
        let kind = status >> 4, ch = status & 0xF
        if protocolID == ._1_0 { return [MIDI1UPChannelVoiceMessage(group, kind, ch, d1, d2)] }
        let m: MIDIMessage_64
        switch kind {
        // A MIDI 1.0 note on of velocity 0 is a note off; it carries no release velocity, so the default (0x40).
        case 0x9 where d2 == 0: m = MIDI2NoteOff(group, ch, d1, 0, 0, UInt16(scaleUp(0x40, from: 7, to: 16)))
        case 0x8, 0x9: m = MIDI2ChannelVoiceMessage(group, kind, ch, UInt16(d1) << 8, scaleUp(UInt32(d2), from: 7, to: 16) << 16)
        case 0xA: m = MIDI2PolyPressure(group, ch, d1, scaleUp(UInt32(d2), from: 7, to: 32))
        case 0xB: m = MIDI2ControlChange(group, ch, d1, scaleUp(UInt32(d2), from: 7, to: 32))
        case 0xC: m = MIDI2ProgramChange(group, ch, false, d1, 0, 0)
        case 0xD: m = MIDI2ChannelPressure(group, ch, scaleUp(UInt32(d1), from: 7, to: 32))
        default: m = MIDI2PitchBend(group, ch, scaleUp(UInt32(d1) | UInt32(d2) << 7, from: 14, to: 32))
        }
        return [m.word0, m.word1]
    }

    /// UMPs (either protocol) back to a MIDI 1.0 byte stream; MIDI 2.0 values are scaled down.
    static func bytes(fromUMP words: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < words.count {
            let w = words[i], type = w >> 28
            let size = umpWordCounts[Int(type)]
            defer { i += size }
            guard i + size <= words.count else { break }
            let status = UInt8(w >> 16 & 0xFF), d1 = UInt8(w >> 8 & 0x7F), d2 = UInt8(w & 0x7F)
            switch type {
            case 0x1, 0x2:
                out.append(status)
                let n = dataCount(status) ?? 0
                if n > 0 { out.append(d1) }
                if n > 1 { out.append(d2) }
            case 0x3:
                let st = status >> 4, count = Int(status & 0xF)
                if st == 0 || st == 1 { out.append(0xF0) }
                let payload = [UInt8(w >> 8 & 0x7F), UInt8(w & 0x7F), UInt8(words[i + 1] >> 24 & 0x7F),
                               UInt8(words[i + 1] >> 16 & 0x7F), UInt8(words[i + 1] >> 8 & 0x7F), UInt8(words[i + 1] & 0x7F)]
                out += payload.prefix(min(count, 6))
                if st == 0 || st == 3 { out.append(0xF7) }
            case 0x4:
                let v = words[i + 1], kind = status >> 4
                switch kind {
                case 0x8, 0x9: out += [status, d1, UInt8(v >> 25)]
                    if kind == 0x9 && v >> 25 == 0 { out[out.count - 1] = 1 }
                case 0xA, 0xB: out += [status, d1, UInt8(v >> 25)]
                case 0xC:
                    if w & 1 != 0 { out += [0xB0 | status & 0xF, 0, UInt8(v >> 8 & 0x7F), 0xB0 | status & 0xF, 32, UInt8(v & 0x7F)] }
                    out += [status, UInt8(v >> 24 & 0x7F)]
                case 0xD: out += [status, UInt8(v >> 25)]
                case 0xE: let b = v >> 18; out += [status, UInt8(b & 0x7F), UInt8(b >> 7)]
                case 0x2, 0x3:
                    // Registered / assignable controller: the spec's translation, CC 101/100 (RPN) or 99/98
                    // (NRPN) select bank and index, CC 6/38 carry the top 14 bits of the value.
                    let cc = 0xB0 | status & 0xF, rpn = kind == 0x2
                    out += [cc, rpn ? 101 : 99, UInt8(w >> 8 & 0x7F), cc, rpn ? 100 : 98, UInt8(w & 0x7F),
                            cc, 6, UInt8(v >> 25), cc, 38, UInt8(v >> 18 & 0x7F)]
                default: break
                }
            default: break
            }
        }
        return out
    }
}
