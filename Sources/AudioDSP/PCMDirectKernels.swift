/// Direct conversions between the common packed little-endian sample layouts (Int16, Int24, Int32, Float32, Float64),
/// for a converter whose channels pass straight through at one rate: no intermediate buffer, no per-sample layout
/// dispatch (aligned contiguous Int16 <-> Float32 runs in Float arithmetic, which vectorises; widening integers by a
/// shift; every other pair through one Double per sample, specialised per pair). Every result is bit-identical to PCMSampleCodec's decode to Double
/// then encode without dither (integer to float scaling by a power of two is exact in either width; rounding is to
/// nearest, ties to even, with the same clipping; NaN encodes as 0). Safe on the render thread.
public enum PCMDirectKernels {
    /// A layout the kernels handle.
    public enum Kind: Sendable, Equatable {
        case int16, int24, int32, float32, float64
    }

    /// The kind of `layout`, or nil when the kernels do not handle it (big-endian, unpacked, fixed point, unsigned).
    public static func kind(_ layout: PCMSampleLayout) -> Kind? {
        guard !layout.isBigEndian, layout.fractionBits == 0, layout.validBits == 8 * layout.containerBytes else { return nil }
        if layout.isFloat { return layout.containerBytes == 4 ? .float32 : layout.containerBytes == 8 ? .float64 : nil }
        guard layout.isSigned else { return nil }
        switch layout.containerBytes {
        case 2: return .int16
        case 3: return .int24
        case 4: return .int32
        default: return nil
        }
    }

    /// Converts `count` samples, `sourceStride` bytes apart, into samples `destinationStride` bytes apart (any pair
    /// of kinds).
    public static func convert(_ source: UnsafeRawPointer, sourceStride: Int, from: Kind,
                               _ destination: UnsafeMutableRawPointer, destinationStride: Int, to: Kind, count: Int) {
        switch (from, to) {
        case (.int16, .float32) where sourceStride == 2 && destinationStride == 4 && Int(bitPattern: source) & 1 == 0 && Int(bitPattern: destination) & 3 == 0:
            // Contiguous and aligned (an interleaved buffer converted whole): typed pointers, which the compiler vectorises.
            let s = source.assumingMemoryBound(to: Int16.self), d = destination.assumingMemoryBound(to: Float.self)
            for i in 0..<count { d[i] = Float(s[i]) * (1 / 32768) }
        case (.float32, .int16) where sourceStride == 4 && destinationStride == 2 && Int(bitPattern: source) & 3 == 0 && Int(bitPattern: destination) & 1 == 0:
            let s = source.assumingMemoryBound(to: Float.self), d = destination.assumingMemoryBound(to: Int16.self)
            for i in 0..<count {
                let x = s[i] * 32768
                d[i] = x.isNaN ? 0 : x >= 32767 ? .max : x <= -32768 ? .min : Int16(x.rounded(.toNearestOrEven))
            }
        // Widening integers: a shift, exact (the Double path's scaling is exact too and never rounds or clips).
        case (.int16, .int24):
            for i in 0..<count { storeInt24(Int32(loadInt16(source + i * sourceStride)) << 8, destination + i * destinationStride) }
        case (.int16, .int32):
            for i in 0..<count { (destination + i * destinationStride).storeBytes(of: Int32(loadInt16(source + i * sourceStride)) << 16, as: Int32.self) }
        case (.int24, .int32):
            for i in 0..<count { (destination + i * destinationStride).storeBytes(of: loadInt24(source + i * sourceStride) << 8, as: Int32.self) }
        default:
            func pick<S: DirectSample>(_: S.Type) {
                switch to {
                case .int16: run(S.self, Int16Sample.self)
                case .int24: run(S.self, Int24Sample.self)
                case .int32: run(S.self, Int32Sample.self)
                case .float32: run(S.self, Float32Sample.self)
                case .float64: run(S.self, Float64Sample.self)
                }
            }
            func run<S: DirectSample, D: DirectSample>(_: S.Type, _: D.Type) {
                for i in 0..<count { D.store(S.load(source + i * sourceStride), destination + i * destinationStride) }
            }
            switch from {
            case .int16: pick(Int16Sample.self)
            case .int24: pick(Int24Sample.self)
            case .int32: pick(Int32Sample.self)
            case .float32: pick(Float32Sample.self)
            case .float64: pick(Float64Sample.self)
            }
        }
    }
}

extension PCMDirectKernels {
    /// Whether `layout` is a signed little-endian integer of fewer than 32 valid bits in the low part of a 4-byte
    /// container: the form the lossless encoders take their samples in (CodecPCMFormat.int32).
    public static func isLowAlignedInt32(_ layout: PCMSampleLayout) -> Bool {
        !layout.isFloat && layout.isSigned && !layout.isBigEndian && !layout.isAlignedHigh && layout.fractionBits == 0
            && layout.containerBytes == 4 && layout.validBits < 32 && layout.validBits >= 8
    }

