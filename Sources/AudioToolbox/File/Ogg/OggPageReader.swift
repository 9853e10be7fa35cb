/// Reads the pages of an Ogg file in order through a window of the file's bytes. Where no valid page
/// starts (junk, a damaged page whose checksum fails) it searches on for the next capture pattern, as
/// libogg's sync layer does, so a bad page is skipped, never trusted. Every step advances, so a hostile
/// file ends the loop; memory is the window (1 MiB) whatever the file says.
struct OggPageReader {
    let store: ByteStore
    let fileSize: Int64
    private var window: [UInt8] = []
    private var windowStart: Int64 = 0
    /// Where the next page is looked for.
    private(set) var position: Int64
    /// Bytes skipped in search of a page (damaged pages and junk).
    private(set) var skippedBytes: Int64 = 0
    static let windowBytes = 1 << 20

    init(store: ByteStore, from start: Int64 = 0) {
        self.store = store
        fileSize = store.size
        position = start
    }

    /// Makes the window hold `count` bytes from `at` (fewer at the end of the file). False at the end.
    private mutating func fill(_ at: Int64, _ count: Int) -> Bool {
        if at >= windowStart, at + Int64(count) <= windowStart + Int64(window.count) { return true }
        let want = Int(min(Int64(max(count, Self.windowBytes)), fileSize - at))
        guard want > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: want)
        let got = buffer.withUnsafeMutableBytes { store.read(at: at, count: want, into: $0.baseAddress!) }
        guard got > 0 else { return false }
        buffer.removeLast(want - got)
        window = buffer
        windowStart = at
        return true
    }

    /// The next valid page, its file offset and its body bytes; nil at the end of the file.
    mutating func next() -> (page: OggPage, offset: Int64, body: ArraySlice<UInt8>)? {
        var need = OggPage.minimumHeaderLength
        var refilledAt: Int64 = -1
        while position < fileSize {
            guard fill(position, need) else { return nil }
            let base = Int(position - windowStart)
            let available = window.count - base
            let result = window.withUnsafeBytes { OggPage.parse(UnsafeRawBufferPointer(rebasing: $0[base...])) }
            switch result {
            case .page(let page):
                let offset = position
                position += Int64(page.length)
                let bodyStart = base + page.headerLength
                return (page, offset, window[bodyStart..<(bodyStart + page.bodyLength)])
            case .needMore(let count) where count > available && position + Int64(count) <= fileSize && refilledAt != position:
                // The window ends inside the page: read again from the page's start (once; a short read skips it).
                need = count
                refilledAt = position
                window = []
                windowStart = 0
            case .needMore, .invalid:
                // Search for the next capture pattern after this position.
                var i = base + 1
                while i + 4 <= window.count && !(window[i] == 0x4F && window[i + 1] == 0x67 && window[i + 2] == 0x67 && window[i + 3] == 0x53) {
                    i += 1
                }
                need = OggPage.minimumHeaderLength
                if i + 4 <= window.count {
                    skippedBytes += windowStart + Int64(i) - position
                    position = windowStart + Int64(i)
                } else {
                    // Not in this window: go on from its last three bytes (a pattern may straddle the edge).
                    let end = windowStart + Int64(window.count)
                    if end >= fileSize { skippedBytes += fileSize - position; position = fileSize; return nil }
                    let next = max(position + 1, end - 3)
                    skippedBytes += next - position
                    position = next
                    window = []
                    windowStart = 0
                }
            }
        }
        return nil
    }
}
