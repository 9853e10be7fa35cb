import Foundation

/// A note with fractional key and velocity for the units that take them (the track's ExtendedNoteOnEvent), on a
/// group (channel) that may be above 15.
open class AVExtendedNoteOnEvent: AVMusicEvent, @unchecked Sendable {
    /// The instrument ID that means "the group's current instrument", the only one units take
    /// (MusicDevice's kMusicNoteEvent_UseGroupInstrument).
    public class var defaultInstrument: UInt32 { kMusicNoteEvent_UseGroupInstrument }

    /// The key, usually 0-127, fractions allowed.
    open var midiNote: Float
    /// The velocity, usually 0-127, fractions allowed.
    open var velocity: Float
    /// The instrument (`defaultInstrument`).
    open var instrumentID: UInt32
    /// The group (channel) that plays the note.
    open var groupID: UInt32
    /// The note's length in beats.
    open var duration: AVMusicTimeStamp

    /// A note for the group's current instrument.
    public convenience init(midiNote: Float, velocity: Float, groupID: UInt32, duration: AVMusicTimeStamp) {
        self.init(midiNote: midiNote, velocity: velocity, instrumentID: Self.defaultInstrument, groupID: groupID, duration: duration)
    }

    /// A note for an instrument (pass `defaultInstrument`).
    public init(midiNote: Float, velocity: Float, instrumentID: UInt32, groupID: UInt32, duration: AVMusicTimeStamp) {
        self.midiNote = midiNote
        self.velocity = velocity
        self.instrumentID = instrumentID
        self.groupID = groupID
        self.duration = duration
        super.init()
    }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        // instrument, group, duration, then MusicDeviceNoteParams with its two arguments (pitch, velocity).
        let bytes = Self.bytes(of: instrumentID) + Self.bytes(of: groupID) + Self.bytes(of: Float32(max(0, duration)))
            + Self.bytes(of: UInt32(2)) + Self.bytes(of: Float32(midiNote)) + Self.bytes(of: Float32(velocity))
            + [UInt8](repeating: 0, count: MemoryLayout<NoteParamsControlValue>.stride)  // the struct's one control slot
        return (kMusicEventType_ExtendedNote, bytes)
    }
}
