/// Words in a UMP of each message type (the UMP spec's sizes; types 6-F reserved or stream messages).
let umpWordCounts = [1, 1, 1, 2, 2, 4, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4]

/// One UMP (its first word at `w[0]`) parsed into Apple's MIDIUniversalMessage.
func MIDIUniversalMessageParse(_ w: [UInt32]) -> MIDIUniversalMessage {
    var m = MIDIUniversalMessage()
    let w0 = w[0], w1 = w.count > 1 ? w[1] : 0
    let type = w0 >> 28
    m.group = UInt8(w0 >> 24 & 0xF)
    let nibble = UInt32(w0 >> 20 & 0xF), channel = UInt8(w0 >> 16 & 0xF)
    let byte2 = UInt8(w0 >> 8 & 0xFF), byte3 = UInt8(w0 & 0xFF)
    switch type {
    case 0x0:
        m.type = .utility
        m.utility.status = MIDIUtilityStatus(rawValue: nibble) ?? .NOOP
        m.utility.jitterReductionClock = UInt16(w0 & 0xFFFF)
    case 0x1:
        m.type = .system
        m.system.status = MIDISystemStatus(rawValue: w0 >> 16 & 0xFF) ?? MIDISystemStatus(rawValue: 0xF8)!
        if m.system.status.rawValue == 0xF2 {
            m.system.songPositionPointer = UInt16(byte2 & 0x7F) | UInt16(byte3 & 0x7F) << 7
        } else {
            m.system.timeCode = byte2 & 0x7F  // shares its byte with songSelect
        }
    case 0x2:
        m.type = .channelVoice1
        m.channelVoice1.status = MIDICVStatus(rawValue: nibble) ?? .noteOn
        m.channelVoice1.channel = channel
        switch nibble {
        case 0xC: m.channelVoice1.program = byte2 & 0x7F
        case 0xD: m.channelVoice1.channelPressure = byte2 & 0x7F
        case 0xE: m.channelVoice1.pitchBend = UInt16(byte2 & 0x7F) | UInt16(byte3 & 0x7F) << 7
        default: m.channelVoice1.note.number = byte2 & 0x7F; m.channelVoice1.note.velocity = byte3 & 0x7F
        }
    case 0x3:
        m.type = .sysEx
        m.sysEx.status = MIDISysExStatus(rawValue: nibble) ?? .complete
        m.sysEx.channel = channel  // the UMP's byte count nibble, where Apple's struct has `channel`
        m.sysEx.data = (byte2 & 0x7F, byte3 & 0x7F, UInt8(w1 >> 24 & 0x7F), UInt8(w1 >> 16 & 0x7F), UInt8(w1 >> 8 & 0x7F), UInt8(w1 & 0x7F))
    case 0x4:
        m.type = .channelVoice2
        m.channelVoice2.status = MIDICVStatus(rawValue: nibble) ?? .noteOn
        m.channelVoice2.channel = channel
        switch nibble {
        case 0x8, 0x9:
            m.channelVoice2.note.number = byte2 & 0x7F
            m.channelVoice2.note.attributeType = MIDINoteAttribute(rawValue: byte3) ?? .none
            m.channelVoice2.note.velocity = UInt16(w1 >> 16)
            m.channelVoice2.note.attribute = UInt16(w1 & 0xFFFF)
        case 0xA: m.channelVoice2.polyPressure.noteNumber = byte2 & 0x7F; m.channelVoice2.polyPressure.pressure = w1
        case 0xB: m.channelVoice2.controlChange.index = byte2 & 0x7F; m.channelVoice2.controlChange.data = w1
        case 0xC:
            m.channelVoice2.programChange.options = MIDIProgramChangeOptions(rawValue: byte3)
            m.channelVoice2.programChange.program = UInt8(w1 >> 24 & 0x7F)
            m.channelVoice2.programChange.bank = UInt16(w1 >> 8 & 0x7F) << 7 | UInt16(w1 & 0x7F)
        case 0xD: m.channelVoice2.channelPressure.data = w1
        case 0xE: m.channelVoice2.pitchBend.data = w1
        case 0x0, 0x1:
            m.channelVoice2.perNoteController.noteNumber = byte2 & 0x7F
            m.channelVoice2.perNoteController.index = byte3
            m.channelVoice2.perNoteController.data = w1
        case 0x2, 0x3, 0x4, 0x5:
            m.channelVoice2.controller.bank = byte2 & 0x7F
            m.channelVoice2.controller.index = byte3 & 0x7F
            m.channelVoice2.controller.data = w1
        case 0x6: m.channelVoice2.perNotePitchBend.noteNumber = byte2 & 0x7F; m.channelVoice2.perNotePitchBend.bend = w1
        default:
            m.channelVoice2.perNoteManagement.note = byte2 & 0x7F
            m.channelVoice2.perNoteManagement.options = MIDIPerNoteManagementOptions(rawValue: byte3)
        }
    case 0x5:
        m.type = .data128
        m.data128.status = MIDISysExStatus(rawValue: nibble) ?? .complete
        let payload = (1..<4).flatMap { i -> [UInt8] in
            let x = i < w.count ? w[i] : 0
            return [UInt8(x >> 24), UInt8(x >> 16 & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x & 0xFF)]
        }
        if nibble >= 8 {
            m.data128.mixedDataSet.mdsID = UInt8(channel)
            withUnsafeMutableBytes(of: &m.data128.mixedDataSet.data) { $0.copyBytes(from: [byte2, byte3] + payload) }
        } else {
            m.data128.sysex8.byteCount = channel
            m.data128.sysex8.streamID = byte2
            withUnsafeMutableBytes(of: &m.data128.sysex8.data) { $0.copyBytes(from: [byte3] + payload) }
        }
    default:
        m.type = .unknownF
        m.unknown.words = (w0, w1, w.count > 2 ? w[2] : 0, w.count > 3 ? w[3] : 0)
    }
    return m
}

/// Calls `visitor` with every UMP of an event list, parsed into a MIDIUniversalMessage (raw words for
/// message types it has no variant for).
public func MIDIEventListForEachEvent(_ evtlist: UnsafePointer<MIDIEventList>!, _ visitor: MIDIEventVisitor!,
                                      _ visitorContext: UnsafeMutableRawPointer!) {
    guard let evtlist, let visitor else { return }
    for packet in evtlist.unsafeSequence() {
        let words = Array(packet.sequence())
        var i = 0
        while i < words.count {
            let size = umpWordCounts[Int(words[i] >> 28)]
            visitor(visitorContext, packet.pointee.timeStamp, MIDIUniversalMessageParse(Array(words[i..<min(i + size, words.count)])))
            i += size
        }
    }
}
