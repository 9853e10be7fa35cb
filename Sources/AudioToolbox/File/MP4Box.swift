/// One ISO base-media (MP4, QuickTime) box read from a byte store: its type, where its body is and how
/// long. Sizes are checked against the parent's end before use (size 1: a 64-bit size follows; size 0:
/// to the parent's end), so a hostile size can only end the walk.
struct MP4Box {
    let type: UInt32
    /// Where the box starts (its header).
    let start: Int64
    /// Where its body starts and ends.
    let bodyStart: Int64
    let end: Int64

    var bodySize: Int64 { end - bodyStart }

    /// The boxes between `start` and `end`, in order (at most `limit`).
    static func children(_ store: ByteStore, from start: Int64, to end: Int64, limit: Int = 10_000) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = start
        while offset + 8 <= end && boxes.count < limit {
            guard let h = store.bytes(at: offset, count: 8) else { break }
            var r = ByteReader(h)
            var size = Int64(r.u32be()!)
            let type = r.fourCC()!
            var body = offset + 8
            if size == 1 {
                guard let big = store.bytes(at: offset + 8, count: 8) else { break }
                var br = ByteReader(big)
                let large = br.u64be()!
                guard large <= UInt64(Int64.max) else { break }
                size = Int64(large)
                body += 8
            } else if size == 0 {
                size = end - offset
            }
            guard size >= body - offset, size <= end - offset else { break }
            boxes.append(MP4Box(type: type, start: offset, bodyStart: body, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// The first child of `type` (after `skip` bytes of this box's own fields).
    func child(_ type: String, in store: ByteStore, skip: Int64 = 0) -> MP4Box? {
        let code = OCAFormat.fourCharCode(type)
        return Self.children(store, from: bodyStart + skip, to: end).first { $0.type == code }
    }

    /// The body's bytes, if no more than `limit`.
    func body(_ store: ByteStore, limit: Int = 1 << 24) -> [UInt8]? {
        guard bodySize >= 0, bodySize <= Int64(limit) else { return nil }
        return store.bytes(at: bodyStart, count: Int(bodySize))
    }
}
