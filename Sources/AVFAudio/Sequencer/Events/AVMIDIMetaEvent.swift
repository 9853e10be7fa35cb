import Foundation

/// A Standard MIDI File meta event (the track's MIDIMetaEvent); its content is fixed once made. Tempo, SMPTE
/// offset and time signature events belong in the tempo track.
open class AVMIDIMetaEvent: AVMusicEvent, @unchecked Sendable {
    /// The meta event's type byte (kept as read, also for types EventType has no case for).
    let rawType: UInt8
    let data: Data

    /// A meta event of `type` with its data bytes.
    public init(type: EventType, data: Data) {
        rawType = UInt8(truncatingIfNeeded: type.rawValue)
        self.data = data
        super.init()
    }

    init(rawType: UInt8, data: Data) {
        self.rawType = rawType
        self.data = data
        super.init()
    }

    /// The meta event's type; one EventType has no case for reads as `.proprietaryEvent` (its byte is kept).
    open var type: EventType { EventType(rawValue: Int(rawType)) ?? .proprietaryEvent }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        (kMusicEventType_Meta, Self.variable(prefix: [rawType, 0, 0, 0], data))
    }
}
