/// An RTP packet carrying MIDI (RFC 6295): the RTP header, the MIDI command section (each command with its
/// delta time in RTP timestamp units, 10 kHz for AppleMIDI) and an optional recovery journal.
struct RTPMIDIPacket: Equatable {
    /// One MIDI command as received: complete (status byte restored where running status left it out), or a
    /// SysEx segment (F0 ... F7 whole, or a part of a segmented one as MIDI 1.0 bytes).
    struct Command: Equatable {
        var delta: UInt32
        var bytes: [UInt8]
    }

    /// AppleMIDI's payload type (dynamic range, 0x61).
    static let payloadType: UInt8 = 0x61

    var sequence: UInt16
    var timestamp: UInt32
    var ssrc: UInt32
    var commands: [Command]
    var journal: RTPMIDIJournal?

    /// Parses a received RTP-MIDI packet.
    static func parse(_ bytes: [UInt8]) throws(RTPMIDIError) -> RTPMIDIPacket {
        var end = bytes.count
        var r = RTPMIDIByteReader(bytes)
        let b0 = try r.u8()
        _ = try r.u8()  // marker and payload type: not checked (peers differ)
        guard b0 >> 6 == 2 else { throw .malformed }
        if b0 & 0x20 != 0 {  // padding: the last byte counts it
            let pad = Int(bytes[bytes.count - 1])
            guard pad >= 1, pad <= bytes.count - 12 else { throw .malformed }
            end -= pad
            r = RTPMIDIByteReader(bytes, start: r.offset, end: end)
        }
        let sequence = try r.u16(), timestamp = try r.u32(), ssrc = try r.u32()
        try r.skip(Int(b0 & 0x0F) * 4)  // contributing sources
        if b0 & 0x10 != 0 {  // header extension: 16-bit profile, 16-bit length in words
            _ = try r.u16()
            try r.skip(Int(try r.u16()) * 4)
        }
        // MIDI command section header: B J Z P LEN (4 bits, or 12 with B).
        let h = try r.u8()
        var length = Int(h & 0x0F)
        if h & 0x80 != 0 { length = length << 8 | Int(try r.u8()) }
        let hasJournal = h & 0x40 != 0, firstHasDelta = h & 0x20 != 0
        let listStart = r.offset
        guard length <= r.remaining else { throw .truncated }
        let commands = try parseList(bytes, start: listStart, end: listStart + length, firstHasDelta: firstHasDelta)
        var journal: RTPMIDIJournal?
        if hasJournal {
            var jr = RTPMIDIByteReader(bytes, start: listStart + length, end: end)
            journal = try RTPMIDIJournal.parse(&jr)
        }
        return RTPMIDIPacket(sequence: sequence, timestamp: timestamp, ssrc: ssrc, commands: commands, journal: journal)
    }

    /// The MIDI list: [delta] command, then delta command ... (RFC 6295 section 3).
    private static func parseList(_ bytes: [UInt8], start: Int, end: Int, firstHasDelta: Bool) throws(RTPMIDIError) -> [Command] {
        var r = RTPMIDIByteReader(bytes, start: start, end: end)
        var out: [Command] = []
        var running: UInt8 = 0
        var first = true
        while !r.isAtEnd {
            var delta: UInt32 = 0
            if !first || firstHasDelta {
                // Up to four bytes, seven bits each, high bit set on all but the last.
                var count = 0
                while true {
                    let b = try r.u8()
                    delta = delta << 7 | UInt32(b & 0x7F)
                    count += 1
                    if b & 0x80 == 0 { break }
                    guard count < 4 else { throw .malformed }
                }
            }
            first = false
            var status = try r.peek()
            if status >= 0x80 {
                _ = try r.u8()
            } else {
                guard running != 0 else { throw .malformed }  // running status needs an earlier channel command
                status = running
            }
            var command: [UInt8] = [status]
            switch status {
            case 0xF0, 0xF7:
                // A SysEx (F0 ... F7) or a segment of one: data up to F7 (end), F0 (more follows) or F4 (cancelled).
                var data: [UInt8] = []
                var closing: UInt8 = 0
                while true {
                    let b = try r.u8()
                    if b == 0xF7 || b == 0xF0 || b == 0xF4 { closing = b; break }
                    guard b < 0x80 else { throw .malformed }
                    data.append(b)
                }
                command = (status == 0xF0 ? [0xF0] : []) + data + (closing == 0xF7 ? [0xF7] : [])
                if closing == 0xF4 { command = [] }  // a cancelled SysEx carries nothing to deliver
                running = 0
            default:
                guard let n = MIDIConversion.dataCount(status) else { throw .malformed }
                for _ in 0..<n {
                    let d = try r.u8()
                    guard d < 0x80 else { throw .malformed }
                    command.append(d)
                }
                if status < 0xF0 { running = status } else if status < 0xF8 { running = 0 }
            }
            if !command.isEmpty { out.append(Command(delta: delta, bytes: command)) }
        }
        return out
    }

