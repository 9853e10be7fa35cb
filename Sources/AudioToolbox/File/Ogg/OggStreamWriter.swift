/// Lays one logical stream's packets out in Ogg pages (RFC 3533) for writing: packets wait until about a
/// second of audio is held, then go out in pages of at most 255 lacing values (a packet too long for one
/// page continues on the next), each page stamped with the granule position of the last packet it ends.
/// The last page carries the end-of-stream flag and the final granule position, which trims the end.
struct OggStreamWriter {
    let serial: UInt32
    /// The next page's sequence number (the two header pages are 0 and 1).
    private(set) var sequence: UInt32 = 2
    /// Frames of every packet handed out in pages so far (pre-skip included, as granule positions count).
    private(set) var granule: Int64 = 0
    private var pending: [(bytes: [UInt8], frames: Int64)] = []
    private var pendingFrames: Int64 = 0

    init(serial: UInt32) { self.serial = serial }

    /// A page from its fields and body, its checksum computed.
    static func page(flags: UInt8, granule: Int64, serial: UInt32, sequence: UInt32, lacing: [UInt8], body: [UInt8]) -> [UInt8] {
        var b = Array("OggS".utf8) + [0, flags]
        b += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * UInt64($0))) }
        b += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (8 * UInt32($0))) }
        b += (0..<4).map { UInt8(truncatingIfNeeded: sequence >> (8 * UInt32($0))) }
        b += [0, 0, 0, 0, UInt8(lacing.count)] + lacing + body
        let crc = b.withUnsafeBytes { OggCRC.page($0) }
        b.replaceSubrange(22..<26, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) })
        return b
    }

    /// The two header pages: the ID header alone on the first (beginning of stream), the comment header after.
    static func headerPages(serial: UInt32, id: [UInt8], comments: [UInt8]) -> [UInt8] {
        func lacing(_ n: Int) -> [UInt8] { [UInt8](repeating: 255, count: n / 255) + [UInt8(n % 255)] }
        return page(flags: 2, granule: 0, serial: serial, sequence: 0, lacing: lacing(id.count), body: id)
            + page(flags: 0, granule: 0, serial: serial, sequence: 1, lacing: lacing(comments.count), body: comments)
    }

    /// Queues a packet of `frames` frames; returns the pages ready to write once about a second is held
    /// (the newest packet stays behind, so that the last page, written at the end, is never empty).
    mutating func add(_ packet: [UInt8], frames: Int64) -> [[UInt8]] {
        pending.append((packet, frames))
        pendingFrames += frames
        guard pendingFrames - frames >= 48000 else { return [] }
        let newest = pending.removeLast()
        let out = pages(final: false, endGranule: nil)
        pending = [newest]
        pendingFrames = frames
        return out
    }

    /// Every held packet in pages; the last page flagged end of stream when `final`, with `endGranule`
    /// (when less than the frames written) as its granule position.
    mutating func pages(final: Bool, endGranule: Int64?) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var lacing: [UInt8] = [], body: [UInt8] = []
        var continued = false
        var pageGranule: Int64 = -1
        func emit(last: Bool) {
            var g = pageGranule
            if last, let end = endGranule, g >= 0 { g = max(0, min(g, end)) }
            out.append(Self.page(flags: (continued ? 1 : 0) | (last ? 4 : 0), granule: g, serial: serial, sequence: sequence, lacing: lacing, body: body))
            sequence &+= 1
            lacing = []
            body = []
            pageGranule = -1
        }
        for p in pending {
            var at = 0
            while true {
                if lacing.count == 255 {
                    emit(last: false)
                    continued = at > 0  // the packet goes on from the last page
                }
                let take = min(255, p.bytes.count - at)
                lacing.append(UInt8(take))
                body += p.bytes[at..<(at + take)]
                at += take
                if take < 255 { break }
            }
            granule += p.frames
            pageGranule = granule
        }
        if !lacing.isEmpty || final { emit(last: final) }
        pending = []
        pendingFrames = 0
        return out
    }
}
