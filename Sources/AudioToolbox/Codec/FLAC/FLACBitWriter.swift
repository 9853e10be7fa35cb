/// Writes big-endian bit fields into caller-owned memory. Writing past `capacity` writes nothing more and
/// sets `overflow`, so a frame that would not fit is detected once at the end.
struct FLACBitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes stored in memory so far.
    private(set) var byteCount = 0
    /// Pending bits, right-aligned; only the low `pending` bits matter.
    private var acc: UInt64 = 0
    private var pending = 0
    private(set) var overflow = false

    /// A saved writer state; restoring it discards everything written after.
    struct Mark {
        fileprivate let byteCount: Int, acc: UInt64, pending: Int, overflow: Bool
    }

    /// A writer into `capacity` bytes at `base`.
    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Bits written so far.
    var bitCount: Int { byteCount &* 8 &+ pending }

    /// The current state, for `restore`.
    var mark: Mark { Mark(byteCount: byteCount, acc: acc, pending: pending, overflow: overflow) }

    /// Rewinds to a state from `mark` (bytes already stored before it are untouched by later writes).
    mutating func restore(_ m: Mark) {
        byteCount = m.byteCount
        acc = m.acc
        pending = m.pending
        overflow = m.overflow
    }

    /// Appends the low `bits` (0...32) bits of `value`; higher bits of `value` must be zero.
    @inline(__always)
    mutating func write(_ value: UInt32, bits: Int) {
        acc = acc &<< UInt64(truncatingIfNeeded: bits) | UInt64(value)
        pending &+= bits
        if pending >= 32 { flush32() }
    }

    /// Appends the low `bits` (0...32) bits of a signed value in two's complement.
    @inline(__always)
    mutating func writeSigned(_ value: Int64, bits: Int) {
        guard bits > 0 else { return }
        let mask = UInt64.max &>> UInt64(truncatingIfNeeded: 64 &- bits)
        if bits > 32 {
            write(UInt32(truncatingIfNeeded: (UInt64(bitPattern: value) & mask) >> 32), bits: bits - 32)
            write(UInt32(truncatingIfNeeded: value), bits: 32)
        } else {
            write(UInt32(truncatingIfNeeded: UInt64(bitPattern: value) & mask), bits: bits)
        }
    }

    /// Stores the top 32 of the pending bits.
    @inline(__always)
    private mutating func flush32() {
        let word = UInt32(truncatingIfNeeded: acc &>> UInt64(truncatingIfNeeded: pending &- 32))
        pending &-= 32
        if byteCount &+ 4 <= capacity {
            UnsafeMutableRawPointer(base + byteCount).storeBytes(of: word.bigEndian, as: UInt32.self)
            byteCount &+= 4
        } else {
            overflow = true
        }
    }

    /// Stores all whole pending bytes (leaves fewer than 8 bits pending).
    mutating func flushWholeBytes() {
        while pending >= 8 {
            pending -= 8
            if byteCount < capacity {
                base[byteCount] = UInt8(truncatingIfNeeded: acc >> UInt64(pending))
                byteCount += 1
            } else {
                overflow = true
            }
        }
    }

    /// Pads with zero bits to a byte boundary and stores everything pending.
    mutating func alignToByte() {
        let pad = (8 - pending & 7) & 7
        write(0, bits: pad)
        flushWholeBytes()
    }

    /// Writes `n` zero bits followed by a one (a unary code).
    @inline(__always)
    mutating func writeUnary(_ n: Int) {
        var left = n
        while left >= 32 {
            write(0, bits: 32)
            left &-= 32
        }
        write(1, bits: left &+ 1)
    }

    /// Writes `count` residuals as Rice codes with parameter `k` (0...30), zigzag-folded.
    mutating func writeRice(_ r: UnsafePointer<Int32>, count: Int, parameter k: Int) {
        let kk = UInt32(truncatingIfNeeded: k)
        let lowMask: UInt32 = k == 0 ? 0 : (UInt32.max &>> (32 &- kk))
        for i in 0..<count {
            let e = r[i]
            let u = UInt32(bitPattern: (e &<< 1) ^ (e &>> 31))
            let q = Int(truncatingIfNeeded: u &>> kk)
            if q &+ k < 32 {
                write((1 &<< kk) | (u & lowMask), bits: q &+ 1 &+ k)
            } else {
                writeUnary(q)
                write(u & lowMask, bits: k)
            }
        }
    }

    /// CRC-8 of the stored bytes from `start` (byte-aligned output assumed; pending whole bytes are stored first).
    mutating func crc8(from start: Int) -> UInt8 {
        flushWholeBytes()
        return FLACCRC.crc8(base + start, count: byteCount - start)
    }

    /// CRC-16 of the stored bytes from `start`, after storing pending whole bytes.
    mutating func crc16(from start: Int) -> UInt16 {
        flushWholeBytes()
        return FLACCRC.crc16(base + start, count: byteCount - start)
    }
}
