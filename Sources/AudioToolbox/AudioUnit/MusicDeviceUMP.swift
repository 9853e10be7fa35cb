import CoreMIDI

/// Universal MIDI Packets to the MIDI 1.0 messages an instrument unit takes (MusicDeviceMIDIEventList):
/// MIDI 1.0 channel voice passes through, MIDI 2.0 channel voice is reduced to 7/14-bit values as the UMP
/// specification's translation rules say (a note-on of velocity 0 becomes 1, RPN/NRPN become controller
/// sequences, a program change with its bank becomes bank select then program), 7-bit SysEx packets are
/// joined into one message. Utility, system and per-note messages are skipped. No allocation: a SysEx
/// message is joined in a 256-byte stack buffer and a longer one is dropped.
enum MusicDeviceUMP {
    typealias Bytes = (UInt8, UInt8, UInt8)

    /// Calls `message` for every channel message (status, data 1, data 2) and `sysEx` for every complete
    /// SysEx message (F0 ... F7) in one event packet.
    static func forEachMessage(in packet: UnsafePointer<MIDIEventPacket>, _ message: (Bytes, Int) -> Void,
                               sysEx: (UnsafePointer<UInt8>, UInt32) -> Void) {
        let count = min(Int(packet.pointee.wordCount), 64)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { sysExBuffer in
            var sysExLength = -1  // -1: no SysEx under way
            withUnsafeBytes(of: packet.pointee.words) { raw in
                let words = raw.bindMemory(to: UInt32.self)
                var i = 0
                while i < count {
                    let w0 = words[i]
                    let type = w0 >> 28
                    let size = wordCount(type)
                    guard i + size <= count else { return }
                    let w1 = size > 1 ? words[i + 1] : 0
                    switch type {
                    case 0x2:
                        let status = UInt8(truncatingIfNeeded: w0 >> 16)
                        if status >= 0x80 && status < 0xF0 {
                            message((status, UInt8(truncatingIfNeeded: w0 >> 8) & 0x7F, UInt8(truncatingIfNeeded: w0) & 0x7F), 3)
                        }
                    case 0x4:
                        midi2(w0, w1, message)
                    case 0x3:
                        let form = (w0 >> 20) & 0xF
                        let n = min(Int((w0 >> 16) & 0xF), 6)
                        if form == 0 || form == 1 { sysExBuffer[0] = 0xF0; sysExLength = 1 }
                        guard sysExLength > 0 else { break }
                        // The payload: bytes 2-3 of the first word, then the second word's four.
                        let payload = UInt64(w0 & 0xFFFF) << 32 | UInt64(w1)
                        for k in 0..<n where sysExLength < 255 {
                            sysExBuffer[sysExLength] = UInt8(truncatingIfNeeded: payload >> UInt64(40 - 8 * k))
                            sysExLength += 1
                        }
                        if form == 0 || form == 3 {
                            if sysExLength < 255 {
                                sysExBuffer[sysExLength] = 0xF7
                                sysEx(UnsafePointer(sysExBuffer.baseAddress!), UInt32(sysExLength + 1))
                            }
                            sysExLength = -1
                        }
                    default:
                        break
                    }
                    i += size
                }
            }
        }
    }

    /// The words in a UMP of message type `type` (the UMP specification's table).
    @inline(__always)
    private static func wordCount(_ type: UInt32) -> Int {
        switch type {
        case 0x0, 0x1, 0x2, 0x6, 0x7: return 1
        case 0x3, 0x4, 0x8, 0x9, 0xA: return 2
        case 0xB, 0xC: return 3
        default: return 4
        }
    }

    /// One MIDI 2.0 channel voice message as MIDI 1.0 messages.
    private static func midi2(_ w0: UInt32, _ w1: UInt32, _ message: (Bytes, Int) -> Void) {
        let opcode = UInt8((w0 >> 20) & 0xF)
        let channel = UInt8((w0 >> 16) & 0xF)
        let index = UInt8((w0 >> 8) & 0x7F)
        let low = UInt8(w0 & 0x7F)
        switch opcode {
        case 0x9:
            let velocity = UInt8(w1 >> 25)
            message((0x90 | channel, index, max(velocity, 1)), 3)
        case 0x8:
            message((0x80 | channel, index, UInt8(w1 >> 25)), 3)
        case 0xA:
            message((0xA0 | channel, index, UInt8(w1 >> 25)), 3)
        case 0xB:
            message((0xB0 | channel, index, UInt8(w1 >> 25)), 3)
        case 0xC:
            if w0 & 1 != 0 {
                message((0xB0 | channel, 0, UInt8((w1 >> 8) & 0x7F)), 3)
                message((0xB0 | channel, 32, UInt8(w1 & 0x7F)), 3)
            }
            message((0xC0 | channel, UInt8((w1 >> 24) & 0x7F), 0), 2)
        case 0xD:
            message((0xD0 | channel, UInt8(w1 >> 25), 0), 2)
        case 0xE:
            let value = w1 >> 18
            message((0xE0 | channel, UInt8(value & 0x7F), UInt8(value >> 7)), 3)
        case 0x2, 0x3:
            // Registered (0x2) / assignable (0x3) controller: bank in `index`, number in `low`, 32-bit data.
            let (msb, lsb): (UInt8, UInt8) = opcode == 0x2 ? (101, 100) : (99, 98)
            let value = w1 >> 18
            message((0xB0 | channel, msb, index), 3)
            message((0xB0 | channel, lsb, low), 3)
            message((0xB0 | channel, 6, UInt8(value >> 7)), 3)
            message((0xB0 | channel, 38, UInt8(value & 0x7F)), 3)
        default:
            break
        }
    }
}
