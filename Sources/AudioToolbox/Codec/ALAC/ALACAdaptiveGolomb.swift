/// ALAC's adaptive Golomb-Rice ("ag") entropy coder, with the reference's exact adaptation rules: the Rice
/// parameter follows a running mean of the coded values, and a mean that falls low switches to run-length
/// coding of zeros. The mean arithmetic is unsigned and modulo 2^32, as in Apple's dyn_comp/dyn_decomp.
enum ALACAdaptiveGolomb {
    /// Fixed-point shift of the running mean (QBSHIFT).
    private static let meanShift: UInt32 = 9
    /// Values this large or larger clamp the mean (N_MAX_MEAN_CLAMP).
    private static let meanClamp: UInt32 = 0xFFFF
    /// Unary prefixes this long mean an escaped value follows (MAX_PREFIX_32).
    private static let escapePrefix = 9

    /// The Rice parameter for `mean`: floor(log2(mean / 512 + 3)), at most `kb` (lg3a).
    @inline(__always)
    private static func riceParameter(_ mean: UInt32, _ kb: UInt32) -> UInt32 {
        min(UInt32(truncatingIfNeeded: 31 &- ((mean &>> meanShift) &+ 3).leadingZeroBitCount), kb)
    }

    /// The Rice parameter for a zero run after a low `mean` (< 128): 1 to 8.
    @inline(__always)
    private static func runParameter(_ mean: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: mean.leadingZeroBitCount &- 24) &+ ((mean &+ 16) &>> 6)
    }

    /// Decodes `count` residuals into `out`; `sampleBits` (1...32) is the width of escaped values, `pb`
    /// (already scaled by the packet's pbFactor), `mb` and `kb` (1...31) are the coder's parameters.
    /// Returns false if the bits run out or do not form a valid code.
    static func decode(_ reader: inout ALACBitBuffer.Reader, into out: UnsafeMutablePointer<Int32>, count: Int,
                       sampleBits: Int, pb: UInt32, mb: UInt32, kb: UInt32) -> Bool {
        let end = reader.bitCount
        var pos = reader.position
        let wb = (UInt32(1) &<< kb) &- 1
        let escapeShift = UInt64(64 &- sampleBits)
        var mean = mb
        var zmode: UInt32 = 0
        var c = 0
        while c < count {
            // Every code takes at least one bit, so this also bounds the loop on garbage.
            guard pos < end else { return false }
            let k = riceParameter(mean, kb)
            let word = reader.peek64(at: pos)
            let ones = (~word).leadingZeroBitCount
            var n: UInt32
            if ones >= escapePrefix {
                n = UInt32(truncatingIfNeeded: (word &<< 9) &>> escapeShift)
                pos &+= escapePrefix &+ sampleBits
            } else if k != 1 {
                // Prefix, stop bit, then k bits whose value v >= 2 adds v - 1; v < 2 means only k - 1 were used.
                let v = UInt32(truncatingIfNeeded: (word &<< UInt64(ones &+ 1)) &>> UInt64(64 &- k))
                n = UInt32(truncatingIfNeeded: ones) &* ((1 &<< k) &- 1)
                if v >= 2 {
                    n &+= v &- 1
                    pos &+= ones &+ 1 &+ Int(k)
                } else {
                    pos &+= ones &+ Int(k)
                }
            } else {
                n = UInt32(truncatingIfNeeded: ones)
                pos &+= ones &+ 1
            }
            // The low bit is the sign: 0, -1, 1, -2, 2, ... after the zero-run offset.
            let coded = n &+ zmode
            let negate = 0 &- (coded & 1)
            out[c] = Int32(bitPattern: (((coded &+ 1) &>> 1) ^ negate) &- negate)
            c &+= 1
            mean = pb &* coded &+ mean &- ((pb &* mean) &>> meanShift)
            if n > meanClamp { mean = meanClamp }
            zmode = 0
            if (mean &<< 2) < 512 && c < count {
                // A mean this low only wraps here from a hostile pb; Apple's decoder would shift by >= 32.
                guard mean < 128 else { return false }
                zmode = 1
                let kz = runParameter(mean)
                let mz = ((UInt32(1) &<< kz) &- 1) & wb
                let w = reader.peek64(at: pos)
                let zeroOnes = (~w).leadingZeroBitCount
                var run: Int
                if zeroOnes >= escapePrefix {
                    run = Int(truncatingIfNeeded: (w &<< 9) &>> 48)
                    pos &+= escapePrefix &+ 16
                } else {
                    let v = UInt32(truncatingIfNeeded: (w &<< UInt64(zeroOnes &+ 1)) &>> UInt64(64 &- kz))
                    run = zeroOnes &* Int(mz)
                    if v >= 2 {
                        run &+= Int(v) &- 1
                        pos &+= zeroOnes &+ 1 &+ Int(kz)
                    } else {
                        pos &+= zeroOnes &+ Int(kz)
                    }
                }
                guard run <= count &- c else { return false }
                (out + c).update(repeating: 0, count: run)
                c &+= run
                if run >= 65535 { zmode = 0 }
                mean = 0
            }
        }
        reader.position = pos
        return !reader.isOverrun
    }

    /// Encodes `count` residuals, each within `sampleBits` (1...32) signed bits, with the coder's parameters.
    /// At 32 bits -2^31 cannot be carried (the reference's n + 1 wraps too); ALAC encoders never code 32-bit
    /// residuals, as they shift 32-bit audio down to 17 bits.
    static func encode(_ residuals: UnsafePointer<Int32>, count: Int, sampleBits: Int, pb: UInt32, mb: UInt32,
                       kb: UInt32, into writer: inout ALACBitBuffer.Writer) {
        _ = code(residuals, count: count, sampleBits: sampleBits, pb: pb, mb: mb, kb: kb, writer: &writer, emit: true)
    }

    /// The bits `encode` would write, without writing them (the encoder's parameter searches).
    static func bitCount(_ residuals: UnsafePointer<Int32>, count: Int, sampleBits: Int, pb: UInt32, mb: UInt32,
                         kb: UInt32) -> Int {
        var unused = ALACBitBuffer.Writer.discarding
        return code(residuals, count: count, sampleBits: sampleBits, pb: pb, mb: mb, kb: kb, writer: &unused, emit: false)
    }

    /// dyn_comp: codes the residuals, writing them when `emit` (a constant after inlining), and returns the bits.
    @inline(__always)
    private static func code(_ residuals: UnsafePointer<Int32>, count: Int, sampleBits: Int, pb: UInt32, mb: UInt32,
                             kb: UInt32, writer: inout ALACBitBuffer.Writer, emit: Bool) -> Int {
        // ceil(2^32 / (2^k - 1)) for k 1...14: the division by the modulus as a multiply (index 0 unused).
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 16) { table in
            let reciprocals = table.baseAddress!
            reciprocals[0] = 0
            for k in 1..<16 { reciprocals[k] = ((UInt64(1) << 32) + (UInt64(1) << UInt64(k)) - 2) / ((UInt64(1) << UInt64(k)) - 1) }
            return code(residuals, count: count, sampleBits: sampleBits, pb: pb, mb: mb, kb: kb, writer: &writer, emit: emit,
                        reciprocals: reciprocals)
        }
    }

    /// The coder itself, with the modulus reciprocals for k 1...14 in `reciprocals`.
    @inline(__always)
    private static func code(_ residuals: UnsafePointer<Int32>, count: Int, sampleBits: Int, pb: UInt32, mb: UInt32,
                             kb: UInt32, writer: inout ALACBitBuffer.Writer, emit: Bool, reciprocals: UnsafePointer<UInt64>) -> Int {
        let wb = (UInt32(1) &<< kb) &- 1
        var bits = 0
        var mean = mb
        var zmode: UInt32 = 0
        var c = 0
        while c < count {
            let k = riceParameter(mean, kb)
            let m = (UInt32(1) &<< k) &- 1
            let raw = UInt32(bitPattern: residuals[c])
            c &+= 1
            // 0, -1, 1, -2, 2, ... map to 0, 1, 2, 3, 4, ... less the zero-run offset.
            let sign = raw &>> 31
            let n = (((raw ^ (0 &- sign)) &+ sign) &<< 1) &- sign &- zmode
            // Up to 8 prefix ones and a 25-bit code; anything longer is escaped as 9 ones and the raw value.
            if UInt64(n) < 9 &* UInt64(m) {
                // n / m by a multiply: ceil(2^32 / m) is exact for n < 9m when 9m^2 < 2^32 (k <= 14: m < 21,845).
                let div = k <= 14 ? UInt32(truncatingIfNeeded: (UInt64(n) &* reciprocals[Int(k)]) &>> 32) : n / m
                let mod = n &- m &* div
                let de: UInt32 = mod == 0 ? 1 : 0
                let length = div &+ k &+ 1 &- de
                if length <= 25 {
                    if emit { writer.write((((1 &<< div) &- 1) &<< (length &- div)) &+ mod &+ 1 &- de, Int(length)) }
                    bits &+= Int(length)
                } else {
                    if emit { writer.write(0x1FF, 9); writer.write(n, sampleBits) }
                    bits &+= 9 &+ sampleBits
                }
            } else {
                if emit { writer.write(0x1FF, 9); writer.write(n, sampleBits) }
                bits &+= 9 &+ sampleBits
            }
            mean = pb &* (n &+ zmode) &+ mean &- ((pb &* mean) &>> meanShift)
            if n > meanClamp { mean = meanClamp }
            zmode = 0
            if (mean &<< 2) < 512 && c < count {
                zmode = 1
                var run: UInt32 = 0
                while c < count && residuals[c] == 0 {
                    c &+= 1
                    run &+= 1
                    if run >= 65535 {
                        zmode = 0
                        break
                    }
                }
                let kz = runParameter(mean)
                // Never 0 with this encoder's pb (the mean stays < 128 here); the guard keeps division defined.
                let mz = max(((UInt32(1) &<< kz) &- 1) & wb, 1)
                let div = run / mz
                var length: UInt32 = 25
                var value = 0x1FF &<< 16 &+ run
                if div < 9 {
                    let mod = run &- mz &* div
                    let de: UInt32 = mod == 0 ? 1 : 0
                    let short = div &+ kz &+ 1 &- de
                    if short <= 25 {
                        length = short
                        value = (((1 &<< div) &- 1) &<< (short &- div)) &+ mod &+ 1 &- de
                    }
                }
                if emit { writer.write(value, Int(length)) }
                bits &+= Int(length)
                mean = 0
            }
        }
        return bits
    }
}
