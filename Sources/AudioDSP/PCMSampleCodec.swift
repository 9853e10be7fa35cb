/// Linear PCM sample layouts and the kernels that decode them to Double and encode them back.
/// Plain functions over buffers; safe on the render thread (no allocation).
///
/// Scaling follows Core Audio: an N-bit signed integer x is x / 2^(N-1) (so full scale is [-1, 1));
/// unsigned integers are offset by 2^(N-1); fixed point with F fraction bits (8.24) is x / 2^F.
/// Encoding rounds to nearest (ties to even) and clips to the representable range.
public struct PCMSampleLayout: Sendable, Equatable {
    /// Bits that carry the sample (mBitsPerChannel).
    public var validBits: Int
    /// Bytes each sample occupies in memory (1 to 8).
    public var containerBytes: Int
    public var isFloat: Bool
    public var isSigned: Bool
    public var isBigEndian: Bool
    /// For integers narrower than their container: valid bits in the high part (else the low part).
    public var isAlignedHigh: Bool
    /// Fixed-point fraction bits (24 for 8.24), 0 for plain integers.
    public var fractionBits: Int

    /// A sample layout: valid bits in a container of `containerBytes`, float or integer, signedness, byte order, high or low alignment and fixed-point fraction bits.
    public init(validBits: Int, containerBytes: Int, isFloat: Bool, isSigned: Bool, isBigEndian: Bool,
                isAlignedHigh: Bool, fractionBits: Int) {
        self.validBits = validBits
        self.containerBytes = containerBytes
        self.isFloat = isFloat
        self.isSigned = isSigned
        self.isBigEndian = isBigEndian
        self.isAlignedHigh = isAlignedHigh
        self.fractionBits = fractionBits
    }

    /// Whether a value survives a trip through this layout unchanged when it came from `other`
    /// (this layout represents every value of `other` exactly).
    public func representsExactly(_ other: PCMSampleLayout) -> Bool {
        if isFloat {
            let mantissa = containerBytes == 8 ? 53 : 24
            return other.isFloat ? other.containerBytes <= containerBytes : other.validBits <= mantissa
        }
        return !other.isFloat && other.validBits <= validBits && other.fractionBits == fractionBits
            && other.isSigned == isSigned
    }

    static let nativeFloat32 = PCMSampleLayout(validBits: 32, containerBytes: 4, isFloat: true, isSigned: true,
                                               isBigEndian: false, isAlignedHigh: false, fractionBits: 0)
    static let nativeInt16 = PCMSampleLayout(validBits: 16, containerBytes: 2, isFloat: false, isSigned: true,
                                             isBigEndian: false, isAlignedHigh: false, fractionBits: 0)
}

/// TPDF dither: the sum of two independent uniform values of ±½ LSB each, from a xorshift generator.
public struct TPDFDither: Sendable {
    @usableFromInline var state: UInt64

    /// A generator seeded with `seed` (0 is taken as 1).
    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { state = seed == 0 ? 1 : seed }

    @inlinable mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) * (1.0 / 9_007_199_254_740_992.0) - 0.5
    }

    /// Noise in LSB units, triangular on (-1, 1).
    @inlinable public mutating func next() -> Double { uniform() + uniform() }
}

public enum PCMSampleCodec {
    /// Decodes `count` samples, `strideBytes` apart, into `destination` (consecutive Doubles).
    public static func decode(_ source: UnsafeRawPointer, strideBytes: Int, count: Int, layout: PCMSampleLayout,
                              into destination: UnsafeMutablePointer<Double>) {
        if layout == .nativeFloat32 {
            for i in 0..<count { destination[i] = Double(source.loadUnaligned(fromByteOffset: i * strideBytes, as: Float32.self)) }
            return
        }
        if layout == .nativeInt16 {
            for i in 0..<count { destination[i] = Double(source.loadUnaligned(fromByteOffset: i * strideBytes, as: Int16.self)) / 32768 }
            return
        }
        let c = layout.containerBytes
        let scale = 1.0 / Double(sign: .plus, exponent: layout.fractionBits > 0 ? layout.fractionBits : layout.validBits - 1,
                                 significand: 1)
        for i in 0..<count {
            let raw = readRaw(source + i * strideBytes, bytes: c, bigEndian: layout.isBigEndian)
            if layout.isFloat {
                destination[i] = c == 8 ? Double(bitPattern: raw) : Double(Float32(bitPattern: UInt32(truncatingIfNeeded: raw)))
                continue
            }
            destination[i] = Double(integerValue(raw, layout)) * scale
        }
    }

