/// Ogg's page checksum: CRC-32 with the polynomial 0x04C11DB7, initial value 0, bits not reflected and no
/// final inversion (unlike zlib's CRC-32), over the whole page with its CRC field taken as zero.
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    /// Continues `crc` over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = crc
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = (c << 8) ^ t[Int((c >> 24) ^ UInt32(b))] }
        }
        return c
    }

    /// The checksum of a page: `page` holds the header (at least 27 bytes) and body; the CRC field at
    /// bytes 22...25 counts as zero.
    static func page(_ page: UnsafeRawBufferPointer) -> UInt32 {
        var c = update(0, UnsafeRawBufferPointer(rebasing: page[0..<22]))
        table.withUnsafeBufferPointer { t in
            for _ in 0..<4 { c = (c << 8) ^ t[Int(c >> 24)] }
        }
        return update(c, UnsafeRawBufferPointer(rebasing: page[26...]))
    }
}
