/// A receiver's view of one peer's stream: which notes sound, controller values, programs and pitch wheels,
/// as delivered so far, and the next sequence number expected. When packets went missing, the next packet's
/// journal is compared with this state and the commands that repair the difference are delivered first.
struct RTPMIDIReceiverState {
    private var notesOn = [Bool](repeating: false, count: 16 * 128)
    /// Controller values, -1 while unknown.
    private var controllers = [Int16](repeating: -1, count: 16 * 128)
    private var programs = [Int16](repeating: -1, count: 16)
    private var wheels = [Int32](repeating: -1, count: 16)
    private var expected: UInt16?
    /// Packets found missing, and commands delivered to repair them (for tests and diagnostics).
    private(set) var lostPackets = 0
    private(set) var recoveredCommands = 0

    /// What to do with a packet: nil to drop it (late or repeated), else the repair commands to deliver
    /// before its own (empty when nothing was lost or the packet has no journal).
    mutating func accept(_ packet: RTPMIDIPacket) -> [[UInt8]]? {
        var repair: [[UInt8]] = []
        if let expected {
            let gap = Int16(bitPattern: packet.sequence &- expected)
            if gap < 0 { return nil }
            if gap > 0 {
                lostPackets += Int(gap)
                if let journal = packet.journal { repair = recover(journal) }
            }
        }
        expected = packet.sequence &+ 1
        for c in repair { observe(c) }
        recoveredCommands += repair.count
        for c in packet.commands { observe(c.bytes) }
        return repair
    }

    /// Notes the effect of a delivered command.
    mutating func observe(_ command: [UInt8]) {
        guard let status = command.first, status >= 0x80, status < 0xF0 else { return }
        let ch = Int(status & 0x0F)
        switch status & 0xF0 {
        case 0x80, 0x90:
            guard command.count >= 3 else { return }
            notesOn[ch * 128 + Int(command[1] & 0x7F)] = status & 0xF0 == 0x90 && command[2] != 0
        case 0xB0:
            guard command.count >= 3 else { return }
            let number = Int(command[1] & 0x7F)
            controllers[ch * 128 + number] = Int16(command[2])
            // All Sound Off / All Notes Off and the mode messages that imply it end every note.
            if number == 120 || number >= 123 { for n in 0..<128 { notesOn[ch * 128 + n] = false } }
        case 0xC0:
            guard command.count >= 2 else { return }
            programs[ch] = Int16(command[1])
        case 0xE0:
            guard command.count >= 3 else { return }
            wheels[ch] = Int32(command[1]) | Int32(command[2]) << 7
        default:
            break
        }
    }

    /// The commands that bring this state to what the journal says the sender's stream did.
    func recover(_ journal: RTPMIDIJournal) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for c in journal.channels {
            let ch = Int(c.channel & 0x0F)
            for (number, value) in c.controllers where controllers[ch * 128 + Int(number)] != Int16(value) {
                out.append([0xB0 | UInt8(ch), number, value])
            }
            if let program = c.program, programs[ch] != Int16(program) {
                if let msb = c.bankMSB, controllers[ch * 128] != Int16(msb) { out.append([0xB0 | UInt8(ch), 0, msb]) }
                if let lsb = c.bankLSB, controllers[ch * 128 + 32] != Int16(lsb) { out.append([0xB0 | UInt8(ch), 32, lsb]) }
                out.append([0xC0 | UInt8(ch), program])
            }
            if let (a, b) = c.pitchWheel, wheels[ch] != Int32(a) | Int32(b) << 7 { out.append([0xE0 | UInt8(ch), a, b]) }
            // A note both logged (to be played: Y set) and in OFFBITS is taken as sounding; a log with Y clear
            // does not stop its OFFBITS bit from ending the note.
            let played = Set(c.noteOns.filter(\.play).map(\.note))
            for n in c.noteOffs where notesOn[ch * 128 + Int(n)] && !played.contains(n) {
                out.append([0x80 | UInt8(ch), n, 0])
            }
            for log in c.noteOns where log.play && !notesOn[ch * 128 + Int(log.note)] {
                out.append([0x90 | UInt8(ch), log.note, log.velocity])
            }
        }
        return out
    }

    /// Whether a note sounds, as far as this receiver knows.
    func isOn(channel: UInt8, note: UInt8) -> Bool { notesOn[Int(channel & 0x0F) * 128 + Int(note & 0x7F)] }
}
