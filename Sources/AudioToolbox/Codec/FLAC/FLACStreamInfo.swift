/// The STREAMINFO metadata block: what every FLAC stream must declare before its first frame.
struct FLACStreamInfo: Equatable {
    /// Smallest block size in samples (the last block of a fixed-blocksize stream may be smaller).
    var minBlockSize: Int
    /// Largest block size in samples; decoders size their working memory from it.
    var maxBlockSize: Int
    /// Smallest and largest frame size in bytes; 0 means unknown.
    var minFrameSize: Int
    var maxFrameSize: Int
    var sampleRate: Int
    /// 1...8.
    var channels: Int
    /// 4...32.
    var bitsPerSample: Int
    /// Samples per channel in the stream; 0 means unknown.
    var totalSamples: Int64
    /// MD5 of the decoded samples (see `FLACMD5.updateSamples`); all zero means unknown.
    var md5: [UInt8]

    /// Length of the block body on disk.
    static let byteCount = 34

    /// A STREAMINFO built from values, checked as `init(parsing:)` would check them.
    init(minBlockSize: Int, maxBlockSize: Int, minFrameSize: Int = 0, maxFrameSize: Int = 0, sampleRate: Int,
         channels: Int, bitsPerSample: Int, totalSamples: Int64 = 0, md5: [UInt8] = [UInt8](repeating: 0, count: 16)) {
        self.minBlockSize = minBlockSize
        self.maxBlockSize = maxBlockSize
        self.minFrameSize = minFrameSize
        self.maxFrameSize = maxFrameSize
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalSamples = totalSamples
        self.md5 = md5
    }

    /// Parses the 34-byte STREAMINFO body (more bytes are ignored). Throws `.needMoreData` when short and
    /// `.invalid` for values no stream can have (a decoder would size its buffers from them).
    init(parsing bytes: some Collection<UInt8>) throws(FLACError) {
        let b = Array(bytes.prefix(Self.byteCount))
        guard b.count == Self.byteCount else { throw .needMoreData(atLeast: Self.byteCount) }
        /// The big-endian value of `n` bytes at `at`.
        func be(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in at..<at + n { v = v << 8 | UInt64(b[i]) }
            return v
        }
        minBlockSize = Int(be(0, 2))
        maxBlockSize = Int(be(2, 2))
        minFrameSize = Int(be(4, 3))
        maxFrameSize = Int(be(7, 3))
        // 20 bits rate, 3 bits channels-1, 5 bits bps-1, 36 bits total samples.
        let packed = be(10, 8)
        sampleRate = Int(packed >> 44)
        channels = Int(packed >> 41 & 7) + 1
        bitsPerSample = Int(packed >> 36 & 31) + 1
        totalSamples = Int64(packed & 0xF_FFFF_FFFF)
        md5 = Array(b[18..<34])
        guard isValid else { throw .invalid }
    }

    /// Whether the fields are within what the format allows (and what a decoder can size buffers from).
    var isValid: Bool {
        (16...65535).contains(maxBlockSize) && (1...maxBlockSize).contains(minBlockSize)
            && (0..<(1 << 24)).contains(minFrameSize) && (0..<(1 << 24)).contains(maxFrameSize)
            && (1..<(1 << 20)).contains(sampleRate) && (1...8).contains(channels) && (4...32).contains(bitsPerSample)
            && (0..<(Int64(1) << 36)).contains(totalSamples) && md5.count == 16
    }

    /// The 34-byte body as stored in the file. Out-of-range fields are clamped to their bit widths.
    var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(Self.byteCount)
        /// Appends the low `n` bytes of `v`, big-endian.
        func put(_ v: Int, _ n: Int) {
            for i in (0..<n).reversed() { out.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
        }
        put(min(max(minBlockSize, 0), 0xFFFF), 2)
        put(min(max(maxBlockSize, 0), 0xFFFF), 2)
        put(min(max(minFrameSize, 0), 0xFF_FFFF), 3)
        put(min(max(maxFrameSize, 0), 0xFF_FFFF), 3)
        let rate = UInt64(min(max(sampleRate, 0), 0xF_FFFF))
        let ch = UInt64(min(max(channels, 1), 8) - 1)
        let bps = UInt64(min(max(bitsPerSample, 1), 32) - 1)
        let total = UInt64(min(max(totalSamples, 0), 0xF_FFFF_FFFF))
        let packed = rate << 44 | ch << 41 | bps << 36 | total
        for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(i)))) }
        let digest = md5.count == 16 ? md5 : [UInt8](repeating: 0, count: 16)
        out.append(contentsOf: digest)
        return out
    }
}
