import Foundation

/// A MIDI control change.
open class AVMIDIControlChangeEvent: AVMIDIChannelEvent, @unchecked Sendable {
    /// The controller number (kept as read, also for controllers MessageType has no case for).
    let controller: UInt32

    /// The controller; one MessageType has no case for reads as `.bankSelect` (its number is kept in the track).
    open var messageType: MessageType { MessageType(rawValue: Int(controller)) ?? .bankSelect }
    /// The controller's value, 0-127.
    public let value: UInt32

    /// A control change on `channel` of the controller `messageType` to `value`.
    public init(channel: UInt32, messageType: MessageType, value: UInt32) {
        controller = UInt32(messageType.rawValue)
        self.value = value
        super.init()
        self.channel = channel
    }

    init(channel: UInt32, controller: UInt32, value: UInt32) {
        self.controller = controller
        self.value = value
        super.init()
        self.channel = channel
    }

    override var message: (status: UInt8, data1: UInt8, data2: UInt8) {
        (0xB0, UInt8(truncatingIfNeeded: controller), UInt8(truncatingIfNeeded: value))
    }
}
