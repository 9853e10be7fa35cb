import Foundation

/// One channel of a port: its number (from 1), name, label and the port it belongs to.
open class AVAudioSessionChannelDescription: NSObject, @unchecked Sendable {
    /// A name for the channel ("<port name> <number>").
    public let channelName: String
    /// The UID of the port the channel belongs to.
    public let owningPortUID: String
    /// The channel's number on its port, from 1.
    public let channelNumber: Int
    /// The channel's role (left, right, or a discrete channel).
    public let channelLabel: AudioChannelLabel

    init(channelName: String, owningPortUID: String, channelNumber: Int, channelLabel: AudioChannelLabel) {
        self.channelName = channelName
        self.owningPortUID = owningPortUID
        self.channelNumber = channelNumber
        self.channelLabel = channelLabel
        super.init()
    }

    /// Equal when the port and number are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionChannelDescription else { return false }
        return owningPortUID == other.owningPortUID && channelNumber == other.channelNumber
    }

    open override var hash: Int { owningPortUID.hashValue ^ channelNumber }
}
