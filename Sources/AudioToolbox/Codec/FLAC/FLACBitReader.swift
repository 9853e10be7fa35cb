/// Reads big-endian bit fields from a byte buffer it never reads past. Bits past the end read as zeros and
/// make `overrun` true, so callers can decode a whole structure and check once, and loops that could spin
/// on zeros (unary codes) check `isPastEnd` and stop.
struct FLACBitReader {
    private let base: UnsafePointer<UInt8>
    /// Bytes that may be read.
    let count: Int
    /// The next byte not yet loaded into `cache` (may pass `count`: those bytes are virtual zeros).
    private var position: Int
    /// Bits left-aligned: the top `bits` bits are the next bits of the stream. Lower bits are either zero
    /// or the correct following stream bits, which is what lets `refill` OR a whole word in.
    private var cache: UInt64 = 0
    private var bits: Int = 0

    /// A reader of `data` starting at byte `offset` (clamped to the buffer).
    init(_ data: UnsafeRawBufferPointer, offset: Int = 0) {
        // An empty buffer has no base address; no byte of the placeholder is ever read (count is 0).
        base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
        count = data.count
        position = min(max(offset, 0), data.count)
    }

    /// Bits consumed since the start of the buffer.
    var bitPosition: Int { position &* 8 &- bits }
    /// Whether more bits were read than the buffer holds (the values read were partly zeros made up).
    var overrun: Bool { bitPosition > count &* 8 }
    /// Whether the reader is byte-aligned.
    var isByteAligned: Bool { bits & 7 == 0 }
    /// Bytes consumed, rounding a partial byte up.
    var bytePosition: Int { (bitPosition + 7) >> 3 }

    /// Tops the cache up to at least 56 valid bits: one unaligned 8-byte load while 8 bytes remain, else a
    /// byte at a time with zeros past the end.
    @inline(__always)
    mutating func refill() {
        if position &+ 8 <= count {
            let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            cache |= word &>> UInt64(truncatingIfNeeded: bits)
            position &+= (63 &- bits) &>> 3
            bits |= 56
        } else {
            refillTail()
        }
    }

    /// The byte-wise refill for the last bytes of the buffer and past it.
    @inline(never)
    private mutating func refillTail() {
        while bits <= 56 {
            if position < count { cache |= UInt64(base[position]) &<< UInt64(56 &- bits) }
            position &+= 1
            bits &+= 8
        }
    }

    /// The next `n` bits (0...32) as an unsigned value.
    @inline(__always)
    mutating func read(_ n: Int) -> UInt32 {
        if bits < n { refill() }
        let v = (cache &>> 1) &>> UInt64(truncatingIfNeeded: 63 &- n)  // two shifts so n == 0 yields 0
        cache = cache &<< UInt64(truncatingIfNeeded: n)
        bits &-= n
        return UInt32(truncatingIfNeeded: v)
    }

    /// The next `n` bits (0...33) as a two's-complement signed value.
    @inline(__always)
    mutating func readSigned(_ n: Int) -> Int64 {
        if bits < n { refill() }
        guard n > 0 else { return 0 }
        let v = Int64(bitPattern: cache) &>> Int64(64 &- n)
        cache = cache &<< UInt64(truncatingIfNeeded: n)
        bits &-= n
        return v
    }

    /// Skips `n` bits (any count; skipping past the end sets `overrun`).
    mutating func skip(_ n: Int) {
        var left = n
        while left > 32 {
            _ = read(32)
            left -= 32
            if overrun { return }
        }
        _ = read(left)
    }

    /// Skips to the next byte boundary.
    mutating func alignToByte() {
        _ = read(bits & 7)
    }

    /// Counts zero bits up to and including a one bit; nil when more than `limit` zeros come first or the
    /// zeros run past the end of the buffer.
    @inline(__always)
    mutating func readUnary(limit: Int) -> Int? {
        var q = 0
        while true {
            if bits < 56 { refill() }
            let lz = cache.leadingZeroBitCount
            if lz < bits {
                q &+= lz
                cache = cache &<< UInt64(truncatingIfNeeded: lz &+ 1)
                bits &-= lz &+ 1
                return q <= limit ? q : nil
            }
            q &+= bits
            cache = 0
            bits = 0
            if q > limit || position > count { return nil }
        }
    }

    /// Reads `n` Rice-coded residuals with parameter `k` (0...30) into `out`, zigzag-decoded. Returns false
    /// on a value that does not fit 32 bits or a unary run past the end. Fast path: the unary code and the
    /// `k` low bits come from the cache with one leading-zero count.
    @inline(__always)
    mutating func readRice(into out: UnsafeMutablePointer<Int32>, count n: Int, parameter k: Int) -> Bool {
        var cache = self.cache, bits = self.bits, position = self.position
        let count = self.count, base = self.base
        let kk = UInt64(truncatingIfNeeded: k)
        let lowShift = UInt64(truncatingIfNeeded: 63 &- k)
        var i = 0
        defer {
            self.cache = cache
            self.bits = bits
            self.position = position
        }
        while i < n {
            if bits < 32 {
                if position &+ 8 <= count {
                    let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    cache |= word &>> UInt64(truncatingIfNeeded: bits)
                    position &+= (63 &- bits) &>> 3
                    bits |= 56
                } else {
                    self.cache = cache
                    self.bits = bits
                    self.position = position
                    refillTail()
                    cache = self.cache
                    bits = self.bits
                    position = self.position
                }
            }
            let lz = cache.leadingZeroBitCount
            let used = lz &+ 1 &+ k
            if used <= bits {
                // used <= bits <= 63 puts lz <= 62: the shift is in range and lz << k (k <= 30) stays below 2^36.
                let rest = cache &<< UInt64(truncatingIfNeeded: lz &+ 1)
                let v = UInt64(truncatingIfNeeded: lz) &<< kk | ((rest &>> 1) &>> lowShift)
                cache = rest &<< kk
                bits &-= used
                guard v <= UInt64(UInt32.max) else { return false }
                let u = UInt32(truncatingIfNeeded: v)
                out[i] = Int32(bitPattern: (u &>> 1) ^ (0 &- (u & 1)))
                i &+= 1
                continue
            }
            // A long unary run (or the cache is short): count zeros across refills.
            var q = 0
            while true {
                let z = cache.leadingZeroBitCount
                if z < bits {
                    q &+= z
                    cache = cache &<< UInt64(truncatingIfNeeded: z &+ 1)
                    bits &-= z &+ 1
                    break
                }
                q &+= bits
                cache = 0
                bits = 0
                // Past the end only made-up zeros follow; a value this large cannot fit 32 bits anyway.
                guard position <= count, q <= Int(UInt32.max) else { return false }
                self.cache = cache
                self.bits = bits
                self.position = position
                refill()
                cache = self.cache
                bits = self.bits
                position = self.position
            }
            guard q <= Int(UInt32.max &>> UInt32(truncatingIfNeeded: k)) else { return false }
            if bits < k {
                self.cache = cache
                self.bits = bits
                self.position = position
                refill()
                cache = self.cache
                bits = self.bits
                position = self.position
            }
            let low = (cache &>> 1) &>> lowShift
            cache = cache &<< kk
            bits &-= k
            let v = UInt64(truncatingIfNeeded: q) &<< kk | low
            guard v <= UInt64(UInt32.max) else { return false }
            let u = UInt32(truncatingIfNeeded: v)
            out[i] = Int32(bitPattern: (u &>> 1) ^ (0 &- (u & 1)))
            i &+= 1
        }
        return true
    }
}
