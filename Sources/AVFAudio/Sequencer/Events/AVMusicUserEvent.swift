import Foundation

/// Data of the application's own, handed to the sequencer's user callback when played (the track's
/// MusicEventUserData); its content is fixed once made.
open class AVMusicUserEvent: AVMusicEvent, @unchecked Sendable {
    let data: Data

    /// An event carrying `data`.
    public init(data: Data) {
        self.data = data
        super.init()
    }

    /// The data's size in bytes.
    open var sizeInBytes: UInt32 { UInt32(clamping: data.count) }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        (kMusicEventType_User, Self.variable(prefix: [], data))
    }
}