    /// Widens `count` integer samples (`from` .int16, .int24 or .int32, no wider than `validBits`), `sourceStride`
    /// bytes apart, into a low-aligned Int32 container of `validBits` valid bits, `destinationStride` bytes apart:
    /// the sample shifted up by the difference in width and masked to `validBits` (the bits above are zero), which is
    /// what PCMSampleCodec's Double path writes (the scaling is exact, so it never rounds or clips). False when the
    /// pair is not such a widening (the caller takes the Double path). Safe on the render thread.
    public static func widenToLowAlignedInt32(_ source: UnsafeRawPointer, sourceStride: Int, from: Kind,
                                              _ destination: UnsafeMutableRawPointer, destinationStride: Int, validBits: Int,
                                              count: Int) -> Bool {
        let sourceBits: Int
        switch from {
        case .int16: sourceBits = 16
        case .int24: sourceBits = 24
        default: return false
        }
        guard validBits >= sourceBits, validBits < 32 else { return false }
        let shift = Int32(validBits - sourceBits), mask = Int32(bitPattern: (UInt32(1) << UInt32(validBits)) &- 1)
        if from == .int16, sourceStride == 2, destinationStride == 4, Int(bitPattern: source) & 1 == 0, Int(bitPattern: destination) & 3 == 0 {
            // Contiguous and aligned (an interleaved buffer converted whole): typed pointers, which the compiler vectorises.
            let s = source.assumingMemoryBound(to: Int16.self), d = destination.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { d[i] = (Int32(s[i]) &<< shift) & mask }
            return true
        }
        for i in 0..<count {
            let v = from == .int16 ? Int32(loadInt16(source + i * sourceStride)) : loadInt24(source + i * sourceStride)
            (destination + i * destinationStride).storeBytes(of: (v &<< shift) & mask, as: Int32.self)
        }
        return true
    }
}

@inline(__always) private func loadInt16(_ p: UnsafeRawPointer) -> Int16 { p.loadUnaligned(as: Int16.self) }

/// A little-endian 24-bit sample, sign-extended (also used by the planar Float kernels).
@inline(__always) func loadInt24(_ p: UnsafeRawPointer) -> Int32 {
    Int32(p.load(as: UInt8.self)) | Int32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8 | Int32(p.load(fromByteOffset: 2, as: Int8.self)) << 16
}

/// The low 24 bits of `v`, little-endian (also used by the planar Float kernels).
@inline(__always) func storeInt24(_ v: Int32, _ p: UnsafeMutableRawPointer) {
    p.storeBytes(of: UInt16(truncatingIfNeeded: v), as: UInt16.self)
    p.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 2, as: UInt8.self)
}

/// One packed little-endian layout read as a Double in [-1, 1) and written back from one (rounded to nearest, ties to
/// even, clipped; NaN as 0), as PCMSampleCodec does.
protocol DirectSample {
    static func load(_ p: UnsafeRawPointer) -> Double
    static func store(_ x: Double, _ p: UnsafeMutableRawPointer)
}

extension DirectSample {
    /// `x` scaled by 2^(bits - 1), rounded and clipped to a signed integer of `bits`.
    @inline(__always) static func integer(_ x: Double, bits: Int) -> Int64 {
        let scaled = x * Double(sign: .plus, exponent: bits - 1, significand: 1)
        let top = Double((Int64(1) << (bits - 1)) - 1), bottom = -Double(Int64(1) << (bits - 1))
        return scaled.isNaN ? 0 : Int64(min(max(scaled.rounded(.toNearestOrEven), bottom), top))
    }
}

enum Int16Sample: DirectSample {
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> Double { Double(p.loadUnaligned(as: Int16.self)) / 32768 }
    @inline(__always) static func store(_ x: Double, _ p: UnsafeMutableRawPointer) { p.storeBytes(of: Int16(integer(x, bits: 16)), as: Int16.self) }
}

enum Int24Sample: DirectSample {
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> Double {
        Double(Int32(p.load(as: UInt8.self)) | Int32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8 | Int32(p.load(fromByteOffset: 2, as: Int8.self)) << 16)
            / 8_388_608
    }
    @inline(__always) static func store(_ x: Double, _ p: UnsafeMutableRawPointer) {
        let v = integer(x, bits: 24)
        p.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: v >> 8), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 2, as: UInt8.self)
    }
}

enum Int32Sample: DirectSample {
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> Double { Double(p.loadUnaligned(as: Int32.self)) / 2_147_483_648 }
    @inline(__always) static func store(_ x: Double, _ p: UnsafeMutableRawPointer) { p.storeBytes(of: Int32(integer(x, bits: 32)), as: Int32.self) }
}

enum Float32Sample: DirectSample {
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> Double { Double(p.loadUnaligned(as: Float.self)) }
    @inline(__always) static func store(_ x: Double, _ p: UnsafeMutableRawPointer) { p.storeBytes(of: Float(x), as: Float.self) }
}

enum Float64Sample: DirectSample {
    @inline(__always) static func load(_ p: UnsafeRawPointer) -> Double { p.loadUnaligned(as: Double.self) }
    @inline(__always) static func store(_ x: Double, _ p: UnsafeMutableRawPointer) { p.storeBytes(of: x, as: Double.self) }
}
