/// Decodes FLAC frames of one stream to interleaved integer samples. Working memory is sized from
/// STREAMINFO once; decoding a frame allocates nothing.
final class FLACFrameDecoder {
    let streamInfo: FLACStreamInfo
    /// The header of the last frame decoded successfully.
    private(set) var lastHeader: FLACFrameHeader?
    private let channels: Int
    private let bitsPerSample: Int
    private let maxBlockSize: Int
    /// One Int32 plane of `maxBlockSize` samples per channel.
    private let planes: UnsafeMutablePointer<Int32>
    /// The side channel of a 32-bit stream needs 33 bits: it is decoded here instead.
    private let widePlane: UnsafeMutablePointer<Int64>

    /// A decoder for the stream `streamInfo` describes (its fields are clamped to the format's ranges).
    init(streamInfo: FLACStreamInfo) {
        self.streamInfo = streamInfo
        channels = min(max(streamInfo.channels, 1), 8)
        bitsPerSample = min(max(streamInfo.bitsPerSample, 4), 32)
        maxBlockSize = min(max(streamInfo.maxBlockSize, 16), 65535)
        planes = .allocate(capacity: channels * maxBlockSize)
        widePlane = .allocate(capacity: maxBlockSize)
    }

    deinit {
        planes.deallocate()
        widePlane.deallocate()
    }

    /// Decodes the one frame starting at `frame[0]` into `output` (interleaved, sign-extended at the
    /// stream's bit depth). `frame` may extend past the frame; `bytesConsumed` says where it ended.
    /// Nothing is written to `output` unless the frame's CRC-16 matches.
    func decode(_ frame: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<Int32>,
                capacityFrames: Int) -> Result<(frames: Int, bytesConsumed: Int), FLACError> {
        let header: FLACFrameHeader
        switch FLACFrameHeader.parse(frame, at: 0, streamInfo: streamInfo) {
        case .success(let h): header = h
        case .failure(let e): return .failure(e)
        }
        guard header.channels == channels, header.bitsPerSample == bitsPerSample else { return .failure(.unsupported) }
        let blockSize = header.blockSize
        guard blockSize <= maxBlockSize else { return .failure(.invalid) }
        guard blockSize <= capacityFrames else { return .failure(.outputTooSmall) }

        var reader = FLACBitReader(frame, offset: header.length)
        let bps = bitsPerSample
        var wideChannel = -1
        for c in 0..<channels {
            var subBits = bps
            switch header.channelAssignment {
            case .leftSide, .midSide: if c == 1 { subBits += 1 }
            case .rightSide: if c == 0 { subBits += 1 }
            case .independent: break
            }
            let error: FLACError?
            if subBits > 32 {
                wideChannel = c
                error = decodeWideSubframe(&reader, bits: subBits, blockSize: blockSize, scratch: planes + c * maxBlockSize)
            } else {
                error = decodeSubframe(&reader, bits: subBits, blockSize: blockSize, into: planes + c * maxBlockSize)
            }
            if let error { return .failure(error) }
        }
        reader.alignToByte()
        let crcOffset = reader.bitPosition >> 3
        let storedCRC = reader.read(16)
        guard !reader.overrun else { return .failure(.needMoreData(atLeast: frame.count + 1)) }
        let base = frame.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard FLACCRC.crc16(base, count: crcOffset) == UInt16(storedCRC) else { return .failure(.badFrameCRC) }

        interleave(header.channelAssignment, blockSize: blockSize, wideChannel: wideChannel, into: output)
        lastHeader = header
        return .success((blockSize, crcOffset + 2))
    }

    // MARK: Subframes

    /// Reads the 8-bit subframe header and wasted-bits count. Returns (type, wasted bits).
    @inline(__always)
    private func readSubframeHeader(_ r: inout FLACBitReader, bits: Int) -> (type: Int, wasted: Int)? {
        let head = Int(r.read(8))
        guard head & 0x80 == 0 else { return nil }
        var wasted = 0
        if head & 1 != 0 {
            // At least one bit must remain per sample.
            guard let k = r.readUnary(limit: bits - 2) else { return nil }
            wasted = k + 1
        }
        return (head >> 1 & 0x3F, wasted)
    }

