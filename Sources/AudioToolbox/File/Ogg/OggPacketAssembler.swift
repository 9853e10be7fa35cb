/// Joins one logical stream's page pieces into packets, as libogg's stream layer does: pages of other
/// streams are ignored; a gap in the page sequence (a page lost or skipped for a bad checksum) drops the
/// packet that was being joined, and a continued piece whose start was lost is dropped too. Positions are
/// in the stream's "de-paged" bytes: the bodies of its pages laid end to end (`virtualStart` is where the
/// page's body begins there), so a packet spanning pages is one contiguous range of that space.
struct OggPacketAssembler {
    /// A packet (or a piece of the byte space a dropped one left). `head` holds its first bytes (enough
    /// for an Opus TOC or a FLAC frame header), `bytes` all of them when the assembler keeps bytes.
    struct Packet {
        var virtualOffset: Int64
        var size: Int
        var head: [UInt8]
        var bytes: [UInt8]?
        /// The page's granule position when this is the last packet ending on its page, else -1.
        var granulePosition: Int64
    }

    static let headBytes = 16
    /// Larger packets are dropped: no Opus packet or FLAC frame comes near, and the joining is bounded.
    static let maximumPacketBytes = 1 << 24

    let serial: UInt32
    /// Whole packets are kept (headers, or everything when streaming).
    var keepBytes: Bool
    private var nextSequence: UInt32?
    private var open: Packet?
    /// The packet being joined grew past the maximum: its remaining pieces are dropped.
    private var dropping = false

    init(serial: UInt32, keepBytes: Bool) {
        self.serial = serial
        self.keepBytes = keepBytes
    }

    /// The packets that end on `page` (whose body is `body`, starting at `virtualStart` in the de-paged bytes).
    mutating func add(_ page: OggPage, body: ArraySlice<UInt8>, virtualStart: Int64) -> [Packet] {
        guard page.serial == serial else { return [] }
        if let expected = nextSequence, page.sequence != expected { open = nil; dropping = false }
        nextSequence = page.sequence &+ 1
        var out: [Packet] = []
        for (k, piece) in page.pieces.enumerated() {
            let continued = k == 0 && page.isContinuation
            if !continued && (open != nil || dropping) { open = nil; dropping = false }  // never finished
            if continued && open == nil && !dropping {
                // Its start was lost: skip to the next packet.
                if !piece.ends { break }
                continue
            }
            if !continued { open = Packet(virtualOffset: virtualStart + Int64(piece.offset), size: 0, head: [], bytes: keepBytes ? [] : nil, granulePosition: -1) }
            if !dropping, var p = open {
                let start = body.startIndex + piece.offset
                let slice = body[start..<(start + piece.length)]
                if p.head.count < Self.headBytes { p.head += slice.prefix(Self.headBytes - p.head.count) }
                p.size += piece.length
                if p.size > Self.maximumPacketBytes { open = nil; dropping = true } else {
                    if keepBytes { p.bytes! += slice }
                    open = p
                }
            }
            if piece.ends {
                if let p = open { out.append(p) }
                open = nil
                dropping = false
            }
        }
        if !out.isEmpty { out[out.count - 1].granulePosition = page.granulePosition }
        return out
    }
}
