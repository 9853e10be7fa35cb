extension MIDIPacketList {
    /// Owns a packet list of a fixed byte size and appends to it with MIDIPacketListAdd (Apple's overlay class).
    public final class Builder {
        let byteSize: Int
        let storage: UnsafeMutableRawPointer
        var current: UnsafeMutablePointer<MIDIPacket>

        /// A builder for an empty list of `byteSize` bytes.
        public init(byteSize: Int) {
            self.byteSize = max(byteSize, 4)  // at least numPackets
            storage = UnsafeMutableRawPointer.allocate(byteCount: self.byteSize, alignment: 8)
            current = MIDIPacketListInit(storage.bindMemory(to: MIDIPacketList.self, capacity: 1))
        }

        deinit { storage.deallocate() }

        var list: UnsafeMutablePointer<MIDIPacketList> { storage.assumingMemoryBound(to: MIDIPacketList.self) }

        /// The number of packets.
        public var count: Int { Int(list.pointee.numPackets) }

        /// Adds bytes at `timestamp`; nil when the list is full.
        @discardableResult
        public func append(timestamp: MIDITimeStamp, data: [UInt8]) -> UnsafePointer<MIDIPacket>? {
            guard let next = data.withUnsafeBufferPointer({ MIDIPacketListAdd(list, byteSize, current, timestamp, data.count, $0.baseAddress!) }) else { return nil }
            current = next
            return UnsafePointer(next)
        }

        /// Empties the list.
        public func clear() { current = MIDIPacketListInit(list) }

        /// Calls `body` with the list.
        public func withUnsafePointer<Result>(_ body: (UnsafePointer<MIDIPacketList>) throws -> Result) rethrows -> Result {
            try body(UnsafePointer(list))
        }
    }
}
