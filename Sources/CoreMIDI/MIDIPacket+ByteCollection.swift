extension MIDIPacket {
    /// A packet's bytes, read in place (Apple's Swift overlay type): all `length` of them, even a SysEx
    /// packet's beyond the nominal 256.
    public struct ByteCollection: RandomAccessCollection {
        public typealias Index = Int
        public typealias Element = UInt8
        let packet: UnsafePointer<MIDIPacket>

        /// The bytes of `p`.
        public init(_ p: UnsafePointer<MIDIPacket>) { packet = p }

        /// The bytes of `p`, or nil for a nil pointer.
        public init?(_ p: UnsafePointer<MIDIPacket>?) {
            guard let p else { return nil }
            packet = p
        }

        /// Always zero.
        public var startIndex: Int { 0 }
        /// The packet's length.
        public var endIndex: Int { Int(packet.pointee.length) }
        /// The number of bytes.
        public var count: Int { endIndex }

        /// The byte at `index` (`data[index]`).
        public subscript(index: Int) -> UInt8 {
            precondition(index >= 0 && index < endIndex, "MIDIPacket byte index out of range")
            return (UnsafeRawPointer(packet) + 10 + index).load(as: UInt8.self)
        }
    }
}

extension UnsafePointer where Pointee == MIDIPacket {
    /// The packet's bytes.
    public func bytes() -> MIDIPacket.ByteCollection { MIDIPacket.ByteCollection(self) }
}
