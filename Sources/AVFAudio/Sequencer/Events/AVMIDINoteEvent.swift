import Foundation

/// A note: a note-on and, after `duration` beats, its note-off (the track's MIDINoteMessage).
open class AVMIDINoteEvent: AVMusicEvent, @unchecked Sendable {
    /// The MIDI channel, 0-15.
    open var channel: UInt32
    /// The MIDI key number, 0-127.
    open var key: UInt32
    /// The note-on velocity, 0-127 (0: a note-off).
    open var velocity: UInt32
    /// The note's length in beats.
    open var duration: AVMusicTimeStamp
    /// The note-off velocity a MIDI file gave the note (kept through enumeration and re-adding).
    var releaseVelocity: UInt8 = 0

    /// A note on `channel` with its key, velocity and length in beats.
    public init(channel: UInt32, key keyNum: UInt32, velocity: UInt32, duration: AVMusicTimeStamp) {
        self.channel = channel
        self.key = keyNum
        self.velocity = velocity
        self.duration = duration
        super.init()
    }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        let m = MIDINoteMessage(channel: UInt8(truncatingIfNeeded: channel & 0x0F), note: UInt8(truncatingIfNeeded: key & 0x7F),
                                velocity: UInt8(truncatingIfNeeded: velocity & 0x7F), releaseVelocity: releaseVelocity,
                                duration: Float32(max(0, duration)))
        return (kMusicEventType_MIDINoteMessage, Self.bytes(of: m))
    }
}