    /// Encodes `count` Doubles into samples `strideBytes` apart. Integers are rounded (after adding
    /// TPDF noise of ±1 LSB when `dither` is given) and clipped. NaN encodes as 0.
    public static func encode(_ source: UnsafePointer<Double>, count: Int, layout: PCMSampleLayout,
                              into destination: UnsafeMutableRawPointer, strideBytes: Int, dither: UnsafeMutablePointer<TPDFDither>?) {
        if layout == .nativeFloat32 {
            for i in 0..<count { destination.storeBytes(of: Float32(source[i]), toByteOffset: i * strideBytes, as: Float32.self) }
            return
        }
        let c = layout.containerBytes
        if layout.isFloat {
            for i in 0..<count {
                let raw = c == 8 ? source[i].bitPattern : UInt64(Float32(source[i]).bitPattern)
                writeRaw(raw, destination + i * strideBytes, bytes: c, bigEndian: layout.isBigEndian)
            }
            return
        }
        let n = layout.validBits
        let scale = Double(sign: .plus, exponent: layout.fractionBits > 0 ? layout.fractionBits : n - 1, significand: 1)
        let maxValue = Double((Int64(1) << (n - 1)) - 1), minValue = -Double(Int64(1) << (n - 1))
        for i in 0..<count {
            var x = source[i] * scale
            if let dither { x += dither.pointee.next() }
            let clipped = x.isNaN ? 0 : min(max(x.rounded(.toNearestOrEven), minValue), maxValue)
            var v = UInt64(bitPattern: Int64(clipped))
            if !layout.isSigned { v = v &+ (UInt64(1) << (n - 1)) }
            v &= n == 64 ? ~0 : (UInt64(1) << n) - 1
            if layout.isAlignedHigh && n < 8 * c { v <<= UInt64(8 * c - n) }
            writeRaw(v, destination + i * strideBytes, bytes: c, bigEndian: layout.isBigEndian)
        }
    }

    @inline(__always)
    static func integerValue(_ raw: UInt64, _ layout: PCMSampleLayout) -> Int64 {
        let n = layout.validBits, containerBits = 8 * layout.containerBytes
        // Bring the valid bits to the top of 64 bits, then shift back down with sign (or zero) fill.
        let top = layout.isAlignedHigh || n == containerBits ? raw << UInt64(64 - containerBits) : raw << UInt64(64 - n)
        if layout.isSigned { return Int64(bitPattern: top) >> Int64(64 - n) }
        return Int64(bitPattern: top >> UInt64(64 - n)) - (Int64(1) << (n - 1))
    }

    @inline(__always)
    static func readRaw(_ p: UnsafeRawPointer, bytes: Int, bigEndian: Bool) -> UInt64 {
        var v: UInt64 = 0
        if bigEndian {
            for b in 0..<bytes { v = v << 8 | UInt64(p.load(fromByteOffset: b, as: UInt8.self)) }
        } else {
            for b in (0..<bytes).reversed() { v = v << 8 | UInt64(p.load(fromByteOffset: b, as: UInt8.self)) }
        }
        return v
    }

    @inline(__always)
    static func writeRaw(_ value: UInt64, _ p: UnsafeMutableRawPointer, bytes: Int, bigEndian: Bool) {
        for b in 0..<bytes {
            let shift = bigEndian ? UInt64(8 * (bytes - 1 - b)) : UInt64(8 * b)
            p.storeBytes(of: UInt8(truncatingIfNeeded: value >> shift), toByteOffset: b, as: UInt8.self)
        }
    }
}
