/// Sample-format kernels between Float32, Float64 and integer PCM. Plain functions over buffers; safe on the
/// render thread.
public enum SampleConversion {
    /// Float32 to Int16 with rounding to nearest and clipping to [-32768, 32767].
    @inlinable public static func floatToInt16(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Int16>, count: Int) {
        for i in 0..<count {
            let scaled = (source[i] * 32768).rounded(.toNearestOrEven)
            destination[i] = Int16(max(-32768, min(32767, scaled)))
        }
    }

    /// Int16 to Float32 (exact: divides by 32768).
    @inlinable public static func int16ToFloat(_ source: UnsafePointer<Int16>, _ destination: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { destination[i] = Float(source[i]) / 32768 }
    }

    /// Float64 to Float32, each value rounded to the nearest Float (the converter's resampler input).
    @inlinable @_noLocks @_noAllocation
    public static func doubleToFloat(_ source: UnsafePointer<Double>, _ destination: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { destination[i] = Float(source[i]) }
    }

    /// Float32 to Float64 (exact).
    @inlinable @_noLocks @_noAllocation
    public static func floatToDouble(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Double>, count: Int) {
        for i in 0..<count { destination[i] = Double(source[i]) }
    }
}
