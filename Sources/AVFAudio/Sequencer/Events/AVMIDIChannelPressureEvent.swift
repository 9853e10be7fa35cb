import Foundation

/// A MIDI channel pressure (aftertouch) message.
open class AVMIDIChannelPressureEvent: AVMIDIChannelEvent, @unchecked Sendable {
    /// The pressure, 0-127.
    open var pressure: UInt32

    /// Pressure `pressure` on `channel`.
    public init(channel: UInt32, pressure: UInt32) {
        self.pressure = pressure
        super.init()
        self.channel = channel
    }

    override var message: (status: UInt8, data1: UInt8, data2: UInt8) {
        (0xD0, UInt8(truncatingIfNeeded: pressure), 0)
    }
}