    /// Decodes one subframe of at most 32 bits per sample into `out`.
    private func decodeSubframe(_ r: inout FLACBitReader, bits: Int, blockSize: Int, into out: UnsafeMutablePointer<Int32>) -> FLACError? {
        guard let (type, wasted) = readSubframeHeader(&r, bits: bits) else { return r.overrun ? .needMoreData(atLeast: r.count + 1) : .invalid }
        let sampleBits = bits - wasted
        switch type {
        case 0:
            let v = Int32(truncatingIfNeeded: r.readSigned(sampleBits))
            out.update(repeating: v, count: blockSize)
        case 1:
            for i in 0..<blockSize { out[i] = Int32(truncatingIfNeeded: r.readSigned(sampleBits)) }
        case 8...12:
            let order = type - 8
            guard order <= blockSize else { return .invalid }
            for i in 0..<order { out[i] = Int32(truncatingIfNeeded: r.readSigned(sampleBits)) }
            if let e = decodeResidual(&r, blockSize: blockSize, order: order, into: out) { return e }
            Self.restoreFixed(out, count: blockSize, order: order)
        case 32...63:
            let order = type - 31
            guard order <= blockSize else { return .invalid }
            for i in 0..<order { out[i] = Int32(truncatingIfNeeded: r.readSigned(sampleBits)) }
            let precision = Int(r.read(4)) + 1
            let shift = Int(r.readSigned(5))
            guard precision < 16, shift >= 0 else { return r.overrun ? .needMoreData(atLeast: r.count + 1) : .invalid }
            // Coefficients reversed (oldest sample first) so the dot product runs forward through memory.
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 32) { coefficients -> FLACError? in
                let c = coefficients.baseAddress!
                for j in 0..<order { c[order - 1 - j] = Int32(truncatingIfNeeded: r.readSigned(precision)) }
                if let e = decodeResidual(&r, blockSize: blockSize, order: order, into: out) { return e }
                // libFLAC's bound: the sum of `order` products fits 32 bits when this holds.
                if sampleBits + precision + (Int.bitWidth - 1 - order.leadingZeroBitCount) <= 32 {
                    Self.restoreLPC32(out, count: blockSize, coefficients: c, order: order, shift: shift)
                } else {
                    Self.restoreLPC64(out, count: blockSize, coefficients: c, order: order, shift: shift)
                }
                if wasted > 0 { Self.shiftLeft(out, count: blockSize, by: wasted) }
                return r.overrun ? .needMoreData(atLeast: r.count + 1) : nil
            }
        default:
            return .invalid
        }
        if wasted > 0 { Self.shiftLeft(out, count: blockSize, by: wasted) }
        return r.overrun ? .needMoreData(atLeast: r.count + 1) : nil
    }

    /// Decodes a 33-bit subframe (the side channel of a 32-bit stream) into `widePlane`, using `scratch`
    /// for the residual.
    private func decodeWideSubframe(_ r: inout FLACBitReader, bits: Int, blockSize: Int, scratch: UnsafeMutablePointer<Int32>) -> FLACError? {
        guard let (type, wasted) = readSubframeHeader(&r, bits: bits) else { return r.overrun ? .needMoreData(atLeast: r.count + 1) : .invalid }
        let out = widePlane
        let sampleBits = bits - wasted
        switch type {
        case 0:
            out.update(repeating: r.readSigned(sampleBits), count: blockSize)
        case 1:
            for i in 0..<blockSize { out[i] = r.readSigned(sampleBits) }
        case 8...12:
            let order = type - 8
            guard order <= blockSize else { return .invalid }
            for i in 0..<order { out[i] = r.readSigned(sampleBits) }
            if let e = decodeResidual(&r, blockSize: blockSize, order: order, into: scratch) { return e }
            for i in order..<blockSize {
                let e = Int64(scratch[i])
                switch order {
                case 0: out[i] = e
                case 1: out[i] = e &+ out[i - 1]
                case 2: out[i] = e &+ 2 &* out[i - 1] &- out[i - 2]
                case 3: out[i] = e &+ 3 &* out[i - 1] &- 3 &* out[i - 2] &+ out[i - 3]
                default: out[i] = e &+ 4 &* out[i - 1] &- 6 &* out[i - 2] &+ 4 &* out[i - 3] &- out[i - 4]
                }
            }
        case 32...63:
            let order = type - 31
            guard order <= blockSize else { return .invalid }
            for i in 0..<order { out[i] = r.readSigned(sampleBits) }
            let precision = Int(r.read(4)) + 1
            let shift = Int64(r.readSigned(5))
            guard precision < 16, shift >= 0 else { return r.overrun ? .needMoreData(atLeast: r.count + 1) : .invalid }
            return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 32) { coefficients -> FLACError? in
                let c = coefficients.baseAddress!
                for j in 0..<order { c[j] = r.readSigned(precision) }
                if let e = decodeResidual(&r, blockSize: blockSize, order: order, into: scratch) { return e }
                for i in order..<blockSize {
                    var sum: Int64 = 0
                    for j in 0..<order { sum &+= c[j] &* out[i - 1 - j] }
                    out[i] = Int64(scratch[i]) &+ (sum &>> shift)
                }
                if wasted > 0 { for i in 0..<blockSize { out[i] = out[i] &<< Int64(wasted) } }
                return r.overrun ? .needMoreData(atLeast: r.count + 1) : nil
            }
        default:
            return .invalid
        }
        if wasted > 0 { for i in 0..<blockSize { out[i] = out[i] &<< Int64(wasted) } }
        return r.overrun ? .needMoreData(atLeast: r.count + 1) : nil
    }

    /// Reads the residual of a predicted subframe into `out[order..<blockSize]`.
    private func decodeResidual(_ r: inout FLACBitReader, blockSize: Int, order: Int, into out: UnsafeMutablePointer<Int32>) -> FLACError? {
        let method = r.read(2)
        guard method < 2 else { return .invalid }
        let parameterBits = method == 0 ? 4 : 5
        let escape: UInt32 = method == 0 ? 15 : 31
        let partitionOrder = Int(r.read(4))
        let partitionSize = blockSize >> partitionOrder
        // The block must split evenly, and the first partition must hold the warm-up samples.
        guard partitionSize << partitionOrder == blockSize, partitionSize >= order else { return .invalid }
        var dst = out + order
        for p in 0..<(1 << partitionOrder) {
            let n = p == 0 ? partitionSize - order : partitionSize
            let k = r.read(parameterBits)
            if k == escape {
                let rawBits = Int(r.read(5))
                for i in 0..<n { dst[i] = Int32(truncatingIfNeeded: r.readSigned(rawBits)) }
            } else if !r.readRice(into: dst, count: n, parameter: Int(k)) {
                return r.overrun ? .needMoreData(atLeast: r.count + 1) : .invalid
            }
            if r.overrun { return .needMoreData(atLeast: r.count + 1) }
            dst += n
        }
        return nil
    }

    // MARK: Prediction

    /// Adds the fixed predictor of `order` to the residual in place. Wrapping 32-bit arithmetic is exact:
    /// the coefficients are integers and the true sample fits 32 bits, so it equals its value mod 2^32.
    private static func restoreFixed(_ x: UnsafeMutablePointer<Int32>, count: Int, order: Int) {
        guard count > order else { return }
        switch order {
        case 1:
            var a = x[0]
            for i in 1..<count { a = a &+ x[i]; x[i] = a }
        case 2:
            var a = x[1], b = x[0]
            for i in 2..<count {
                let v = x[i] &+ 2 &* a &- b
                x[i] = v; b = a; a = v
            }
        case 3:
            var a = x[2], b = x[1], c = x[0]
            for i in 3..<count {
                let v = x[i] &+ 3 &* (a &- b) &+ c
                x[i] = v; c = b; b = a; a = v
            }
        case 4:
            var a = x[3], b = x[2], c = x[1], d = x[0]
            for i in 4..<count {
                let v = x[i] &+ 4 &* (a &+ c) &- 6 &* b &- d
                x[i] = v; d = c; c = b; b = a; a = v
            }
        default:
            break
        }
    }

    /// LPC restore with 32-bit sums (only used when they provably cannot overflow). `c` holds the
    /// coefficients oldest-sample first. Each order gets its own unrolled copy of the kernel.
    private static func restoreLPC32(_ x: UnsafeMutablePointer<Int32>, count: Int, coefficients c: UnsafePointer<Int32>,
                                     order: Int, shift: Int) {
        let s = Int32(shift)
        switch order {
        case 1: lpc32Kernel(x, count: count, c: c, order: 1, shift: s)
        case 2: lpc32Kernel(x, count: count, c: c, order: 2, shift: s)
        case 3: lpc32Kernel(x, count: count, c: c, order: 3, shift: s)
        case 4: lpc32Kernel(x, count: count, c: c, order: 4, shift: s)
        case 5: lpc32Kernel(x, count: count, c: c, order: 5, shift: s)
        case 6: lpc32Kernel(x, count: count, c: c, order: 6, shift: s)
        case 7: lpc32Kernel(x, count: count, c: c, order: 7, shift: s)
        case 8: lpc32Kernel(x, count: count, c: c, order: 8, shift: s)
        case 9: lpc32Kernel(x, count: count, c: c, order: 9, shift: s)
        case 10: lpc32Kernel(x, count: count, c: c, order: 10, shift: s)
        case 11: lpc32Kernel(x, count: count, c: c, order: 11, shift: s)
        case 12: lpc32Kernel(x, count: count, c: c, order: 12, shift: s)
        case 13: lpc32Kernel(x, count: count, c: c, order: 13, shift: s)
        case 14: lpc32Kernel(x, count: count, c: c, order: 14, shift: s)
        case 15: lpc32Kernel(x, count: count, c: c, order: 15, shift: s)
        case 16: lpc32Kernel(x, count: count, c: c, order: 16, shift: s)
        case 17: lpc32Kernel(x, count: count, c: c, order: 17, shift: s)
        case 18: lpc32Kernel(x, count: count, c: c, order: 18, shift: s)
        case 19: lpc32Kernel(x, count: count, c: c, order: 19, shift: s)
        case 20: lpc32Kernel(x, count: count, c: c, order: 20, shift: s)
        case 21: lpc32Kernel(x, count: count, c: c, order: 21, shift: s)
        case 22: lpc32Kernel(x, count: count, c: c, order: 22, shift: s)
        case 23: lpc32Kernel(x, count: count, c: c, order: 23, shift: s)
        case 24: lpc32Kernel(x, count: count, c: c, order: 24, shift: s)
        case 25: lpc32Kernel(x, count: count, c: c, order: 25, shift: s)
        case 26: lpc32Kernel(x, count: count, c: c, order: 26, shift: s)
        case 27: lpc32Kernel(x, count: count, c: c, order: 27, shift: s)
        case 28: lpc32Kernel(x, count: count, c: c, order: 28, shift: s)
        case 29: lpc32Kernel(x, count: count, c: c, order: 29, shift: s)
        case 30: lpc32Kernel(x, count: count, c: c, order: 30, shift: s)
        case 31: lpc32Kernel(x, count: count, c: c, order: 31, shift: s)
        case 32: lpc32Kernel(x, count: count, c: c, order: 32, shift: s)
        default: break
        }
    }

    /// The 32-bit LPC loop for a constant `order`. The two newest samples stay in registers so the
    /// sample-to-sample dependency (multiply, add, shift, add) never waits on a store to memory.
    @inline(__always)
    private static func lpc32Kernel(_ x: UnsafeMutablePointer<Int32>, count: Int, c: UnsafePointer<Int32>,
                                    order: Int, shift: Int32) {
        guard count > order else { return }
        var p1 = x[order - 1], p2 = order >= 2 ? x[order - 2] : 0
        let c1 = c[order - 1], c2 = order >= 2 ? c[order - 2] : 0
        var i = order
        while i < count {
            let h = x + (i &- order)
            var sum: Int32 = 0
            if order > 2 { for j in 0..<(order - 2) { sum &+= c[j] &* h[j] } }
            sum &+= c2 &* p2
            sum &+= c1 &* p1
            let v = x[i] &+ (sum &>> shift)
            x[i] = v
            p2 = p1
            p1 = v
            i &+= 1
        }
    }

    /// LPC restore with 64-bit sums, for deep samples or high-precision coefficients.
    private static func restoreLPC64(_ x: UnsafeMutablePointer<Int32>, count: Int, coefficients c: UnsafePointer<Int32>,
                                     order: Int, shift: Int) {
        let s = Int64(shift)
        var i = order
        while i < count {
            var sum: Int64 = 0
            let h = x + (i - order)
            for j in 0..<order { sum &+= Int64(c[j]) &* Int64(h[j]) }
            x[i] = x[i] &+ Int32(truncatingIfNeeded: sum &>> s)
            i &+= 1
        }
    }

    /// Restores wasted low bits.
    private static func shiftLeft(_ x: UnsafeMutablePointer<Int32>, count: Int, by n: Int) {
        let s = Int32(n)
        for i in 0..<count { x[i] = x[i] &<< s }
    }

    // MARK: Output

    /// Undoes stereo decorrelation and interleaves the planes into `out`. Sums fit 32 bits up to 30-bit
    /// samples; deeper streams go through 64-bit arithmetic.
    private func interleave(_ assignment: FLACFrameHeader.ChannelAssignment, blockSize n: Int, wideChannel: Int,
                            into out: UnsafeMutablePointer<Int32>) {
        let a = planes, b = planes + maxBlockSize
        if case .independent = assignment {
            if channels == 1 {
                out.update(from: a, count: n)
            } else if channels == 2 {
                for i in 0..<n { out[2 * i] = a[i]; out[2 * i + 1] = b[i] }
            } else {
                for c in 0..<channels {
                    let p = planes + c * maxBlockSize
                    var o = out + c
                    for i in 0..<n { o.pointee = p[i]; o += channels }
                }
            }
            return
        }
        if bitsPerSample <= 30 {
            switch assignment {
            case .leftSide:
                for i in 0..<n { out[2 * i] = a[i]; out[2 * i + 1] = a[i] &- b[i] }
            case .rightSide:
                for i in 0..<n { out[2 * i] = a[i] &+ b[i]; out[2 * i + 1] = b[i] }
            default:
                for i in 0..<n {
                    let side = b[i]
                    let mid = a[i] &<< 1 | (side & 1)
                    out[2 * i] = (mid &+ side) &>> 1
                    out[2 * i + 1] = (mid &- side) &>> 1
                }
            }
            return
        }
        // 31/32-bit: the side channel is in widePlane (33 bits) or is widened into it.
        let sideIndex = assignment == .rightSide ? 0 : 1
        if wideChannel != sideIndex {
            let p = planes + sideIndex * maxBlockSize
            for i in 0..<n { widePlane[i] = Int64(p[i]) }
        }
        let s = widePlane
        switch assignment {
        case .leftSide:
            for i in 0..<n { out[2 * i] = a[i]; out[2 * i + 1] = Int32(truncatingIfNeeded: Int64(a[i]) &- s[i]) }
        case .rightSide:
            for i in 0..<n { out[2 * i] = Int32(truncatingIfNeeded: s[i] &+ Int64(b[i])); out[2 * i + 1] = b[i] }
        default:
            for i in 0..<n {
                let side = s[i]
                let mid = Int64(a[i]) &<< 1 | (side & 1)
                out[2 * i] = Int32(truncatingIfNeeded: (mid &+ side) &>> 1)
                out[2 * i + 1] = Int32(truncatingIfNeeded: (mid &- side) &>> 1)
            }
        }
    }
}
