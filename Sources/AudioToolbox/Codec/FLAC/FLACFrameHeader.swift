import Glibc

/// A FLAC frame header: what a frame holds and how its channels are coded, read from the bytes at the
/// frame's start (sync code through CRC-8).
struct FLACFrameHeader: Equatable {
    /// How the channels of a frame are coded; the stereo modes code one channel as the difference.
    enum ChannelAssignment: Equatable {
        case independent(Int)
        case leftSide
        case rightSide
        case midSide
    }

    /// True for variable-blocksize streams, whose headers code the first sample's number instead of the frame's.
    let variableBlockSize: Bool
    /// Samples per channel, 1...65536.
    let blockSize: Int
    /// Hz; from STREAMINFO when the header defers to it (0 if no STREAMINFO was given).
    let sampleRate: Int
    let channelAssignment: ChannelAssignment
    /// From STREAMINFO when the header defers to it (0 if no STREAMINFO was given).
    let bitsPerSample: Int
    /// The frame number (fixed blocksize) or the first sample's number (variable blocksize).
    let number: UInt64
    /// Bytes from the sync code through the CRC-8.
    let length: Int

    /// Channels the frame decodes to.
    var channels: Int {
        if case .independent(let n) = channelAssignment { return n }
        return 2
    }

    /// The sample number of the frame's first sample, given the stream's nominal (fixed) block size.
    func firstSample(fixedBlockSize: Int) -> UInt64 {
        variableBlockSize ? number : number &* UInt64(fixedBlockSize)
    }

