/// One Ogg page (RFC 3533): "OggS", version 0, header type flags (continued packet, first page of a
/// logical stream, last page), granule position, stream serial number, page sequence number, CRC, and
/// the lacing values that cut the body into packets. A page is at most 27 + 255 + 255 × 255 bytes, so
/// nothing a header says can make a reader allocate or skip more than that.
struct OggPage {
    static let minimumHeaderLength = 27
    static let maximumLength = 27 + 255 + 255 * 255

    var flags: UInt8
    /// -1 when no packet ends on this page.
    var granulePosition: Int64
    var serial: UInt32
    var sequence: UInt32
    /// 27 + the number of lacing values.
    var headerLength: Int
    var bodyLength: Int
    /// The body's packet pieces in order: (offset in the body, length, whether a packet ends with it).
    /// Only the last can be unfinished (its packet continues on the next page).
    var pieces: [(offset: Int, length: Int, ends: Bool)]

    var isContinuation: Bool { flags & 1 != 0 }
    var isFirst: Bool { flags & 2 != 0 }
    var isLast: Bool { flags & 4 != 0 }
    var length: Int { headerLength + bodyLength }

    enum ParseResult {
        case page(OggPage)
        /// The page is not complete: at least this many bytes from its start are needed.
        case needMore(Int)
        /// No page starts here (no capture pattern, an unknown version, or a checksum that does not match).
        case invalid
    }

    /// Parses the page at the start of `bytes`, its checksum verified.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> ParseResult {
        let n = bytes.count
        let magic: [UInt8] = [0x4F, 0x67, 0x67, 0x53]  // "OggS"
        for i in 0..<min(4, n) where bytes[i] != magic[i] { return .invalid }
        if n >= 5 && bytes[4] != 0 { return .invalid }
        if n >= 6 && bytes[5] & 0xF8 != 0 { return .invalid }
        guard n >= minimumHeaderLength else { return .needMore(minimumHeaderLength) }
        let segments = Int(bytes[26])
        let headerLength = minimumHeaderLength + segments
        guard n >= headerLength else { return .needMore(headerLength) }
        var bodyLength = 0
        for i in 0..<segments { bodyLength += Int(bytes[minimumHeaderLength + i]) }
        guard n >= headerLength + bodyLength else { return .needMore(headerLength + bodyLength) }
        func le(_ at: Int, _ count: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in (0..<count).reversed() { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        let whole = UnsafeRawBufferPointer(rebasing: bytes[0..<(headerLength + bodyLength)])
        guard OggCRC.page(whole) == UInt32(le(22, 4)) else { return .invalid }
        var pieces: [(offset: Int, length: Int, ends: Bool)] = []
        var start = 0, run = 0
        for i in 0..<segments {
            let lace = Int(bytes[minimumHeaderLength + i])
            run += lace
            if lace < 255 {
                pieces.append((start, run, true))
                start += run
                run = 0
            }
        }
        if run > 0 || (segments > 0 && bytes[minimumHeaderLength + segments - 1] == 255) { pieces.append((start, run, false)) }
        return .page(OggPage(flags: bytes[5], granulePosition: Int64(bitPattern: le(6, 8)), serial: UInt32(le(14, 4)),
                             sequence: UInt32(le(18, 4)), headerLength: headerLength, bodyLength: bodyLength, pieces: pieces))
    }
}
