import Foundation

/// The base of the MIDI messages for one channel (the track's MIDIChannelMessage). A channel message of a kind
/// no subclass covers enumerates as a plain AVMIDIChannelEvent and keeps its bytes when added back.
open class AVMIDIChannelEvent: AVMusicEvent, @unchecked Sendable {
    /// The MIDI channel, 0-15.
    open var channel: UInt32 = 0
    /// The status nibble (0x80-0xE0) and data bytes of a message no subclass covers.
    var other: (status: UInt8, data1: UInt8, data2: UInt8) = (0xB0, 0, 0)

    /// A channel event on channel 0.
    public override init() { super.init() }

    /// The message's status (kind without channel) and data bytes; subclasses give theirs.
    var message: (status: UInt8, data1: UInt8, data2: UInt8) { other }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        let m = message
        let c = MIDIChannelMessage(status: (m.status & 0xF0) | UInt8(truncatingIfNeeded: channel & 0x0F),
                                   data1: m.data1 & 0x7F, data2: m.data2 & 0x7F, reserved: 0)
        return (kMusicEventType_MIDIChannelMessage, Self.bytes(of: c))
    }

    /// The event object for a track's channel message.
    static func make(_ m: MIDIChannelMessage) -> AVMIDIChannelEvent {
        let channel = UInt32(m.status & 0x0F)
        let (d1, d2) = (UInt32(m.data1 & 0x7F), UInt32(m.data2 & 0x7F))
        switch m.status & 0xF0 {
        case 0xA0: return AVMIDIPolyPressureEvent(channel: channel, key: d1, pressure: d2)
        case 0xB0: return AVMIDIControlChangeEvent(channel: channel, controller: d1, value: d2)
        case 0xC0: return AVMIDIProgramChangeEvent(channel: channel, programNumber: d1)
        case 0xD0: return AVMIDIChannelPressureEvent(channel: channel, pressure: d1)
        case 0xE0: return AVMIDIPitchBendEvent(channel: channel, value: d1 | d2 << 7)
        default:
            let e = AVMIDIChannelEvent()
            e.channel = channel
            e.other = (m.status & 0xF0, m.data1, m.data2)
            return e
        }
    }
}
