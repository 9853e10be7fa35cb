import Foundation
import Testing
@testable import AudioToolbox

/// The building blocks on their own: bit buffers, the Golomb coder, the predictor, and the element syntax.
@Suite struct ALACComponentTests {
    /// Random fields written and read back; reads past the end give zeros and report the overrun.
    @Test func bitWriterAndReaderAgree() {
        var random = ALACTestRandom(seed: 11)
        var fields = [(UInt32, Int)]()
        for _ in 0..<5000 {
            let bits = random.below(33)
            let value = bits == 0 ? 0 : random.next() >> UInt32(32 - bits)
            fields.append((value, bits))
        }
        let capacity = fields.reduce(0) { $0 + $1.1 } / 8 + 1
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { storage.deallocate() }
        var writer = ALACBitBuffer.Writer(storage, capacity: capacity)
        for (value, bits) in fields { writer.write(value | (bits < 32 ? ~0 << UInt32(bits) : 0), bits) } // high garbage is masked
        let total = writer.position
        let size = writer.finish()
        #expect(!writer.overflowed && size == (total + 7) / 8)
        var reader = ALACBitBuffer.Reader(UnsafeRawBufferPointer(start: storage, count: size))
        for (value, bits) in fields { #expect(reader.read(bits) == value) }
        #expect(!reader.isOverrun)
        // Past the end: zeros, and the overrun is reported.
        reader.position = size * 8 - 3
        #expect(reader.read(32) & 0x1FFF_FFFF == 0)
        #expect(reader.isOverrun)
        let skipped = reader.skip(1 << 40)
        #expect(!skipped)
        // A writer with too little room drops the excess and says so.
        var small = ALACBitBuffer.Writer(storage, capacity: 3)
        for _ in 0..<10 { small.write(0xFFFF_FFFF, 32) }
        _ = small.finish()
        #expect(small.overflowed)
        // An empty reader is usable.
        var empty = ALACBitBuffer.Reader(UnsafeRawBufferPointer(start: nil, count: 0))
        let value = empty.read(17)
        #expect(value == 0 && empty.isOverrun)
    }

    /// Residuals of every kind (runs of zeros, extremes, escapes) survive the coder, and bitCount matches.
    @Test(arguments: [(16, 40, 14), (17, 40, 14), (24, 40, 14), (32, 40, 14), (16, 0, 14), (16, 70, 14), (16, 40, 1), (16, 40, 5), (20, 127, 31)])
    func golombRoundTrip(sampleBits: Int, pb: Int, kb: Int) {
        var random = ALACTestRandom(seed: UInt64(sampleBits * 1000 + pb * 10 + kb))
        let count = 20000
        let limit = Int64(1) << (sampleBits - 1)
        var residuals = [Int32]()
        while residuals.count < count {
            switch random.below(5) {
            case 0: residuals += [Int32](repeating: 0, count: random.below(random.below(2) == 0 ? 20 : 70000))
            // -2^31 is the one value the coder cannot carry at 32 bits (the reference's n + 1 wraps); no
            // encoder produces 32-bit residuals (Apple's shifts 32-bit audio to 17 bits).
            case 1: residuals.append(Int32(truncatingIfNeeded: random.below(2) == 0 ? limit - 1 : -limit + (sampleBits == 32 ? 1 : 0)))
            case 2: residuals.append(Int32(random.below(65) - 32))
            default:
                let magnitude = Int64(random.next()) % limit
                residuals.append(Int32(truncatingIfNeeded: random.below(2) == 0 ? magnitude : -magnitude))
            }
        }
        residuals = Array(residuals.prefix(count))
        let capacity = count * 8 + 64
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { storage.deallocate() }
        var writer = ALACBitBuffer.Writer(storage, capacity: capacity)
        residuals.withUnsafeBufferPointer {
            ALACAdaptiveGolomb.encode($0.baseAddress!, count: count, sampleBits: sampleBits, pb: UInt32(pb), mb: 10, kb: UInt32(kb), into: &writer)
        }
        let bits = writer.position
        #expect(residuals.withUnsafeBufferPointer {
            ALACAdaptiveGolomb.bitCount($0.baseAddress!, count: count, sampleBits: sampleBits, pb: UInt32(pb), mb: 10, kb: UInt32(kb))
        } == bits)
        let size = writer.finish()
        var decoded = [Int32](repeating: 1, count: count)
        var reader = ALACBitBuffer.Reader(UnsafeRawBufferPointer(start: storage, count: size))
        let ok = decoded.withUnsafeMutableBufferPointer {
            ALACAdaptiveGolomb.decode(&reader, into: $0.baseAddress!, count: count, sampleBits: sampleBits, pb: UInt32(pb), mb: 10, kb: UInt32(kb))
        }
        #expect(ok)
        #expect(reader.position == bits)
        #expect(decoded == residuals)
    }

    /// The unrolled kernels (orders 4...8) and the general loop agree, encoding and decoding invert each other
    /// for every order 1...31, and the coefficients end the same on both sides.
    @Test(arguments: [16, 17, 24, 32])
    func predictorKernelsAgree(sampleBits: Int) {
        var random = ALACTestRandom(seed: UInt64(sampleBits))
        let count = 3000
        let shift = Int32(32 - sampleBits)
        var samples = [Int32](repeating: 0, count: count)
        var phase = 0.0
        for i in 0..<count {
            phase += 0.05 + Double(i % 700) / 20000
            let tone = Int32((sin(phase) * 0.8 * Double(Int32.max)).rounded()) // full scale, then narrowed
            let noise = Int32(bitPattern: random.next()) >> 6
            samples[i] = i % 997 < 3 ? Int32(bitPattern: random.next()) : (tone &+ noise)
            samples[i] = (samples[i] &<< shift) &>> shift
        }
        for order in 1...31 {
            for denShift in [1, 9, 15] {
                let initial = (0..<32).map { _ in Int16(truncatingIfNeeded: random.next() >> 20) - 2048 }
                var coefsA = initial, coefsB = initial, coefsC = initial, coefsD = initial
                var residualsA = [Int32](repeating: 0, count: count), residualsB = residualsA
                var outC = [Int32](repeating: 0, count: count), outD = outC
                ALACPredictor.encode(samples, into: &residualsA, count: count, coefs: &coefsA, order: order, sampleBits: sampleBits, denShift: denShift)
                ALACPredictor.encode(samples, into: &residualsB, count: count, coefs: &coefsB, order: order, sampleBits: sampleBits,
                                     denShift: denShift, unrolled: false)
                #expect(residualsA == residualsB && coefsA == coefsB, "encode order \(order) shift \(denShift)")
                ALACPredictor.decode(residualsA, into: &outC, count: count, coefs: &coefsC, order: order, sampleBits: sampleBits, denShift: denShift)
                ALACPredictor.decode(residualsA, into: &outD, count: count, coefs: &coefsD, order: order, sampleBits: sampleBits,
                                     denShift: denShift, unrolled: false)
                #expect(outC == samples && outD == samples, "decode order \(order) shift \(denShift)")
                #expect(coefsC == coefsA && coefsD == coefsA)
            }
        }
    }

    /// Fill, data-stream and LFE elements, as Apple's decoder takes them.
    @Test func fillDataStreamAndLFEElements() throws {
        let pcm = ALACRoundTripTests.signal(frames: 1000, channels: 1, bits: 16)
        let (config, packets) = try ALACTestSupport.encodeAll(pcm)
        let original = packets[0]
        /// The packet with `fields` written before its first element.
        func prefixed(_ fields: [(UInt32, Int)]) -> [UInt8] {
            let storage = UnsafeMutableRawPointer.allocate(byteCount: original.count + 1024, alignment: 8)
            defer { storage.deallocate() }
            var writer = ALACBitBuffer.Writer(storage, capacity: original.count + 1024)
            for (value, bits) in fields { writer.write(value, bits) }
            for byte in original { writer.write(UInt32(byte), 8) }
            let size = writer.finish()
            return Array(UnsafeRawBufferPointer(start: storage, count: size))
        }
        let fill: [(UInt32, Int)] = [(6, 3), (3, 4), (0xA5, 8), (0xA5, 8), (0xA5, 8)]
        let longFill: [(UInt32, Int)] = [(6, 3), (15, 4), (3, 8)] + Array(repeating: (0xA5, 8), count: 17) // 15 + 3 - 1 bytes
        let stream: [(UInt32, Int)] = [(4, 3), (0, 4), (0, 1), (2, 8), (0x5A, 8), (0x5A, 8)]
        // An empty fill first puts the data-stream element off a byte boundary, so its align flag skips a bit.
        let alignedStream: [(UInt32, Int)] = [(6, 3), (0, 4), (4, 3), (0, 4), (1, 1), (255, 8), (1, 8), (0, 1)]
            + Array(repeating: (0x5A, 8), count: 256)
        for fields in [fill, longFill, stream, alignedStream, fill + stream + longFill] {
            #expect(try ALACTestSupport.decodeAll(config: config, packets: [prefixed(fields)]) == pcm.samples)
        }
        // An LFE element decodes like an SCE.
        var lfe = original
        lfe[0] = (lfe[0] & 0x1F) | 0x60
        #expect(try ALACTestSupport.decodeAll(config: config, packets: [lfe]) == pcm.samples)
    }
}
