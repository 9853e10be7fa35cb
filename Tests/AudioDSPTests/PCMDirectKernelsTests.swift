import AudioDSP
import Testing

/// The direct kernels against PCMSampleCodec's decode to Double and encode (no dither), byte for byte, for all 25
/// pairs: random samples, every boundary (full scale, just past it, ±0, NaN, infinities, subnormals), interleaved
/// strides with gaps that must stay untouched.
@Suite struct PCMDirectKernelsTests {
    static let layouts: [(PCMDirectKernels.Kind, PCMSampleLayout)] = [
        (.int16, PCMSampleLayout(validBits: 16, containerBytes: 2, isFloat: false, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)),
        (.int24, PCMSampleLayout(validBits: 24, containerBytes: 3, isFloat: false, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)),
        (.int32, PCMSampleLayout(validBits: 32, containerBytes: 4, isFloat: false, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)),
        (.float32, PCMSampleLayout(validBits: 32, containerBytes: 4, isFloat: true, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)),
        (.float64, PCMSampleLayout(validBits: 64, containerBytes: 8, isFloat: true, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)),
    ]

    /// Source bytes for `count` samples of `layout`, `stride` bytes apart: random bits plus the boundary values.
    static func source(_ layout: PCMSampleLayout, count: Int, stride: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xA5, count: count * stride)
        var x: UInt64 = 0x1234_5678_9ABC_DEF0
        let specials: [Double] = [0, -0.0, 1, -1, 0.999999, -0.999999, 1.0000001, -1.0000001, 2, -2, .nan, .infinity, -.infinity,
                                  Double(Float.leastNonzeroMagnitude), 0.5 / 32768, 1.5 / 32768, -0.5 / 32768, 0.5 / 8_388_608, 1e-300]
        for i in 0..<count {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            if layout.isFloat {
                let v = i < specials.count ? specials[i] : Double(Int64(bitPattern: x)) / Double(Int64.max) * 1.2
                if layout.containerBytes == 4 {
                    withUnsafeBytes(of: Float(v)) { for b in 0..<4 { bytes[i * stride + b] = $0[b] } }
                } else {
                    withUnsafeBytes(of: v) { for b in 0..<8 { bytes[i * stride + b] = $0[b] } }
                }
            } else {
                // Random bits, and the extremes at the start.
                let edge: UInt64 = i == 0 ? 0 : i == 1 ? ~0 : i == 2 ? UInt64(1) << UInt64(layout.validBits - 1) : i == 3 ? (UInt64(1) << UInt64(layout.validBits - 1)) - 1 : x
                for b in 0..<layout.containerBytes { bytes[i * stride + b] = UInt8(truncatingIfNeeded: edge >> UInt64(8 * b)) }
            }
        }
        return bytes
    }

    @Test func everyPairEqualsTheDoublePath() {
        let count = 4096
        for (fromKind, fromLayout) in Self.layouts {
            for (toKind, toLayout) in Self.layouts {
                #expect(PCMDirectKernels.kind(fromLayout) == fromKind && PCMDirectKernels.kind(toLayout) == toKind)
                let inStride = fromLayout.containerBytes * 2 + 1, outStride = toLayout.containerBytes * 3
                let src = Self.source(fromLayout, count: count, stride: inStride)
                var direct = [UInt8](repeating: 0x5A, count: count * outStride)
                var viaDouble = direct
                src.withUnsafeBytes { s in
                    direct.withUnsafeMutableBytes { d in
                        PCMDirectKernels.convert(s.baseAddress!, sourceStride: inStride, from: fromKind, d.baseAddress!, destinationStride: outStride,
                                                 to: toKind, count: count)
                    }
                    var doubles = [Double](repeating: 0, count: count)
                    doubles.withUnsafeMutableBufferPointer { PCMSampleCodec.decode(s.baseAddress!, strideBytes: inStride, count: count, layout: fromLayout, into: $0.baseAddress!) }
                    viaDouble.withUnsafeMutableBytes { d in
                        doubles.withUnsafeBufferPointer {
                            PCMSampleCodec.encode($0.baseAddress!, count: count, layout: toLayout, into: d.baseAddress!, strideBytes: outStride, dither: nil)
                        }
                    }
                }
                // NaN payloads may differ between the two paths: compare floats' NaNs as NaN.
                var mismatches = 0
                for i in 0..<count {
                    let a = Array(direct[(i * outStride)..<(i * outStride + toLayout.containerBytes)])
                    let b = Array(viaDouble[(i * outStride)..<(i * outStride + toLayout.containerBytes)])
                    if a != b && !(toLayout.isFloat && Self.isNaN(a) && Self.isNaN(b)) { mismatches += 1 }
                }
                #expect(mismatches == 0, "\(fromKind) -> \(toKind): \(mismatches) samples differ")
                // The gaps between samples are untouched.
                #expect((0..<count).allSatisfy { i in direct[(i * outStride + toLayout.containerBytes)..<((i + 1) * outStride)].allSatisfy { $0 == 0x5A } })
            }
        }
    }

    /// Widening Int16 and Int24 into the encoders' low-aligned Int32 of 16, 20, 24 and 31 valid bits: byte for
    /// byte what the Double path writes, contiguous (the vectorised loop) and strided; narrowing is refused.
    @Test func wideningIntoLowAlignedInt32EqualsTheDoublePath() {
        let count = 4096
        for (fromKind, fromLayout) in Self.layouts.prefix(2) {
            for bits in [16, 20, 24, 31] where bits >= fromLayout.validBits {
                let toLayout = PCMSampleLayout(validBits: bits, containerBytes: 4, isFloat: false, isSigned: true, isBigEndian: false,
                                               isAlignedHigh: false, fractionBits: 0)
                #expect(PCMDirectKernels.isLowAlignedInt32(toLayout))
                for (inStride, outStride) in [(fromLayout.containerBytes, 4), (fromLayout.containerBytes * 2 + 1, 12)] {
                    let src = Self.source(fromLayout, count: count, stride: inStride)
                    var direct = [UInt8](repeating: 0x5A, count: count * outStride)
                    var viaDouble = direct
                    var handled = false
                    src.withUnsafeBytes { s in
                        direct.withUnsafeMutableBytes { d in
                            handled = PCMDirectKernels.widenToLowAlignedInt32(s.baseAddress!, sourceStride: inStride, from: fromKind, d.baseAddress!,
                                                                              destinationStride: outStride, validBits: bits, count: count)
                        }
                        var doubles = [Double](repeating: 0, count: count)
                        doubles.withUnsafeMutableBufferPointer { PCMSampleCodec.decode(s.baseAddress!, strideBytes: inStride, count: count, layout: fromLayout, into: $0.baseAddress!) }
                        viaDouble.withUnsafeMutableBytes { d in
                            doubles.withUnsafeBufferPointer {
                                PCMSampleCodec.encode($0.baseAddress!, count: count, layout: toLayout, into: d.baseAddress!, strideBytes: outStride, dither: nil)
                            }
                        }
                    }
                    #expect(handled)
                    #expect(direct == viaDouble, "\(fromKind) -> \(bits)-bit low-aligned Int32, strides \(inStride)/\(outStride)")
                }
            }
        }
        // -1 in 16 valid bits: the low 16 bits set, the container's top zero (as the Double path writes it).
        var minusOne: Int16 = -1, out: Int32 = 0
        #expect(PCMDirectKernels.widenToLowAlignedInt32(&minusOne, sourceStride: 2, from: .int16, &out, destinationStride: 4, validBits: 16, count: 1))
        #expect(out == 0xFFFF)
        // Narrowing (24 into 16) and non-integer sources go the Double path.
        var wide: (UInt8, UInt8, UInt8) = (0, 0, 0)
        #expect(!PCMDirectKernels.widenToLowAlignedInt32(&wide, sourceStride: 3, from: .int24, &out, destinationStride: 4, validBits: 16, count: 1))
        var f: Float = 0.5
        #expect(!PCMDirectKernels.widenToLowAlignedInt32(&f, sourceStride: 4, from: .float32, &out, destinationStride: 4, validBits: 24, count: 1))
    }

    static func isNaN(_ b: [UInt8]) -> Bool {
        b.count == 4 ? Float(bitPattern: b.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }).isNaN
            : Double(bitPattern: b.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }).isNaN
    }

    /// The contiguous aligned Int16 <-> Float32 loops equal the strided ones.
    @Test func contiguousRunsEqualTheStridedPath() {
        let count = 1001
        let int16 = Self.layouts[0].1, float32 = Self.layouts[3].1
        for (from, fromLayout, to) in [(PCMDirectKernels.Kind.int16, int16, PCMDirectKernels.Kind.float32), (.float32, float32, .int16)] {
            let size = fromLayout.containerBytes, outSize = from == .int16 ? 4 : 2
            let src = Self.source(fromLayout, count: count, stride: size)
            var contiguous = [UInt8](repeating: 0, count: count * outSize)
            var strided = [UInt8](repeating: 0, count: count * (outSize + 1))
            src.withUnsafeBytes { s in
                contiguous.withUnsafeMutableBytes { PCMDirectKernels.convert(s.baseAddress!, sourceStride: size, from: from, $0.baseAddress!, destinationStride: outSize, to: to, count: count) }
                strided.withUnsafeMutableBytes { PCMDirectKernels.convert(s.baseAddress!, sourceStride: size, from: from, $0.baseAddress!, destinationStride: outSize + 1, to: to, count: count) }
            }
            let same = (0..<count).allSatisfy { i in
                let a = contiguous[(i * outSize)..<((i + 1) * outSize)], b = strided[(i * (outSize + 1))..<(i * (outSize + 1) + outSize)]
                return Array(a) == Array(b) || (to == .float32 && Self.isNaN(Array(a)) && Self.isNaN(Array(b)))
            }
            #expect(same, "\(from) -> \(to)")
        }
    }

    @Test func kindsAreOnlyPackedLittleEndian() {
        let big = PCMSampleLayout(validBits: 16, containerBytes: 2, isFloat: false, isSigned: true, isBigEndian: true, isAlignedHigh: false, fractionBits: 0)
        let unpacked = PCMSampleLayout(validBits: 24, containerBytes: 4, isFloat: false, isSigned: true, isBigEndian: false, isAlignedHigh: true, fractionBits: 0)
        let fixed = PCMSampleLayout(validBits: 32, containerBytes: 4, isFloat: false, isSigned: true, isBigEndian: false, isAlignedHigh: false, fractionBits: 24)
        let unsigned = PCMSampleLayout(validBits: 8, containerBytes: 1, isFloat: false, isSigned: false, isBigEndian: false, isAlignedHigh: false, fractionBits: 0)
        #expect([big, unpacked, fixed, unsigned].allSatisfy { PCMDirectKernels.kind($0) == nil })
    }
}
