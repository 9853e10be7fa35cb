/// A MIDI 1.0 byte stream to UMPs, keeping running status and an open SysEx between calls, so that a
/// SysEx spread over several packets (as MIDI 1.0 packet lists carry long ones) becomes one UMP SysEx
/// (start, continue..., end). One per receiver, used only on the MIDI thread.
struct MIDIByteParser {
    private var running: UInt8 = 0
    private var inSysEx = false
    private var sysExStarted = false
    private var pending: [UInt8] = []

    /// The UMPs for the next bytes of the stream.
    mutating func words(_ bytes: [UInt8], _ protocolID: MIDIProtocolID, group: UInt8 = 0) -> [UInt32] {
        var out: [UInt32] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0xF8 { out.append(MIDI1UPSystemCommon(group, b, 0, 0)); i += 1; continue }  // real-time, even inside SysEx
            if inSysEx {
                if b < 0x80 {
                    // Six bytes fill a UMP; send them only once a seventh shows that more follow.
                    if pending.count == 6 { emit(sysExStarted ? 2 : 1, &out, group); sysExStarted = true }
                    pending.append(b)
                    i += 1
                    continue
                }
                emit(sysExStarted ? 3 : 0, &out, group)  // F7, or any status byte, ends it
                inSysEx = false
                if b == 0xF7 { i += 1 }
                continue
            }
            if b == 0xF0 { inSysEx = true; sysExStarted = false; pending = []; running = 0; i += 1; continue }
            var status = running
            if b >= 0x80 { status = b; i += 1; running = b < 0xF0 ? b : 0 }
            guard status >= 0x80, let n = MIDIConversion.dataCount(status), i + n <= bytes.count else { i += 1; continue }
            let d1 = n > 0 ? bytes[i] : 0, d2 = n > 1 ? bytes[i + 1] : 0
            i += n
            if status >= 0xF0 {
                out.append(MIDI1UPSystemCommon(group, status, d1, d2))
            } else {
                out += MIDIConversion.channelVoice(status, d1, d2, protocolID, group: group)
            }
        }
        return out
    }

    /// Sends the pending SysEx bytes as one UMP of SysEx `status` (complete, start, continue, end).
    private mutating func emit(_ status: UInt8, _ out: inout [UInt32], _ group: UInt8) {
        let m = pending.withUnsafeBufferPointer { buffer -> MIDIMessage_64 in
            guard let base = buffer.baseAddress else { return MIDI1UPSysEx(group, status, 0, 0, 0, 0, 0, 0, 0) }
            return MIDI1UPSysExArray(group, status, base, base + buffer.count)
        }
        out += [m.word0, m.word1]
        pending = []
    }
}
