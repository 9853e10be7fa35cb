import Foundation

/// A MIDI pitch bend message.
open class AVMIDIPitchBendEvent: AVMIDIChannelEvent, @unchecked Sendable {
    /// The bend, 0-16383 (8192: none).
    open var value: UInt32

    /// Bend `value` on `channel`.
    public init(channel: UInt32, value: UInt32) {
        self.value = value
        super.init()
        self.channel = channel
    }

    override var message: (status: UInt8, data1: UInt8, data2: UInt8) {
        let v = min(value, 16383)
        return (0xE0, UInt8(v & 0x7F), UInt8(v >> 7))
    }
}