    /// The packet's bytes: commands with full status bytes, a delta time before all but the first.
    func serialized() -> [UInt8] {
        var out: [UInt8] = [0x80, Self.payloadType]
        out.appendBE(sequence)
        out.appendBE(timestamp)
        out.appendBE(ssrc)
        var list: [UInt8] = []
        for (i, c) in commands.enumerated() {
            if i > 0 { list += Self.deltaBytes(c.delta) }
            list += c.bytes
        }
        let j: UInt8 = journal == nil ? 0 : 0x40
        if list.count <= 15 {
            out.append(j | UInt8(list.count))
        } else {
            out.append(0x80 | j | UInt8(list.count >> 8 & 0x0F))
            out.append(UInt8(list.count & 0xFF))
        }
        out += list
        if let journal { out += journal.serialized() }
        return out
    }

    /// A delta time as one to four bytes, seven bits each.
    static func deltaBytes(_ delta: UInt32) -> [UInt8] {
        let d = min(delta, 0x0FFF_FFFF)
        var out: [UInt8] = [UInt8(d & 0x7F)]
        var rest = d >> 7
        while rest > 0 { out.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
        return out
    }

    /// The longest MIDI list one packet carries (LEN is 12 bits); longer sends go out in several packets.
    static let maximumListLength = 1000

    /// A command for the MIDI list, cut into SysEx segments (F0 ... F0, F7 ... F0, F7 ... F7) when it is a
    /// SysEx longer than one packet's list may be.
    static func segments(_ command: [UInt8]) -> [[UInt8]] {
        guard command.count > maximumListLength - 8, command.first == 0xF0, let last = command.last else { return [command] }
        let data = command.dropFirst().dropLast()
        let size = maximumListLength - 8
        var out: [[UInt8]] = []
        var start = data.startIndex
        while start < data.endIndex || out.isEmpty {
            let end = min(start + size, data.endIndex)
            let isLast = end == data.endIndex
            out.append([out.isEmpty ? 0xF0 : 0xF7] + data[start..<end] + [isLast ? last : 0xF0])
            start = end
        }
        return out
    }

    /// Splits a MIDI 1.0 byte stream (one CoreMIDI packet's bytes) into complete commands for the MIDI list:
    /// running status written out, SysEx whole; data bytes with no status before them, and F7 with no SysEx
    /// open, are dropped (a SysEx continued over several CoreMIDI packets therefore loses its continuation).
    static func commands(fromStream bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var running: UInt8 = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0xF0 {
                var j = i + 1
                while j < bytes.count, bytes[j] < 0x80 { j += 1 }
                let closed = j < bytes.count && bytes[j] == 0xF7
                // An unterminated SysEx goes out as a first segment (ends in F0: more follows).
                out.append(Array(bytes[i..<j]) + [closed ? 0xF7 : 0xF0])
                i = closed ? j + 1 : j
                running = 0
                continue
            }
            if b >= 0xF8 { out.append([b]); i += 1; continue }
            if b == 0xF7 { i += 1; continue }  // an end of SysEx with no SysEx open
            var status = running
            if b >= 0x80 { status = b; i += 1 }
            guard status >= 0x80, let n = MIDIConversion.dataCount(status) else { i += 1; continue }
            guard i + n <= bytes.count else { break }
            // A status byte where data should be ends the message unfinished: it is dropped.
            if let cut = bytes[i..<i + n].firstIndex(where: { $0 >= 0x80 }) { i = cut; running = 0; continue }
            out.append([status] + bytes[i..<i + n])
            i += n
            running = status < 0xF0 ? status : 0
        }
        return out
    }
}
