import Foundation

/// A MIDI system exclusive message (the track's MIDIRawData); its content is fixed once made.
open class AVMIDISysexEvent: AVMusicEvent, @unchecked Sendable {
    let data: Data

    /// The message's raw bytes.
    public init(data: Data) {
        self.data = data
        super.init()
    }

    /// The message's size in bytes.
    open var sizeInBytes: UInt32 { UInt32(clamping: data.count) }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        (kMusicEventType_MIDIRawData, Self.variable(prefix: [], data))
    }
}
