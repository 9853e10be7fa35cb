/// Where the packets of variable-bit-rate audio data are: each packet's byte offset (from the start of
/// the audio data) and size, and its frame count when the format's packets vary in length too (FLAC,
/// Vorbis); otherwise every packet holds the format's mFramesPerPacket.
struct PacketIndex {
    private(set) var offsets: [Int64] = []
    private(set) var sizes: [UInt32] = []
    /// Per-packet frames; nil when constant.
    private(set) var frames: [UInt32]?
    private(set) var maximumSize: UInt32 = 0
    /// Frames before packet i, kept when frames vary (for frame <-> packet translation).
    private var frameStarts: [Int64] = []
    private(set) var totalVariableFrames: Int64 = 0

    var count: Int { sizes.count }

    init(variableFrames: Bool) {
        if variableFrames { frames = [] }
    }

    mutating func append(offset: Int64, size: UInt32, frames packetFrames: UInt32) {
        offsets.append(offset)
        sizes.append(size)
        maximumSize = max(maximumSize, size)
        if frames != nil {
            frames!.append(packetFrames)
            frameStarts.append(totalVariableFrames)
            totalVariableFrames += Int64(packetFrames)
        }
    }

    /// Bytes from the first packet's start to the end of the last, i.e. the data the packets cover.
    var dataEnd: Int64 { offsets.last.map { $0 + Int64(sizes.last!) } ?? 0 }

    /// Frames in packet `i` (`constant` when packets do not vary).
    func frames(at i: Int, constant: UInt32) -> UInt32 { frames?[i] ?? constant }

    /// The first frame of packet `i`.
    func firstFrame(of i: Int, constant: UInt32) -> Int64 {
        guard frames != nil else { return Int64(i) * Int64(constant) }
        return i < frameStarts.count ? frameStarts[i] : totalVariableFrames
    }

    /// The packet holding `frame` and the frame's offset in it (past the end: the packet count).
    func packet(containing frame: Int64, constant: UInt32) -> (Int, Int64) {
        guard frames != nil else {
            let c = Int64(max(constant, 1))
            return (Int(min(frame / c, Int64(count))), frame % c)
        }
        // The last packet whose first frame is <= frame.
        var low = 0, high = frameStarts.count
        while low < high {
            let mid = (low + high) / 2
            if frameStarts[mid] <= frame { low = mid + 1 } else { high = mid }
        }
        let p = max(low - 1, 0)
        guard p < count, frame < totalVariableFrames else { return (count, 0) }
        return (p, frame - frameStarts[p])
    }

    /// Packet sizes and frame counts encoded as a CAF 'pakt' table: a variable-length integer (7 bits a
    /// byte, high bit "more follows") for each size, then each frame count when those vary.
    func cafTable(includeSizes: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 3)
        func vlq(_ v: UInt64) {
            var groups: [UInt8] = [UInt8(v & 0x7F)]
            var x = v >> 7
            while x > 0 { groups.append(UInt8(x & 0x7F) | 0x80); x >>= 7 }
            out.append(contentsOf: groups.reversed())
        }
        for i in 0..<count {
            if includeSizes { vlq(UInt64(sizes[i])) }
            if let frames { vlq(UInt64(frames[i])) }
        }
        return out
    }

    /// Reads a CAF 'pakt' table of `packets` entries. Nil when the table is short, a value does not fit
    /// its 32 bits, or the packets run past `dataSize` (every entry takes at least one byte, so a hostile
    /// count is bounded by the table's real size before anything is allocated).
    static func parseCAF(_ table: ArraySlice<UInt8>, packets: Int64, variableSizes: Bool, variableFrames: Bool,
                         constantSize: UInt32, dataSize: Int64) -> PacketIndex? {
        let perEntry = (variableSizes ? 1 : 0) + (variableFrames ? 1 : 0)
        guard packets >= 0, perEntry > 0, packets <= Int64(table.count / perEntry) else { return nil }
        var index = PacketIndex(variableFrames: variableFrames)
        index.offsets.reserveCapacity(Int(packets))
        index.sizes.reserveCapacity(Int(packets))
        var i = table.startIndex
        func vlq() -> UInt32? {
            var v: UInt64 = 0
            for _ in 0..<5 {
                guard i < table.endIndex else { return nil }
                let b = table[i]
                i += 1
                v = v << 7 | UInt64(b & 0x7F)
                if b & 0x80 == 0 { return v <= UInt64(UInt32.max) ? UInt32(v) : nil }
            }
            return nil
        }
        var offset: Int64 = 0
        for _ in 0..<packets {
            guard let size = variableSizes ? vlq() : constantSize else { return nil }
            var frames: UInt32 = 0
            if variableFrames { guard let f = vlq() else { return nil }; frames = f }
            guard offset + Int64(size) <= dataSize else { return nil }
            index.append(offset: offset, size: size, frames: frames)
            offset += Int64(size)
        }
        return index
    }
}
