extension MIDIPacketList {
    /// The packets of a packet list, walked with MIDIPacketNext (Apple's Swift overlay type).
    public struct UnsafeSequence: Sequence {
        public typealias Element = UnsafePointer<MIDIPacket>
        let list: UnsafePointer<MIDIPacketList>

        /// A sequence over `list`'s packets.
        public init(_ list: UnsafePointer<MIDIPacketList>) { self.list = list }

        /// The number of packets.
        public var count: Int { Int(list.pointee.numPackets) }

        /// Walks the packets in order.
        public struct Iterator: IteratorProtocol {
            var upcoming: UnsafePointer<MIDIPacket>
            var left: Int

            /// The next packet, or nil after the last.
            public mutating func next() -> UnsafePointer<MIDIPacket>? {
                guard left > 0 else { return nil }
                let current = upcoming
                left -= 1
                if left > 0 { upcoming = UnsafePointer(MIDIPacketNext(current)) }
                return current
            }
        }

        /// An iterator from the first packet.
        public func makeIterator() -> Iterator { Iterator(upcoming: UnsafePointer(MIDIPacketListFirst(list)), left: count) }
    }
}

extension UnsafePointer where Pointee == MIDIPacketList {
    /// The list's packets, as Apple's overlay iterates them.
    public func unsafeSequence() -> MIDIPacketList.UnsafeSequence { MIDIPacketList.UnsafeSequence(self) }
}

extension UnsafeMutablePointer where Pointee == MIDIPacketList {
    /// The list's packets, as Apple's overlay iterates them.
    public func unsafeSequence() -> MIDIPacketList.UnsafeSequence { MIDIPacketList.UnsafeSequence(UnsafePointer(self)) }
}
