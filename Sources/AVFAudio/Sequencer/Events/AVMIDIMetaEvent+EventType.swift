import Foundation

extension AVMIDIMetaEvent {
    /// Standard MIDI File meta event types, with Apple's raw values (the type byte).
    public enum EventType: Int, @unchecked Sendable {
        case sequenceNumber = 0x00
        case text = 0x01
        case copyright = 0x02
        case trackName = 0x03
        case instrument = 0x04
        case lyric = 0x05
        case marker = 0x06
        case cuePoint = 0x07
        case midiChannel = 0x20
        case midiPort = 0x21
        case endOfTrack = 0x2F
        case tempo = 0x51
        case smpteOffset = 0x54
        case timeSignature = 0x58
        case keySignature = 0x59
        case proprietaryEvent = 0x7F
    }
}
