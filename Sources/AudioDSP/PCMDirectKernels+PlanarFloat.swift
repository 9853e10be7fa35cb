/// Planar Float32 on one side, a packed little-endian layout on the other: what a resampling converter feeds its
/// resampler and takes from it, with no Double stage in between.
///
/// Every result is bit-identical to PCMSampleCodec's decode to Double followed by `Float(_:)` (decoding), and to
/// `Double(_:)` followed by PCMSampleCodec's encode without dither (encoding):
/// - Int16 and Int24 decode exactly in Float32 (at most 24 significant bits), and the scale is a power of two, so
///   `Float(v) * 2^-(N-1)` is the value the Double path rounds to Float. Int32: `Float(v)` rounds v to 24 bits
///   (nearest, ties to even) and the power-of-two scale is exact (no overflow or subnormal for |v| < 2^31), so it
///   is the correctly rounded v / 2^31, which is what `Float(Double(v) / 2^31)` is too.
/// - Encoding, `f * 2^(N-1)` is exact in Float32 as in Double, or infinite where the Double is past every clip
///   bound, so both clip alike. Clipping before rounding gives the Double path's round-then-clip because the bounds
///   are integers. Rounding adds 1.5 * 2^52 in Double (1.5 * 2^23 in Float for Int16): every in-range value then
///   lands where the spacing of representable numbers is 1, so the hardware's round-to-nearest-even does the
///   rounding and the integer is in the low bits of the sum; no libm call, and the loop vectorises. Int32's upper
///   bound 2^31 - 1 is not a Float, but no Float lies between it and 2^31, so clipping at `x >= 2^31` in Float is the
///   same. NaN encodes as 0, as there.
/// - Float32 <-> Float32 copies the value; Float64 converts as `Double(_:)` and `Float(_:)` do in the Double path.
/// Safe on the render thread.
extension PCMDirectKernels {
    /// Decodes `count` samples of `from`, `sourceStride` bytes apart, into consecutive Floats in [-1, 1) for
    /// integers.
    public static func decode(_ source: UnsafeRawPointer, sourceStride: Int, from: Kind, into destination: UnsafeMutablePointer<Float>,
                              count: Int) {
        guard count > 0 else { return }
        switch from {
        case .int16:
            for i in 0..<count { destination[i] = Float((source + i * sourceStride).loadUnaligned(as: Int16.self)) * 0x1p-15 }
        case .int24:
            if sourceStride >= 4 {
                // A 4-byte load takes the sample's 3 bytes and one past them (the next sample's, still in the buffer for every
                // sample but the last); the shifts keep the 3 bytes, sign-extended.
                for i in 0..<count - 1 {
                    let w = Int32(bitPattern: (source + i * sourceStride).loadUnaligned(as: UInt32.self))
                    destination[i] = Float((w &<< 8) &>> 8) * 0x1p-23
                }
            } else {
                for i in 0..<count - 1 { destination[i] = Float(loadInt24(source + i * sourceStride)) * 0x1p-23 }
            }
            destination[count - 1] = Float(loadInt24(source + (count - 1) * sourceStride)) * 0x1p-23
        case .int32:
            for i in 0..<count { destination[i] = Float((source + i * sourceStride).loadUnaligned(as: Int32.self)) * 0x1p-31 }
        case .float32:
            for i in 0..<count { destination[i] = (source + i * sourceStride).loadUnaligned(as: Float.self) }
        case .float64:
            for i in 0..<count { destination[i] = Float((source + i * sourceStride).loadUnaligned(as: Double.self)) }
        }
    }

    /// Encodes `count` consecutive Floats as samples of `to`, `destinationStride` bytes apart: integers scaled by
    /// 2^(N-1), rounded to nearest (ties to even) and clipped; NaN as 0. Bytes between the samples are untouched.
    public static func encode(_ source: UnsafePointer<Float>, to: Kind, _ destination: UnsafeMutableRawPointer, destinationStride: Int,
                              count: Int) {
        guard count > 0 else { return }
        switch to {
        case .int16, .int24, .int32:
            // Blocks through a small stack buffer: rounding and clipping run over contiguous Floats (a loop the compiler
            // vectorises), then the integers are stored at the destination's stride.
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: encodeBlock) { buffer in
                let integers = buffer.baseAddress!
                var done = 0
                while done < count {
                    let n = min(encodeBlock, count - done)
                    let s = source + done, d = destination + done * destinationStride
                    switch to {
                    case .int16:
                        for i in 0..<n { integers[i] = roundedInt16(s[i]) }
                        for i in 0..<n { (d + i * destinationStride).storeBytes(of: Int16(truncatingIfNeeded: integers[i]), as: Int16.self) }
                    case .int24:
                        for i in 0..<n { integers[i] = roundedInt24(s[i]) }
                        for i in 0..<n { storeInt24(integers[i], d + i * destinationStride) }
                    default:
                        for i in 0..<n { integers[i] = roundedInt32(s[i]) }
                        for i in 0..<n { (d + i * destinationStride).storeBytes(of: integers[i], as: Int32.self) }
                    }
                    done += n
                }
            }
        case .float32:
            for i in 0..<count { (destination + i * destinationStride).storeBytes(of: source[i], as: Float.self) }
        case .float64:
            for i in 0..<count { (destination + i * destinationStride).storeBytes(of: Double(source[i]), as: Double.self) }
        }
    }
}

/// Samples encoded per block of the integer encoders (their stack buffer: 1 KiB).
private let encodeBlock = 256

/// `f` x 2^15 clipped to Int16 and rounded to nearest even (NaN: 0): after the clip, adding 1.5 x 2^23 leaves the
/// integer in the low bits of the sum.
@inline(__always) private func roundedInt16(_ f: Float) -> Int32 {
    let x = f * 0x1p15
    let c: Float = x.isNaN ? 0 : x > 32767 ? 32767 : x < -32768 ? -32768 : x
    return Int32(Int16(truncatingIfNeeded: (c + 0x1.8p23).bitPattern))
}

/// `f` x 2^23 clipped to Int24 and rounded to nearest even (NaN: 0), in Double (1.5 x 2^52 added) as 2^23 needs 24 bits.
@inline(__always) private func roundedInt24(_ f: Float) -> Int32 {
    let x = f * 0x1p23
    let c: Float = x.isNaN ? 0 : x > 8_388_607 ? 8_388_607 : x < -8_388_608 ? -8_388_608 : x
    return Int32(truncatingIfNeeded: (Double(c) + 0x1.8p52).bitPattern)
}

/// `f` x 2^31 clipped to Int32 and rounded to nearest even (NaN: 0). No Float lies between 2^31 - 1 and 2^31, so
/// `x >= 2^31` is the Double path's `x > 2^31 - 1`.
@inline(__always) private func roundedInt32(_ f: Float) -> Int32 {
    let x = f * 0x1p31
    let d: Double = x.isNaN ? 0 : x >= 0x1p31 ? 2_147_483_647 : x < -0x1p31 ? -0x1p31 : Double(x)
    return Int32(truncatingIfNeeded: (d + 0x1.8p52).bitPattern)
}
