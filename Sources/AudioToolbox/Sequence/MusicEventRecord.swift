import Foundation

/// One event of a track: its time in beats, Apple's event type and its data.
struct MusicEventRecord {
    var time: MusicTimeStamp
    var type: MusicEventType
    var payload: MusicEventPayload

    /// Sizes of the fixed-size event types (variable ones are measured from their length field).
    static func fixedSize(_ type: MusicEventType) -> Int? {
        switch type {
        case kMusicEventType_MIDINoteMessage: MemoryLayout<MIDINoteMessage>.size
        case kMusicEventType_MIDIChannelMessage: MemoryLayout<MIDIChannelMessage>.size
        case kMusicEventType_ExtendedTempo: MemoryLayout<ExtendedTempoEvent>.size
        case kMusicEventType_Parameter: MemoryLayout<ParameterEvent>.size
        case kMusicEventType_ExtendedControl: MemoryLayout<ExtendedControlEvent>.size
        case kMusicEventType_AUPreset: MemoryLayout<AUPresetEvent>.size
        default: nil
        }
    }

    /// Largest variable-length event accepted from a caller (far beyond any MIDI use).
    static let maximumDataLength = 1 << 26

    /// Copies a caller's event data of the given type; nil for an unknown type or an absurd length.
    static func payload(type: MusicEventType, data: UnsafeRawPointer) -> MusicEventPayload? {
        if let size = fixedSize(type) {
            if type == kMusicEventType_AUPreset {
                let preset = data.loadUnaligned(as: AUPresetEvent.self)
                return MusicEventPayload(copying: data, size: size, minimum: size, object: preset.preset.takeUnretainedValue())
            }
            return MusicEventPayload(copying: data, size: size, minimum: size)
        }
        let header: Int, length: Int
        switch type {
        case kMusicEventType_MIDIRawData, kMusicEventType_User:
            header = 4; length = Int(data.loadUnaligned(as: UInt32.self))
        case kMusicEventType_Meta:
            header = 8; length = Int(data.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        case kMusicEventType_ExtendedNote:
            // Fixed part (instrument, group, duration, argCount, pitch, velocity), then argCount - 2 controls.
            let argCount = Int(data.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            guard argCount >= 2, argCount <= 2 + 4096 else { return nil }
            header = 24; length = (argCount - 2) * MemoryLayout<NoteParamsControlValue>.stride
        default:
            return nil
        }
        guard length <= maximumDataLength else { return nil }
        return MusicEventPayload(copying: data, size: header + length, minimum: header + 8)
    }

    /// A note's end (its start when it has no duration).
    var end: MusicTimeStamp {
        switch type {
        case kMusicEventType_MIDINoteMessage:
            return time + max(0, MusicTimeStamp(payload.load(as: MIDINoteMessage.self).duration))
        case kMusicEventType_ExtendedNote:
            return time + max(0, MusicTimeStamp(payload.bytes.loadUnaligned(fromByteOffset: 8, as: Float32.self)))
        default:
            return time
        }
    }

    func moved(to t: MusicTimeStamp) -> MusicEventRecord { MusicEventRecord(time: t, type: type, payload: payload) }
}
