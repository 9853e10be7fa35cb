/// One event for an instrument's next render: a MIDI channel message, or a note started or stopped through
/// MusicDeviceStartNote/StopNote (with its instance ID and fractional pitch and velocity). Plain data, so
/// queues of it are preallocated slots.
struct MusicDeviceEvent {
    enum Kind: UInt8 {
        case midi
        case startNote
        case stopNote
    }

    var kind: Kind = .midi
    var status: UInt8 = 0
    var data1: UInt8 = 0
    var data2: UInt8 = 0
    /// The frame within the render the event applies at (events further ahead wait for later renders).
    var offset: UInt32 = 0
    /// StartNote/StopNote: the group (MIDI channel; only the low 4 bits are used) and the instance ID.
    var group: UInt32 = 0
    var noteID: NoteInstanceID = 0
    var pitch: Float = 0
    var velocity: Float = 0
}
