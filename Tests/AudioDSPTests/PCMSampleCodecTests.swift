@testable import AudioDSP
import Testing

@Suite struct PCMSampleCodecTests {
    static func layout(_ bits: Int, _ bytes: Int, float: Bool = false, signed: Bool = true, big: Bool = false,
                       high: Bool = false, fraction: Int = 0) -> PCMSampleLayout {
        PCMSampleLayout(validBits: bits, containerBytes: bytes, isFloat: float, isSigned: signed, isBigEndian: big,
                        isAlignedHigh: high, fractionBits: fraction)
    }

    func encode(_ values: [Double], _ layout: PCMSampleLayout) -> [UInt8] {
        var out = [UInt8](repeating: 0xAA, count: values.count * layout.containerBytes)
        values.withUnsafeBufferPointer { v in
            out.withUnsafeMutableBytes { o in
                PCMSampleCodec.encode(v.baseAddress!, count: values.count, layout: layout, into: o.baseAddress!,
                                      strideBytes: layout.containerBytes, dither: nil)
            }
        }
        return out
    }

    func decode(_ bytes: [UInt8], _ layout: PCMSampleLayout) -> [Double] {
        let n = bytes.count / layout.containerBytes
        var out = [Double](repeating: .nan, count: n)
        bytes.withUnsafeBytes { b in
            out.withUnsafeMutableBufferPointer { o in
                PCMSampleCodec.decode(b.baseAddress!, strideBytes: layout.containerBytes, count: n, layout: layout, into: o.baseAddress!)
            }
        }
        return out
    }

    @Test func knownBytePatterns() {
        // Independently written expectations: little-endian two's complement, scaled by 2^(N-1).
        #expect(encode([0.5, -1], Self.layout(16, 2)) == [0x00, 0x40, 0x00, 0x80])
        #expect(encode([0.5], Self.layout(16, 2, big: true)) == [0x40, 0x00])
        #expect(encode([-1.0 / 8_388_608], Self.layout(24, 3)) == [0xFF, 0xFF, 0xFF])
        #expect(encode([1.0 / 8_388_608], Self.layout(24, 4, high: true)) == [0x00, 0x01, 0x00, 0x00])
        #expect(encode([1.0 / 8_388_608], Self.layout(24, 4, high: false)) == [0x01, 0x00, 0x00, 0x00])
        #expect(encode([-1.0 / 8_388_608], Self.layout(24, 4, high: false)) == [0xFF, 0xFF, 0xFF, 0x00])
        #expect(encode([0, -1, 0.5], Self.layout(8, 1, signed: false)) == [0x80, 0x00, 0xC0])
        #expect(encode([1.0], Self.layout(32, 4, fraction: 24)) == [0x00, 0x00, 0x00, 0x01])  // 8.24: 1.0 = 2^24
        #expect(encode([1.0], Self.layout(32, 4, float: true, big: true)) == [0x3F, 0x80, 0x00, 0x00])
        #expect(encode([-2.0], Self.layout(64, 8, float: true)) == [0, 0, 0, 0, 0, 0, 0, 0xC0])
        #expect(decode([0x00, 0x80, 0xFF, 0x7F], Self.layout(16, 2)) == [-1, 32767.0 / 32768])
        #expect(decode([0xFF, 0xFF, 0x7F], Self.layout(24, 3, big: true)) == [-129.0 / 8_388_608])
        #expect(decode([0x00, 0xFF], Self.layout(8, 1, signed: false)) == [-1, 127.0 / 128])
    }

    @Test func roundsToNearestAndClips() {
        let l = Self.layout(16, 2)
        let lsb = 1.0 / 32768
        let values = [1.5, -1.5, 0.5 * lsb, 1.5 * lsb, 2.5 * lsb, -0.5 * lsb, .infinity, -.infinity, .nan]
        #expect(decode(encode(values, l), l).map { Int($0 * 32768) } == [32767, -32768, 0, 2, 2, 0, 32767, -32768, 0])
    }

    @Test func everyLayoutRoundTripsItsOwnValues() {
        let layouts = [Self.layout(8, 1), Self.layout(8, 1, signed: false), Self.layout(16, 2), Self.layout(16, 2, big: true),
                       Self.layout(24, 3), Self.layout(24, 3, big: true), Self.layout(24, 4, high: true), Self.layout(24, 4),
                       Self.layout(24, 4, big: true, high: true), Self.layout(32, 4), Self.layout(32, 4, big: true),
                       Self.layout(32, 4, fraction: 24), Self.layout(32, 4, float: true), Self.layout(32, 4, float: true, big: true),
                       Self.layout(64, 8, float: true), Self.layout(64, 8, float: true, big: true)]
        for l in layouts {
            // Values on the layout's grid, including both extremes.
            let steps = l.isFloat ? 1 << 20 : 1 << min(l.validBits - 1, 20)
            let scale = l.fractionBits > 0 ? 128.0 : 1.0
            let values = stride(from: -steps, to: steps, by: max(1, steps / 997)).map { scale * Double($0) / Double(steps) }
            let back = decode(encode(values, l), l)
            #expect(back == values, "layout \(l)")
        }
    }

    @Test func tpdfDitherIsTriangularAndSmall() {
        var d = TPDFDither(seed: 42)
        var sum = 0.0, sumSquares = 0.0, minimum = 0.0, maximum = 0.0
        let n = 200_000
        for _ in 0..<n {
            let x = d.next()
            sum += x; sumSquares += x * x
            minimum = min(minimum, x); maximum = max(maximum, x)
        }
        // Triangular on (-1, 1): mean 0, variance 1/6.
        #expect(abs(sum / Double(n)) < 0.01)
        #expect(abs(sumSquares / Double(n) - 1.0 / 6) < 0.005)
        #expect(minimum > -1 && maximum < 1)
    }
}
