/// A MIDI 1.0 byte stream cut into complete messages, one per event as JACK MIDI and the ALSA sequencer carry
/// them: running status written out, a SysEx (F0 ... F7) kept whole even when spread over several packets,
/// real-time bytes as messages of their own. One per outgoing port (a stream's state spans packets).
struct MIDIMessageSplitter {
    /// A SysEx longer than this is dropped (no JACK period buffer would hold it).
    static let maxSysEx = 32 * 1024
    private var running: UInt8 = 0
    private var sysEx: [UInt8]?
    private var partial: [UInt8] = []

    /// The complete messages that `bytes` finish.
    mutating func messages(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for b in bytes {
            if b >= 0xF8 { out.append([b]); continue }
            if var s = sysEx {
                if b < 0x80 {
                    s.append(b)
                    sysEx = s.count <= Self.maxSysEx ? s : nil
                    continue
                }
                sysEx = nil
                s.append(0xF7)  // F7 ends it; any other status byte ends it too
                out.append(s)
                if b == 0xF7 { continue }
            }
            if b == 0xF0 { sysEx = [0xF0]; running = 0; partial = []; continue }
            if b == 0xF7 { continue }  // a stray end
            if b >= 0x80 {
                partial = [b]
                running = b < 0xF0 ? b : 0
            } else {
                if partial.isEmpty {
                    guard running != 0 else { continue }  // data with no status: nothing to attach it to
                    partial = [running]
                }
                partial.append(b)
            }
            if partial.count == (MIDIConversion.dataCount(partial[0]) ?? 0) + 1 { out.append(partial); partial = [] }
        }
        return out
    }
}
