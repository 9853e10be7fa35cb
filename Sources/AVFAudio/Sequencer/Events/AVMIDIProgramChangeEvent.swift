import Foundation

/// A MIDI program change (the instrument it picks depends on earlier bank selects and the destination).
open class AVMIDIProgramChangeEvent: AVMIDIChannelEvent, @unchecked Sendable {
    /// The program number, 0-127.
    open var programNumber: UInt32

    /// Program `programNumber` on `channel`.
    public init(channel: UInt32, programNumber: UInt32) {
        self.programNumber = programNumber
        super.init()
        self.channel = channel
    }

    override var message: (status: UInt8, data1: UInt8, data2: UInt8) {
        (0xC0, UInt8(truncatingIfNeeded: programNumber), 0)
    }
}
