/// The recovery journal of an RTP-MIDI packet (RFC 6295 section 5 and appendix A): what the sender's stream
/// did since its checkpoint, so a receiver that lost packets can repair its state. Chapters read and written:
/// P (program change), C (controllers, plain values), W (pitch wheel) and N (note on/off). The system
/// journal and chapters M, E, T, A are skipped by their lengths when received and never sent.
struct RTPMIDIJournal: Equatable {
    /// One channel's chapters.
    struct Channel: Equatable {
        /// A note whose latest command was a note-on, with its velocity; `play` is the Y bit.
        struct NoteOn: Equatable { var note: UInt8; var velocity: UInt8; var play: Bool = true }

        var channel: UInt8
        /// Chapter P: program, with the bank select MSB and LSB when the B and X bits say they are known.
        var program: UInt8?
        var bankMSB: UInt8?
        var bankLSB: UInt8?
        /// Chapter C: controller number and value (plain value logs only).
        var controllers: [(number: UInt8, value: UInt8)] = []
        /// Chapter W: the pitch wheel's two data bytes.
        var pitchWheel: (UInt8, UInt8)?
        /// Chapter N: notes whose latest command was a note-on ...
        var noteOns: [NoteOn] = []
        /// ... and notes whose latest command was a note-off (the OFFBITS).
        var noteOffs: [UInt8] = []

        static func == (a: Channel, b: Channel) -> Bool {
            a.channel == b.channel && a.program == b.program && a.bankMSB == b.bankMSB && a.bankLSB == b.bankLSB
                && a.controllers.map { [$0.number, $0.value] } == b.controllers.map { [$0.number, $0.value] }
                && a.pitchWheel.map { [$0.0, $0.1] } == b.pitchWheel.map { [$0.0, $0.1] }
                && a.noteOns == b.noteOns && a.noteOffs == b.noteOffs
        }
    }

    /// The sequence number of the checkpoint packet: the journal covers the stream since it.
    var checkpoint: UInt16
    /// The S bit: the journal only needs to repair the loss of the single previous packet.
    var singlePacketLoss = false
    var channels: [Channel] = []

    /// Parses a journal (the reader stands at its first byte).
    static func parse(_ r: inout RTPMIDIByteReader) throws(RTPMIDIError) -> RTPMIDIJournal {
        let h = try r.u8()
        var journal = RTPMIDIJournal(checkpoint: try r.u16(), singlePacketLoss: h & 0x80 != 0)
        if h & 0x40 != 0 {  // Y: a system journal, skipped by its 10-bit length (which counts its header)
            let length = Int(try r.u16() & 0x03FF)
            guard length >= 2 else { throw .malformed }
            try r.skip(length - 2)
        }
        if h & 0x20 != 0 {  // A: TOTCHAN + 1 channel journals
            for _ in 0...(h & 0x0F) {
                let start = r.offset
                let c0 = try r.u8(), c1 = try r.u8(), toc = try r.u8()
                let length = Int(c0 & 0x03) << 8 | Int(c1)
                guard length >= 3, length - 3 <= r.remaining else { throw .malformed }
                var cr = RTPMIDIByteReader(r.bytes, start: r.offset, end: start + length)
                journal.channels.append(try parseChannel(&cr, channel: c0 >> 3 & 0x0F, enhanced: c0 & 0x04 != 0, toc: toc))
                try r.skip(length - 3)
            }
        }
        return journal
    }

