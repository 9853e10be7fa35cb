/// ALAC's MSB-first bit streams: a reader over a packet and a writer into a preallocated buffer.
enum ALACBitBuffer {
    /// Eight zero bytes: the base of a reader over an empty buffer, never read (its byte count is 0).
    nonisolated(unsafe) private static let empty = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)

    /// Reads MSB-first bits from a packet. Bits past the end read as zeros and make `isOverrun` true, so a
    /// truncated packet is detected after the fact without any access beyond its last byte.
    struct Reader {
        /// The packet's first byte.
        let base: UnsafeRawPointer
        /// The packet's length in bytes.
        let byteCount: Int
        /// The next bit to read, counted from the packet's first bit.
        var position = 0

        /// A reader at the first bit of `buffer`.
        init(_ buffer: UnsafeRawBufferPointer) {
            base = buffer.baseAddress ?? UnsafeRawPointer(ALACBitBuffer.empty)
            byteCount = buffer.baseAddress == nil ? 0 : buffer.count
        }

        /// The packet's length in bits.
        var bitCount: Int { byteCount &* 8 }

        /// Whether reads went past the last bit.
        var isOverrun: Bool { position > bitCount }

        /// The 64 bits from bit `pos` on, first bit in the top bit; at least 57 of them are the stream's,
        /// the rest (and everything past the end) zero.
        @inline(__always)
        func peek64(at pos: Int) -> UInt64 {
            let byte = pos &>> 3
            let word: UInt64
            if byte &+ 8 <= byteCount {
                word = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
            } else {
                word = tail(from: byte)
            }
            return word &<< UInt64(pos & 7)
        }

        /// The bytes from `byte` on as a big-endian word, zero past the end (the last 7 bytes' slow path).
        @inline(never)
        func tail(from byte: Int) -> UInt64 {
            var word: UInt64 = 0
            for i in 0..<8 {
                let index = byte &+ i
                let value: UInt8 = index >= 0 && index < byteCount ? base.load(fromByteOffset: index, as: UInt8.self) : 0
                word = word << 8 | UInt64(value)
            }
            return word
        }

        /// Reads `count` bits (0...32) as an unsigned value.
        @inline(__always)
        mutating func read(_ count: Int) -> UInt32 {
            let word = peek64(at: position)
            position &+= count
            return UInt32(truncatingIfNeeded: word >> UInt64(64 &- count))
        }

        /// Skips `count` bits; false, leaving the position alone, if that would pass the end.
        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= bitCount - position else { return false }
            position += count
            return true
        }

        /// Moves to the next byte boundary.
        mutating func alignToByte() {
            position = (position &+ 7) & ~7
        }
    }

    /// Writes MSB-first bits into a caller-owned buffer. Writes past its capacity are dropped and set
    /// `overflowed`, so a bad size estimate can never write out of bounds.
    struct Writer {
        /// The buffer's first byte.
        let base: UnsafeMutableRawPointer
        /// Bytes the buffer holds.
        let capacity: Int
        /// Bytes already stored from the accumulator.
        private(set) var byteOffset = 0
        /// Bits not yet stored, in the low `pending` bits.
        private var accumulator: UInt64 = 0
        /// How many bits of `accumulator` are pending (< 32 between calls).
        private var pending = 0
        /// Whether any write fell past `capacity`.
        private(set) var overflowed = false

        /// A writer at the start of `capacity` bytes at `base`.
        init(_ base: UnsafeMutableRawPointer, capacity: Int) {
            self.base = base
            self.capacity = capacity
        }

        /// A writer with no room: it only counts bits.
        static var discarding: Writer { Writer(ALACBitBuffer.empty, capacity: 0) }

        /// Bits written so far.
        var position: Int { byteOffset &* 8 &+ pending }

        /// Writes the low `count` bits (0...32) of `value`.
        @inline(__always)
        mutating func write(_ value: UInt32, _ count: Int) {
            let bits = UInt64(count)
            accumulator = accumulator &<< bits | (UInt64(value) & ((1 &<< bits) &- 1))
            pending &+= count
            if pending >= 32 {
                pending &-= 32
                store(UInt32(truncatingIfNeeded: accumulator &>> UInt64(pending)))
            }
        }

        /// Stores one big-endian word at the current byte offset.
        @inline(__always)
        private mutating func store(_ word: UInt32) {
            if byteOffset &+ 4 <= capacity {
                base.storeBytes(of: word.bigEndian, toByteOffset: byteOffset, as: UInt32.self)
            } else {
                overflowed = true
            }
            byteOffset &+= 4
        }

        /// Pads with zero bits to a byte boundary, stores everything pending, and returns the bytes written.
        mutating func finish() -> Int {
            write(0, (8 &- (pending & 7)) & 7)
            while pending >= 8 {
                pending &-= 8
                if byteOffset < capacity {
                    base.storeBytes(of: UInt8(truncatingIfNeeded: accumulator &>> UInt64(pending)), toByteOffset: byteOffset, as: UInt8.self)
                } else {
                    overflowed = true
                }
                byteOffset &+= 1
            }
            return byteOffset
        }
    }
}
