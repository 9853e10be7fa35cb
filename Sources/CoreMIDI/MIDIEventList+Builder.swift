extension MIDIEventList {
    /// Owns an event list of a fixed size in words and appends to it with MIDIEventListAdd (Apple's overlay class).
    public final class Builder {
        let byteSize: Int
        let midiProtocol: MIDIProtocolID
        let storage: UnsafeMutableRawPointer
        var current: UnsafeMutablePointer<MIDIEventPacket>

        /// A builder for an empty list in `inProtocol` of `wordSize` 32-bit words.
        public init(inProtocol: MIDIProtocolID, wordSize: Int) {
            byteSize = max(wordSize * 4, 8)  // at least protocol and numPackets
            midiProtocol = inProtocol
            storage = UnsafeMutableRawPointer.allocate(byteCount: byteSize, alignment: 8)
            current = MIDIEventListInit(storage.bindMemory(to: MIDIEventList.self, capacity: 1), inProtocol)
        }

        deinit { storage.deallocate() }

        var list: UnsafeMutablePointer<MIDIEventList> { storage.assumingMemoryBound(to: MIDIEventList.self) }

        /// The number of packets.
        public var count: Int { Int(list.pointee.numPackets) }

        /// Adds UMP words at `timestamp`; nil when the list is full.
        @discardableResult
        public func append(timestamp: MIDITimeStamp, words: [UInt32]) -> UnsafePointer<MIDIEventPacket>? {
            guard !words.isEmpty, let next = words.withUnsafeBufferPointer({ MIDIEventListAdd(list, byteSize, current, timestamp, words.count, $0.baseAddress!) }) else { return nil }
            current = next
            return UnsafePointer(next)
        }

        /// Empties the list.
        public func clear() { current = MIDIEventListInit(list, midiProtocol) }

        /// Calls `body` with the list.
        public func withUnsafePointer<Result>(_ body: (UnsafePointer<MIDIEventList>) throws -> Result) rethrows -> Result {
            try body(UnsafePointer(list))
        }
    }
}
