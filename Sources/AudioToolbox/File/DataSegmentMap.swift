/// Audio data that is not one run of the file: the de-paged bytes of an Ogg stream, whose packets are
/// cut across pages. The data's bytes are the segments laid end to end; each is a run of the file. The
/// packet index's offsets are in this joined space, so reading packets needs no other change.
struct DataSegmentMap {
    /// Where each segment starts in the joined data, where it is in the file, and its length.
    private(set) var starts: [Int64] = []
    private(set) var fileOffsets: [Int64] = []
    private(set) var lengths: [Int32] = []
    private(set) var length: Int64 = 0

    /// Adds `count` bytes at `fileOffset` to the end of the data.
    mutating func append(fileOffset: Int64, count: Int) {
        guard count > 0 else { return }
        starts.append(length)
        fileOffsets.append(fileOffset)
        lengths.append(Int32(count))
        length += Int64(count)
    }

    /// Drops the data before `start` (the joined space then begins there).
    mutating func trimFront(to start: Int64) {
        var rebuilt = DataSegmentMap()
        for i in 0..<starts.count {
            let end = starts[i] + Int64(lengths[i])
            guard end > start else { continue }
            let skip = max(0, start - starts[i])
            rebuilt.append(fileOffset: fileOffsets[i] + skip, count: Int(Int64(lengths[i]) - skip))
        }
        self = rebuilt
    }

    /// Reads up to `count` bytes at `offset` of the joined data from `store`; returns how many were read.
    func read(_ store: ByteStore, at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) -> Int {
        guard offset >= 0, offset < length, count > 0 else { return 0 }
        // The last segment starting at or before `offset`.
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        var i = low - 1
        var done = 0
        var at = offset
        while done < count && i < starts.count && i >= 0 {
            let within = at - starts[i]
            let n = Int(min(Int64(count - done), Int64(lengths[i]) - within))
            let got = store.read(at: fileOffsets[i] + within, count: n, into: buffer + done)
            done += got
            at += Int64(got)
            if got < n { break }
            i += 1
        }
        return done
    }
}
