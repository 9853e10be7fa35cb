/// The two checksums of FLAC frames: CRC-8 (polynomial 0x07) over the header and CRC-16 (0x8005) over
/// the whole frame, both MSB-first from zero.
enum FLACCRC {
    /// CRC-8 table, one entry per byte value.
    static let table8: [UInt8] = (0..<256).map { i in
        var c = UInt8(i)
        for _ in 0..<8 { c = c & 0x80 != 0 ? (c << 1) ^ 0x07 : c << 1 }
        return c
    }

    /// Eight CRC-16 tables for slicing-by-8: table j gives the CRC of a byte followed by j zero bytes.
    static let tables16: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt16(i) << 8
            for _ in 0..<8 { c = c & 0x8000 != 0 ? (c << 1) ^ 0x8005 : c << 1 }
            t[i] = c
        }
        for j in 1..<8 {
            for i in 0..<256 {
                let prev = t[(j - 1) * 256 + i]
                t[j * 256 + i] = (prev << 8) ^ t[Int(prev >> 8)]
            }
        }
        return t
    }()

    /// CRC-8 of `count` bytes at `p`.
    static func crc8(_ p: UnsafePointer<UInt8>, count: Int) -> UInt8 {
        table8.withUnsafeBufferPointer { t in
            var c: UInt8 = 0
            for i in 0..<count { c = t[Int(c ^ p[i])] }
            return c
        }
    }

    /// CRC-16 of `count` bytes at `p`, continuing from `crc`. Eight bytes per step through the sliced tables.
    static func crc16(_ p: UnsafePointer<UInt8>, count: Int, crc: UInt16 = 0) -> UInt16 {
        tables16.withUnsafeBufferPointer { tb in
            let t = tb.baseAddress!
            var c = crc
            var i = 0
            while i &+ 8 <= count {
                let hi = (c >> 8) ^ UInt16(p[i]), lo = (c & 0xFF) ^ UInt16(p[i &+ 1])
                c = t[7 * 256 + Int(hi)] ^ t[6 * 256 + Int(lo)] ^ t[5 * 256 + Int(p[i &+ 2])]
                    ^ t[4 * 256 + Int(p[i &+ 3])] ^ t[3 * 256 + Int(p[i &+ 4])] ^ t[2 * 256 + Int(p[i &+ 5])]
                    ^ t[256 + Int(p[i &+ 6])] ^ t[Int(p[i &+ 7])]
                i &+= 8
            }
            while i < count {
                c = (c << 8) ^ t[Int((c >> 8) ^ UInt16(p[i]))]
                i &+= 1
            }
            return c
        }
    }
}
