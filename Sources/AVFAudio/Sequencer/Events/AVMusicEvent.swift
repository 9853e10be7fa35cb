import Foundation

/// The base of the events an AVMusicTrack holds (macOS 13). An event is a value: adding it copies its content into
/// the track, and enumerating a track hands out new event objects with the track's content.
open class AVMusicEvent: NSObject, @unchecked Sendable {
    /// An event without content; the subclasses carry content.
    public override init() { super.init() }

    /// The MusicPlayer event type and data this event stands for (nil: a bare AVMusicEvent, which no track holds).
    var musicEvent: (type: MusicEventType, bytes: [UInt8])? { nil }

    /// The bytes of a fixed-size MusicPlayer event struct.
    static func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// The header of a variable-length event (a 32-bit length, after `prefix`) followed by its data.
    static func variable(prefix: [UInt8], _ data: Data) -> [UInt8] {
        prefix + bytes(of: UInt32(data.count)) + Array(data)
    }

    /// The event object for a track's event: `size` bytes at `data`, as MusicEventIteratorGetEventInfo gives them.
    /// Lengths inside variable-length events are clamped to `size`.
    static func make(type: MusicEventType, data: UnsafeRawPointer, size: Int) -> AVMusicEvent {
        func u32(_ offset: Int) -> UInt32 { size >= offset + 4 ? data.loadUnaligned(fromByteOffset: offset, as: UInt32.self) : 0 }
        func tail(_ header: Int, _ length: UInt32) -> Data {
            Data(bytes: data + min(header, size), count: max(0, min(Int(length), size - header)))
        }
        switch type {
        case kMusicEventType_MIDINoteMessage:
            let m = data.loadUnaligned(as: MIDINoteMessage.self)
            let e = AVMIDINoteEvent(channel: UInt32(m.channel), key: UInt32(m.note), velocity: UInt32(m.velocity),
                                    duration: AVMusicTimeStamp(m.duration))
            e.releaseVelocity = m.releaseVelocity
            return e
        case kMusicEventType_MIDIChannelMessage:
            return AVMIDIChannelEvent.make(data.loadUnaligned(as: MIDIChannelMessage.self))
        case kMusicEventType_MIDIRawData:
            return AVMIDISysexEvent(data: tail(4, u32(0)))
        case kMusicEventType_User:
            return AVMusicUserEvent(data: tail(4, u32(0)))
        case kMusicEventType_Meta:
            let raw = data.load(as: UInt8.self)
            return AVMIDIMetaEvent(rawType: raw, data: tail(8, u32(4)))
        case kMusicEventType_ExtendedNote:
            let e = AVExtendedNoteOnEvent(midiNote: data.loadUnaligned(fromByteOffset: 16, as: Float32.self),
                                          velocity: data.loadUnaligned(fromByteOffset: 20, as: Float32.self),
                                          instrumentID: u32(0), groupID: u32(4),
                                          duration: AVMusicTimeStamp(data.loadUnaligned(fromByteOffset: 8, as: Float32.self)))
            return e
        case kMusicEventType_Parameter:
            let p = data.loadUnaligned(as: ParameterEvent.self)
            return AVParameterEvent(parameterID: p.parameterID, scope: p.scope, element: p.element, value: p.value)
        case kMusicEventType_AUPreset:
            let p = data.loadUnaligned(as: AUPresetEvent.self)
            let dictionary = (p.preset.takeUnretainedValue() as? [String: Any]) ?? [:]
            return AVAUPresetEvent(scope: p.scope, element: p.element, dictionary: dictionary)
        case kMusicEventType_ExtendedTempo:
            return AVExtendedTempoEvent(tempo: data.loadUnaligned(as: ExtendedTempoEvent.self).bpm)
        default:
            return AVMusicEvent()
        }
    }
}