    private static let sampleRates = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000]
    private static let sampleSizes = [0, 8, 12, 0, 16, 20, 24, 32]

    /// Parses the header at `offset` in `data` and checks its CRC-8. Codes that defer to STREAMINFO take
    /// its values when `streamInfo` is given. Fails with `.needMoreData` when the header runs past the end.
    static func parse(_ data: UnsafeRawBufferPointer, at offset: Int, streamInfo: FLACStreamInfo?) -> Result<FLACFrameHeader, FLACError> {
        guard offset >= 0, let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return .failure(.needMoreData(atLeast: max(offset, 0) + 4))
        }
        let available = data.count - offset
        guard available >= 4 else { return .failure(.needMoreData(atLeast: offset + 4)) }
        let p = base + offset
        guard p[0] == 0xFF, p[1] & 0xFE == 0xF8 else { return .failure(.badSync) }
        let variable = p[1] & 1 != 0
        let sizeCode = Int(p[2] >> 4), rateCode = Int(p[2] & 0x0F)
        let channelCode = Int(p[3] >> 4), sizeBitsCode = Int(p[3] >> 1 & 7)
        // Reserved values: block size code 0, rate code 15, channel codes 11-15, sample size code 3, the bit after it.
        guard sizeCode != 0, rateCode != 15, channelCode < 11, sizeBitsCode != 3, p[3] & 1 == 0 else {
            return .failure(.invalid)
        }
        var pos = 4
        // UTF-8-like number: up to 7 bytes (36 bits) for sample numbers, 6 (31 bits) for frame numbers.
        guard available > pos else { return .failure(.needMoreData(atLeast: offset + pos + 1)) }
        let lead = p[pos]
        pos += 1
        var number: UInt64
        var extra: Int
        switch lead {
        case 0x00...0x7F: number = UInt64(lead); extra = 0
        case 0xC0...0xDF: number = UInt64(lead & 0x1F); extra = 1
        case 0xE0...0xEF: number = UInt64(lead & 0x0F); extra = 2
        case 0xF0...0xF7: number = UInt64(lead & 0x07); extra = 3
        case 0xF8...0xFB: number = UInt64(lead & 0x03); extra = 4
        case 0xFC...0xFD: number = UInt64(lead & 0x01); extra = 5
        case 0xFE where variable: number = 0; extra = 6
        default: return .failure(.invalid)
        }
        guard available >= pos + extra else { return .failure(.needMoreData(atLeast: offset + pos + extra)) }
        for _ in 0..<extra {
            let b = p[pos]
            guard b & 0xC0 == 0x80 else { return .failure(.invalid) }
            number = number << 6 | UInt64(b & 0x3F)
            pos += 1
        }
        var blockSize: Int
        switch sizeCode {
        case 1: blockSize = 192
        case 2...5: blockSize = 576 << (sizeCode - 2)
        case 6, 7:
            let n = sizeCode == 6 ? 1 : 2
            guard available >= pos + n else { return .failure(.needMoreData(atLeast: offset + pos + n)) }
            blockSize = n == 1 ? Int(p[pos]) + 1 : (Int(p[pos]) << 8 | Int(p[pos + 1])) + 1
            pos += n
        default: blockSize = 256 << (sizeCode - 8)
        }
        var sampleRate: Int
        switch rateCode {
        case 0: sampleRate = streamInfo?.sampleRate ?? 0
        case 12...14:
            let n = rateCode == 12 ? 1 : 2
            guard available >= pos + n else { return .failure(.needMoreData(atLeast: offset + pos + n)) }
            let v = n == 1 ? Int(p[pos]) : Int(p[pos]) << 8 | Int(p[pos + 1])
            pos += n
            sampleRate = rateCode == 12 ? v * 1000 : rateCode == 13 ? v : v * 10
        default: sampleRate = sampleRates[rateCode]
        }
        guard available > pos else { return .failure(.needMoreData(atLeast: offset + pos + 1)) }
        guard FLACCRC.crc8(p, count: pos) == p[pos] else { return .failure(.badHeaderCRC) }
        pos += 1
        let assignment: ChannelAssignment
        switch channelCode {
        case 0...7: assignment = .independent(channelCode + 1)
        case 8: assignment = .leftSide
        case 9: assignment = .rightSide
        default: assignment = .midSide
        }
        let bits = sizeBitsCode == 0 ? (streamInfo?.bitsPerSample ?? 0) : sampleSizes[sizeBitsCode]
        return .success(FLACFrameHeader(variableBlockSize: variable, blockSize: blockSize, sampleRate: sampleRate,
                                        channelAssignment: assignment, bitsPerSample: bits, number: number, length: pos))
    }

    /// The next valid header at or after `from`: sync code, no reserved values, CRC-8 correct and, when
    /// `streamInfo` is given, channels, bit depth and block size consistent with it. Used to build a packet
    /// table without decoding; a false positive inside audio data is possible but rare (CRC-8 plus checks).
    static func find(in data: UnsafeRawBufferPointer, from: Int, streamInfo: FLACStreamInfo?) -> (offset: Int, header: FLACFrameHeader)? {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var i = max(from, 0)
        let end = data.count - 1
        while i < end {
            // The next 0xFF by memchr (vectorized): a byte loop over every frame's audio was a fifth of the time a
            // FLAC file's decode took, opening included.
            guard let hit = memchr(base + i, 0xFF, end - i) else { return nil }
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if base[i + 1] & 0xFE == 0xF8,
               case .success(let header) = parse(data, at: i, streamInfo: streamInfo), header.isConsistent(with: streamInfo) {
                return (i, header)
            }
            i += 1
        }
        return nil
    }

    /// Every frame from `from` on, for a packet table: the headers `find` reports, keeping one whose number
    /// does not continue the previous frame's only if the next header continues it (so a false sync inside
    /// audio data is dropped, while a gap left by a damaged frame is crossed).
    static func scan(_ data: UnsafeRawBufferPointer, from: Int, streamInfo: FLACStreamInfo?) -> [(offset: Int, header: FLACFrameHeader)] {
        var frames: [(offset: Int, header: FLACFrameHeader)] = []
        var position = from
        while let candidate = find(in: data, from: position, streamInfo: streamInfo) {
            if let last = frames.last?.header, !candidate.header.follows(last) {
                guard let next = find(in: data, from: candidate.offset + candidate.header.length, streamInfo: streamInfo),
                      next.header.follows(candidate.header) else {
                    position = candidate.offset + 1
                    continue
                }
            }
            frames.append(candidate)
            position = candidate.offset + candidate.header.length
        }
        return frames
    }

    /// Whether this header's frame or sample number comes right after `previous`'s frame.
    func follows(_ previous: FLACFrameHeader) -> Bool {
        guard variableBlockSize == previous.variableBlockSize else { return false }
        return variableBlockSize ? number == previous.number &+ UInt64(previous.blockSize) : number == previous.number &+ 1
    }

    /// Whether the header fits the stream STREAMINFO describes.
    func isConsistent(with streamInfo: FLACStreamInfo?) -> Bool {
        guard let si = streamInfo else { return true }
        return channels == si.channels && bitsPerSample == si.bitsPerSample && blockSize <= si.maxBlockSize
    }

    /// Writes a fixed- or variable-blocksize header for the given values into `writer`, CRC-8 included,
    /// choosing the shortest codes. `bitsPerSample` and `sampleRate` without a code are left to STREAMINFO.
    static func write(into writer: inout FLACBitWriter, variableBlockSize: Bool, blockSize: Int, sampleRate: Int,
                      channelCode: Int, bitsPerSample: Int, number: UInt64) {
        let start = writer.byteCount
        writer.write(0xFFF8 | (variableBlockSize ? 1 : 0), bits: 16)
        var sizeCode: UInt32, sizeExtra = 0, sizeExtraBits = 0
        switch blockSize {
        case 192: sizeCode = 1
        case 576, 1152, 2304, 4608: sizeCode = 2 + UInt32((blockSize / 576).trailingZeroBitCount)
        case 256, 512, 1024, 2048, 4096, 8192, 16384, 32768: sizeCode = 8 + UInt32((blockSize / 256).trailingZeroBitCount)
        case 1...256: sizeCode = 6; sizeExtra = blockSize - 1; sizeExtraBits = 8
        default: sizeCode = 7; sizeExtra = blockSize - 1; sizeExtraBits = 16
        }
        var rateCode: UInt32 = 0, rateExtra = 0, rateExtraBits = 0
        if let i = sampleRates.firstIndex(of: sampleRate), i > 0 {
            rateCode = UInt32(i)
        } else if sampleRate % 1000 == 0, sampleRate / 1000 <= 255 {
            rateCode = 12; rateExtra = sampleRate / 1000; rateExtraBits = 8
        } else if sampleRate <= 65535 {
            rateCode = 13; rateExtra = sampleRate; rateExtraBits = 16
        } else if sampleRate % 10 == 0, sampleRate / 10 <= 65535 {
            rateCode = 14; rateExtra = sampleRate / 10; rateExtraBits = 16
        }
        let bitsCode = sampleSizes.firstIndex(of: bitsPerSample).map { $0 > 0 ? UInt32($0) : 0 } ?? 0
        writer.write(sizeCode << 4 | rateCode, bits: 8)
        writer.write(UInt32(channelCode) << 4 | bitsCode << 1, bits: 8)
        // UTF-8-like coding of the number.
        if number < 0x80 {
            writer.write(UInt32(number), bits: 8)
        } else {
            var extra = 1
            while extra < 6, number >= UInt64(1) << (5 * extra + 6) { extra += 1 }
            let leadBits = 6 - extra  // payload bits in the lead byte
            let leadMarker = UInt32((0xFF00 >> (extra + 1)) & 0xFF)
            writer.write(leadMarker | UInt32(truncatingIfNeeded: number >> UInt64(6 * extra)) & ((1 << leadBits) - 1), bits: 8)
            for j in (0..<extra).reversed() { writer.write(0x80 | UInt32(truncatingIfNeeded: number >> UInt64(6 * j)) & 0x3F, bits: 8) }
        }
        if sizeExtraBits > 0 { writer.write(UInt32(sizeExtra), bits: sizeExtraBits) }
        if rateExtraBits > 0 { writer.write(UInt32(rateExtra), bits: rateExtraBits) }
        writer.write(UInt32(writer.crc8(from: start)), bits: 8)
    }
}