    /// The chapters of one channel journal, in their fixed order P C M W N (E T A after them are not read).
    private static func parseChannel(_ r: inout RTPMIDIByteReader, channel: UInt8, enhanced: Bool, toc: UInt8) throws(RTPMIDIError) -> Channel {
        var c = Channel(channel: channel)
        if toc & 0x80 != 0 {  // P
            let p = try r.u8(), m = try r.u8(), l = try r.u8()
            c.program = p & 0x7F
            if m & 0x80 != 0 { c.bankMSB = m & 0x7F }
            if l & 0x80 != 0 { c.bankLSB = l & 0x7F }
        }
        if toc & 0x40 != 0 {  // C: LEN + 1 logs of S NUMBER | A VALUE
            let count = Int(try r.u8() & 0x7F) + 1
            for _ in 0..<count {
                let n = try r.u8(), v = try r.u8()
                // An A bit set codes a toggle or count (enhanced encoding): not a value to restore.
                if v & 0x80 == 0 { c.controllers.append((n & 0x7F, v & 0x7F)) }
            }
            _ = enhanced
        }
        if toc & 0x20 != 0 {  // M: skipped by its 10-bit length, which counts its 2-byte header
            let m0 = try r.u8(), m1 = try r.u8()
            let length = Int(m0 & 0x03) << 8 | Int(m1)
            guard length >= 2 else { throw .malformed }
            try r.skip(length - 2)
        }
        if toc & 0x10 != 0 {  // W
            let a = try r.u8(), b = try r.u8()
            c.pitchWheel = (a & 0x7F, b & 0x7F)
        }
        if toc & 0x08 != 0 {  // N: B LEN | LOW HIGH, LEN logs, then OFFBITS for LOW...HIGH
            let n0 = try r.u8(), n1 = try r.u8()
            let len = Int(n0 & 0x7F), low = Int(n1 >> 4), high = Int(n1 & 0x0F)
            let logs = len == 127 && low == 15 && high == 0 ? 128 : len
            for _ in 0..<logs {
                let a = try r.u8(), b = try r.u8()
                guard b & 0x7F != 0 else { throw .malformed }  // a note log's velocity is never 0
                c.noteOns.append(.init(note: a & 0x7F, velocity: b & 0x7F, play: b & 0x80 != 0))
            }
            if low <= high && logs != 128 {
                for i in low...high {
                    let bits = try r.u8()
                    for bit in 0..<8 where bits & (0x80 >> bit) != 0 { c.noteOffs.append(UInt8(i * 8 + bit)) }
                }
            }
        }
        return c
    }

    /// The journal's bytes (no system journal; enhanced chapter C encoding off).
    func serialized() -> [UInt8] {
        precondition(channels.count <= 16)
        var out: [UInt8] = [(singlePacketLoss ? 0x80 : 0) | (channels.isEmpty ? 0 : 0x20) | UInt8(max(channels.count - 1, 0))]
        out.appendBE(checkpoint)
        for c in channels {
            var body: [UInt8] = []
            var toc: UInt8 = 0
            if let program = c.program {
                toc |= 0x80
                body += [program & 0x7F, c.bankMSB.map { 0x80 | $0 & 0x7F } ?? 0, c.bankLSB.map { 0x80 | $0 & 0x7F } ?? 0]
            }
            if !c.controllers.isEmpty {
                toc |= 0x40
                let logs = c.controllers.prefix(128)
                body.append(UInt8(logs.count - 1))
                for l in logs { body += [l.number & 0x7F, l.value & 0x7F] }
            }
            if let (a, b) = c.pitchWheel {
                toc |= 0x10
                body += [a & 0x7F, b & 0x7F]
            }
            if !c.noteOns.isEmpty || !c.noteOffs.isEmpty {
                toc |= 0x08
                let logs = c.noteOns.prefix(127)
                let offs = c.noteOffs.map { Int($0 & 0x7F) }
                let low = offs.min().map { $0 / 8 }, high = offs.max().map { $0 / 8 }
                body.append(UInt8(logs.count))
                // No offbits: LOW 15 and HIGH 14 (LOW > HIGH); never LEN 127 with LOW 15, HIGH 0.
                body.append(UInt8((low ?? 15) << 4 | (high ?? 14)))
                for l in logs { body += [l.note & 0x7F, (l.play ? 0x80 : 0) | max(l.velocity & 0x7F, 1)] }
                if let low, let high {
                    var bits = [UInt8](repeating: 0, count: high - low + 1)
                    for n in offs { bits[n / 8 - low] |= 0x80 >> UInt8(n % 8) }
                    body += bits
                }
            }
            let length = body.count + 3
            out += [(c.channel & 0x0F) << 3 | UInt8(length >> 8 & 0x03), UInt8(length & 0xFF), toc]
            out += body
        }
        return out
    }
}
