extension MIDIEventPacket {
    /// The words of one event packet (Apple's Swift overlay type).
    public struct WordSequence: Sequence {
        public typealias Element = UInt32
        let packet: UnsafePointer<MIDIEventPacket>

        /// A sequence over `packet`'s words.
        public init(_ packet: UnsafePointer<MIDIEventPacket>) { self.packet = packet }

        /// The number of words.
        public var count: Int { Int(packet.pointee.wordCount) }

        /// An iterator over a copy of the words.
        public func makeIterator() -> IndexingIterator<[UInt32]> {
            Array(UnsafeBufferPointer(start: (UnsafeRawPointer(packet) + 12).assumingMemoryBound(to: UInt32.self), count: count)).makeIterator()
        }
    }
}

extension UnsafePointer where Pointee == MIDIEventPacket {
    /// The packet's words.
    public func sequence() -> MIDIEventPacket.WordSequence { MIDIEventPacket.WordSequence(self) }
}
