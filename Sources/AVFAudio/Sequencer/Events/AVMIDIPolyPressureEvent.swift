import Foundation

/// A MIDI poly (key) pressure message.
open class AVMIDIPolyPressureEvent: AVMIDIChannelEvent, @unchecked Sendable {
    /// The MIDI key number the pressure applies to.
    open var key: UInt32
    /// The pressure, 0-127.
    open var pressure: UInt32

    /// Pressure `pressure` on `key` of `channel`.
    public init(channel: UInt32, key: UInt32, pressure: UInt32) {
        self.key = key
        self.pressure = pressure
        super.init()
        self.channel = channel
    }

    override var message: (status: UInt8, data1: UInt8, data2: UInt8) {
        (0xA0, UInt8(truncatingIfNeeded: key), UInt8(truncatingIfNeeded: pressure))
    }
}
