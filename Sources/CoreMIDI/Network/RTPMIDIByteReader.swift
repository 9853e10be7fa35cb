/// Reads big-endian fields from received bytes, checking every read against the end (typed throws, no traps).
struct RTPMIDIByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    /// A reader over `bytes[start..<end]` (clamped to the array).
    init(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        let e = min(end ?? bytes.count, bytes.count)
        self.end = max(e, 0)
        self.offset = min(max(start, 0), self.end)
    }

    var remaining: Int { end - offset }
    var isAtEnd: Bool { offset >= end }

    /// The next byte without consuming it.
    func peek() throws(RTPMIDIError) -> UInt8 {
        guard offset < end else { throw .truncated }
        return bytes[offset]
    }

    mutating func u8() throws(RTPMIDIError) -> UInt8 {
        guard offset < end else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(RTPMIDIError) -> UInt16 {
        let hi = try u8(), lo = try u8()
        return UInt16(hi) << 8 | UInt16(lo)
    }

    mutating func u32() throws(RTPMIDIError) -> UInt32 {
        let hi = try u16(), lo = try u16()
        return UInt32(hi) << 16 | UInt32(lo)
    }

    mutating func u64() throws(RTPMIDIError) -> UInt64 {
        let hi = try u32(), lo = try u32()
        return UInt64(hi) << 32 | UInt64(lo)
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws(RTPMIDIError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .truncated }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws(RTPMIDIError) {
        _ = try take(count)
    }
}

extension Array where Element == UInt8 {
    /// Appends a big-endian 16-bit value.
    mutating func appendBE(_ v: UInt16) { append(UInt8(v >> 8)); append(UInt8(v & 0xFF)) }
    /// Appends a big-endian 32-bit value.
    mutating func appendBE(_ v: UInt32) { appendBE(UInt16(v >> 16)); appendBE(UInt16(v & 0xFFFF)) }
    /// Appends a big-endian 64-bit value.
    mutating func appendBE(_ v: UInt64) { appendBE(UInt32(v >> 32)); appendBE(UInt32(v & 0xFFFF_FFFF)) }
}
