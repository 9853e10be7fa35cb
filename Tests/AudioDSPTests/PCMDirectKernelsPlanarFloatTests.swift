import AudioDSP
import Testing

/// The planar Float32 kernels (a resampling converter's decode and encode) against PCMSampleCodec's Double path, bit
/// for bit: decode to Double then `Float(_:)`, and `Double(_:)` then encode without dither. Random samples, every
/// boundary (full scale, just past it, far past it, rounding ties, ±0, NaN, infinities, subnormals), contiguous,
/// interleaved and gapped strides, and the bytes between samples left untouched.
@Suite struct PCMDirectKernelsPlanarFloatTests {
    static let layouts = PCMDirectKernelsTests.layouts

    static func strides(_ size: Int) -> [Int] { [size, 2 * size, 2 * size + 1, 6 * size] }

    static func sameFloat(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    @Test func decodeEqualsTheDoublePathRoundedToFloat() {
        let count = 4096
        for (kind, layout) in Self.layouts {
            for stride in Self.strides(layout.containerBytes) {
                let src = PCMDirectKernelsTests.source(layout, count: count, stride: stride)
                var direct = [Float](repeating: 7, count: count + 1)
                var doubles = [Double](repeating: 0, count: count)
                src.withUnsafeBytes { s in
                    direct.withUnsafeMutableBufferPointer { PCMDirectKernels.decode(s.baseAddress!, sourceStride: stride, from: kind, into: $0.baseAddress!, count: count) }
                    doubles.withUnsafeMutableBufferPointer { PCMSampleCodec.decode(s.baseAddress!, strideBytes: stride, count: count, layout: layout, into: $0.baseAddress!) }
                }
                let mismatches = (0..<count).filter { !Self.sameFloat(direct[$0], Float(doubles[$0])) }.count
                #expect(mismatches == 0, "\(kind), stride \(stride): \(mismatches) samples differ")
                #expect(direct[count] == 7, "\(kind), stride \(stride): wrote past the end")
            }
        }
        // The last Int24 of a buffer is read without touching the byte after it (the 4-byte loads stop before it).
        let bytes: [UInt8] = [0x01, 0x00, 0x80, 0xFF, 0xFF, 0x7F]
        var out: [Float] = [0, 0]
        bytes.withUnsafeBytes { s in out.withUnsafeMutableBufferPointer { PCMDirectKernels.decode(s.baseAddress!, sourceStride: 3, from: .int24, into: $0.baseAddress!, count: 2) } }
        #expect(out == [Float(-8_388_607) / 8_388_608, Float(8_388_607) / 8_388_608])
    }

    /// Floats that probe every encoder's edges: full scale and one step past it either way, far past it, half-LSB
    /// ties of each integer width (ties go to even), the signed zeros, NaN, infinities, subnormals, the largest Float.
    static func encodeSource(count: Int) -> [Float] {
        var specials: [Float] = [0, -0.0, 1, -1, (1 as Float).nextUp, (-1 as Float).nextDown, (1 as Float).nextDown, 2, -2, 1e30, -1e30, .nan, -Float.nan,
                                 .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude,
                                 -.greatestFiniteMagnitude]
        for bits in [16, 24, 32] {
            let lsb = Float(sign: .plus, exponent: -(bits - 1), significand: 1)
            for k in [0, 1, 2, 3, -1, -2, -3] { specials.append((Float(k) + 0.5) * lsb) }
            // One LSB either side of full scale, and full scale minus half an LSB (a tie between the top code and clipping).
            specials += [1 - lsb, -1 + lsb, 1 - lsb / 2, -1 - lsb / 2, -1 + lsb / 2]
        }
        var x: UInt64 = 0x0F1E_2D3C_4B5A_6978
        var out = specials
        while out.count < count {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            let unit = Float(Double(Int64(bitPattern: x)) / Double(Int64.max))
            switch out.count % 3 {
            case 0: out.append(unit * 1.2)   // around full scale
            case 1: out.append((Float(Int16(truncatingIfNeeded: x >> 20)) + 0.5) / 32768)   // Int16 ties
            default: out.append(Float(bitPattern: UInt32(truncatingIfNeeded: x >> 7)))   // any bits at all
            }
        }
        return out
    }

    @Test func encodeEqualsTheDoublePath() {
        let count = 4096
        let source = Self.encodeSource(count: count)
        let widened = source.map { Double($0) }
        for (kind, layout) in Self.layouts {
            for stride in Self.strides(layout.containerBytes) {
                var direct = [UInt8](repeating: 0x5A, count: count * stride)
                var viaDouble = direct
                source.withUnsafeBufferPointer { s in
                    direct.withUnsafeMutableBytes { PCMDirectKernels.encode(s.baseAddress!, to: kind, $0.baseAddress!, destinationStride: stride, count: count) }
                }
                widened.withUnsafeBufferPointer { s in
                    viaDouble.withUnsafeMutableBytes {
                        PCMSampleCodec.encode(s.baseAddress!, count: count, layout: layout, into: $0.baseAddress!, strideBytes: stride, dither: nil)
                    }
                }
                var mismatches = 0
                for i in 0..<count {
                    let a = Array(direct[(i * stride)..<(i * stride + layout.containerBytes)])
                    let b = Array(viaDouble[(i * stride)..<(i * stride + layout.containerBytes)])
                    if a != b && !(layout.isFloat && PCMDirectKernelsTests.isNaN(a) && PCMDirectKernelsTests.isNaN(b)) { mismatches += 1 }
                }
                #expect(mismatches == 0, "\(kind), stride \(stride): \(mismatches) samples differ")
                let gapsUntouched = (0..<count).allSatisfy { i in direct[(i * stride + layout.containerBytes)..<((i + 1) * stride)].allSatisfy { $0 == 0x5A } }
                #expect(gapsUntouched, "\(kind), stride \(stride)")
            }
        }
    }

    /// Independent expectations for the edges, from integer arithmetic rather than the Double path.
    @Test func encodeEdgesAsIntegers() {
        func int16(_ f: Float) -> Int16 {
            var f = f, out: Int16 = 0x55
            PCMDirectKernels.encode(&f, to: .int16, &out, destinationStride: 2, count: 1)
            return out
        }
        func int32(_ f: Float) -> Int32 {
            var f = f, out: Int32 = 0x55
            PCMDirectKernels.encode(&f, to: .int32, &out, destinationStride: 4, count: 1)
            return out
        }
        func int24(_ f: Float) -> Int32 {
            var f = f, out: (UInt8, UInt8, UInt8) = (0x55, 0x55, 0x55)
            PCMDirectKernels.encode(&f, to: .int24, &out, destinationStride: 3, count: 1)
            return ((Int32(out.0) | Int32(out.1) << 8 | Int32(out.2) << 16) << 8) >> 8
        }
        #expect([int16(1), int16(-1), int16(2), int16(-.infinity), int16(.nan)] == [32767, -32768, 32767, -32768, 0])
        #expect([int16(0.5 / 32768), int16(1.5 / 32768), int16(2.5 / 32768), int16(-0.5 / 32768), int16(-1.5 / 32768)] == [0, 2, 2, 0, -2])
        #expect([int24(1), int24(-1), int24(1e30), int24(.nan), int24(1.5 / 8_388_608), int24(-2.5 / 8_388_608)] == [8_388_607, -8_388_608, 8_388_607, 0, 2, -2])
        #expect([int32(1), int32(-1), int32((1 as Float).nextDown), int32(.infinity), int32(.nan), int32(-0.0)]
                == [.max, .min, 2_147_483_520, .max, 0, 0])
        #expect([int32(0.5 / 2_147_483_648), int32(1.5 / 2_147_483_648), int32(-2.5 / 2_147_483_648)] == [0, 2, -2])
    }
}
