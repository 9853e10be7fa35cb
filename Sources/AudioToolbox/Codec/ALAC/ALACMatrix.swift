/// ALAC's lossless stereo matrixing and the shift-off of low bytes (matrix_enc.c / matrix_dec.c).
/// The generalised mid/side transform is u = floor((r*L + (2^m - r)*R) / 2^m), v = L - R, inverted by
/// L = u + v - floor(r*v / 2^m), R = L - v; r = 0 leaves the channels separate. For 24- and 32-bit audio the
/// low `bytesShifted` bytes of each sample bypass prediction and travel verbatim in a shift buffer
/// (interleaved U, V for a pair). Samples are Int32 at the stream's bit depth (16, 20, 24 or 32), not scaled.
enum ALACMatrix {
    /// Sign-extends the low `32 - ext` bits of `x` (values outside the bit depth are truncated to it).
    @inline(__always)
    private static func extend(_ x: Int32, _ ext: Int32) -> Int32 {
        (x &<< ext) &>> ext
    }

    /// Encoder: de-interleaves a channel pair read every `stride` samples from `input`, moves the low
    /// `bytesShifted` bytes into `shiftBuffer` (2 * count entries) and mixes with `mixBits`/`mixRes`.
    static func mix(_ input: UnsafePointer<Int32>, stride: Int, u: UnsafeMutablePointer<Int32>, v: UnsafeMutablePointer<Int32>,
                    count: Int, mixBits: Int, mixRes: Int, shiftBuffer: UnsafeMutablePointer<UInt16>, bytesShifted: Int,
                    bitDepth: Int) {
        let ext = Int32(32 &- bitDepth)
        let shift = Int32(bytesShifted &* 8)
        let mask = Int32((1 << (bytesShifted * 8)) - 1)
        let res = Int32(mixRes), bits = Int32(mixBits)
        let other = (Int32(1) &<< bits) &- res
        var p = input
        for j in 0..<count {
            var l = extend(p[0], ext), r = extend(p[1], ext)
            p += stride
            if shift != 0 {
                shiftBuffer[2 &* j] = UInt16(truncatingIfNeeded: l & mask)
                shiftBuffer[2 &* j &+ 1] = UInt16(truncatingIfNeeded: r & mask)
                l = l &>> shift
                r = r &>> shift
            }
            if res != 0 {
                u[j] = (res &* l &+ other &* r) &>> bits
                v[j] = l &- r
            } else {
                u[j] = l
                v[j] = r
            }
        }
    }

    /// Decoder: unmixes a channel pair, restores the shifted-off bytes and writes it every `stride` samples
    /// into `out`, sign-extended from `bitDepth`. `mixBits` must be 0...31.
    static func unmix(u: UnsafePointer<Int32>, v: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>, stride: Int,
                      count: Int, mixBits: Int, mixRes: Int, shiftBuffer: UnsafePointer<UInt16>, bytesShifted: Int,
                      bitDepth: Int) {
        let ext = Int32(32 &- bitDepth)
        let res = Int32(mixRes), bits = Int32(mixBits)
        var p = out
        if bytesShifted == 0 {
            // The hot path (16-bit stereo): no shift buffer.
            if res != 0 {
                for j in 0..<count {
                    let l = u[j] &+ v[j] &- ((res &* v[j]) &>> bits)
                    p[0] = extend(l, ext)
                    p[1] = extend(l &- v[j], ext)
                    p += stride
                }
            } else {
                for j in 0..<count {
                    p[0] = extend(u[j], ext)
                    p[1] = extend(v[j], ext)
                    p += stride
                }
            }
            return
        }
        let shift = Int32(bytesShifted &* 8)
        for j in 0..<count {
            var l = u[j], r = v[j]
            if res != 0 {
                l = l &+ r &- ((res &* r) &>> bits)
                r = l &- v[j]
            }
            p[0] = extend((l &<< shift) | Int32(shiftBuffer[2 &* j]), ext)
            p[1] = extend((r &<< shift) | Int32(shiftBuffer[2 &* j &+ 1]), ext)
            p += stride
        }
    }

    /// Encoder: copies one channel read every `stride` samples into `u`, moving the low `bytesShifted`
    /// bytes into `shiftBuffer` (count entries).
    static func extractMono(_ input: UnsafePointer<Int32>, stride: Int, into u: UnsafeMutablePointer<Int32>, count: Int,
                            shiftBuffer: UnsafeMutablePointer<UInt16>, bytesShifted: Int, bitDepth: Int) {
        let ext = Int32(32 &- bitDepth)
        let shift = Int32(bytesShifted &* 8)
        let mask = Int32((1 << (bytesShifted * 8)) - 1)
        var p = input
        for j in 0..<count {
            let x = extend(p[0], ext)
            p += stride
            if shift != 0 {
                shiftBuffer[j] = UInt16(truncatingIfNeeded: x & mask)
                u[j] = x &>> shift
            } else {
                u[j] = x
            }
        }
    }

    /// Decoder: writes one channel every `stride` samples into `out`, restoring the shifted-off bytes and
    /// sign-extending from `bitDepth`.
    static func outputMono(_ u: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>, stride: Int, count: Int,
                           shiftBuffer: UnsafePointer<UInt16>, bytesShifted: Int, bitDepth: Int) {
        let ext = Int32(32 &- bitDepth)
        var p = out
        if bytesShifted == 0 {
            for j in 0..<count {
                p[0] = extend(u[j], ext)
                p += stride
            }
            return
        }
        let shift = Int32(bytesShifted &* 8)
        for j in 0..<count {
            p[0] = extend((u[j] &<< shift) | Int32(shiftBuffer[j]), ext)
            p += stride
        }
    }
}
