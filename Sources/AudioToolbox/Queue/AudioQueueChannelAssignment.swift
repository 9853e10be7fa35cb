/// A device channel a queue channel plays to (kAudioQueueProperty_ChannelAssignments), Apple's layout.
public struct AudioQueueChannelAssignment {
    /// The device's UID.
    public var mDeviceUID: Unmanaged<CFString>
    /// The device channel, from 1.
    public var mChannelNumber: UInt32
    /// An assignment of `mChannelNumber` on the device `mDeviceUID`.
    public init(mDeviceUID: Unmanaged<CFString>, mChannelNumber: UInt32) {
        self.mDeviceUID = mDeviceUID
        self.mChannelNumber = mChannelNumber
    }
}
