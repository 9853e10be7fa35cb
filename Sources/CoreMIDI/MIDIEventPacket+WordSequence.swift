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

extension MIDIEventPacket {
    /// A packet's words, read in place (Apple's Swift overlay type): `words[i]` for i below `wordCount`.
    public struct WordCollection: RandomAccessCollection {
        public typealias Index = Int
        public typealias Element = UInt32
        let packet: UnsafePointer<MIDIEventPacket>

        /// The words of `p`.
        public init(_ p: UnsafePointer<MIDIEventPacket>) { packet = p }

        /// The words of `p`, or nil for a nil pointer.
        public init?(_ p: UnsafePointer<MIDIEventPacket>?) {
            guard let p else { return nil }
            packet = p
        }

        /// Always zero.
        public var startIndex: Int { 0 }
        /// The packet's word count.
        public var endIndex: Int { Int(packet.pointee.wordCount) }
        /// The number of words.
        public var count: Int { endIndex }

        /// The word at `index` (`words[index]`).
        public subscript(index: Int) -> UInt32 {
            precondition(index >= 0 && index < endIndex, "MIDIEventPacket word index out of range")
            // The words follow the 8-byte time stamp and the 4-byte count (the struct is packed to 4).
            return (UnsafeRawPointer(packet) + 12 + 4 * index).loadUnaligned(as: UInt32.self)
        }
    }
}

extension UnsafePointer where Pointee == MIDIEventPacket {
    /// The packet's words as a collection.
    public func words() -> MIDIEventPacket.WordCollection { MIDIEventPacket.WordCollection(self) }
}
