extension MIDIEventList {
    /// The packets of an event list, walked with MIDIEventPacketNext (Apple's Swift overlay type).
    public struct UnsafeSequence: Sequence {
        public typealias Element = UnsafePointer<MIDIEventPacket>
        let list: UnsafePointer<MIDIEventList>

        /// A sequence over `list`'s packets.
        public init(_ list: UnsafePointer<MIDIEventList>) { self.list = list }

        /// The number of packets.
        public var count: Int { Int(list.pointee.numPackets) }

        /// Walks the packets in order.
        public struct Iterator: IteratorProtocol {
            var upcoming: UnsafePointer<MIDIEventPacket>
            var left: Int

            /// The next packet, or nil after the last.
            public mutating func next() -> UnsafePointer<MIDIEventPacket>? {
                guard left > 0 else { return nil }
                let current = upcoming
                left -= 1
                if left > 0 { upcoming = UnsafePointer(MIDIEventPacketNext(current)) }
                return current
            }
        }

        /// An iterator from the first packet.
        public func makeIterator() -> Iterator { Iterator(upcoming: UnsafePointer(MIDIEventListFirst(list)), left: count) }
    }
}

extension UnsafePointer where Pointee == MIDIEventList {
    /// The list's packets, as Apple's overlay iterates them.
    public func unsafeSequence() -> MIDIEventList.UnsafeSequence { MIDIEventList.UnsafeSequence(self) }
}

extension UnsafeMutablePointer where Pointee == MIDIEventList {
    /// The list's packets, as Apple's overlay iterates them.
    public func unsafeSequence() -> MIDIEventList.UnsafeSequence { MIDIEventList.UnsafeSequence(UnsafePointer(self)) }
}
