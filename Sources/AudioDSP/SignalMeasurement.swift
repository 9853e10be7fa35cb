import Foundation

/// Level and pitch measurements over sample buffers. Plain functions, no allocation.
public enum SignalMeasurement {
    /// The largest absolute sample value.
    @inlinable public static func peak(_ x: UnsafeBufferPointer<Float>) -> Float {
        var m: Float = 0
        for v in x { m = max(m, abs(v)) }
        return m
    }

    /// The largest absolute finite sample value, and whether an infinity or a NaN was among the samples (a mixer's
    /// clipping report: AudioUnitMeterClipping).
    @inlinable public static func peakAndNonFinite(_ x: UnsafeBufferPointer<Float>) -> (peak: Float, sawInfinity: Bool, sawNaN: Bool) {
        var m: Float = 0
        var infinity = false, nan = false
        for v in x {
            if v.isFinite {
                m = max(m, abs(v))
            } else if v.isNaN {
                nan = true
            } else {
                infinity = true
            }
        }
        return (m, infinity, nan)
    }

    /// A level as a meter shows it: 20·log10(`level`) dB, never below `floor` (silence and levels under it read `floor`).
    @inlinable public static func meterDecibels(_ level: Float, floor: Float) -> Float {
        level > 0 ? max(20 * log10f(level), floor) : floor
    }

    /// The sum of the squared samples, accumulated in Double (for means over several buffers).
    @inlinable public static func sumOfSquares(_ x: UnsafeBufferPointer<Float>) -> Double {
        var sum = 0.0
        for v in x { sum += Double(v) * Double(v) }
        return sum
    }

    /// Root mean square, accumulated in Double.
    @inlinable public static func rms(_ x: UnsafeBufferPointer<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        return (sumOfSquares(x) / Double(x.count)).squareRoot()
    }

    /// The frequency of a periodic signal, from the time between its first and last upward zero
    /// crossings (interpolated between samples). Nil if fewer than two crossings.
    public static func zeroCrossingFrequency(_ x: UnsafeBufferPointer<Float>, sampleRate: Double) -> Double? {
        var first: Double?
        var last: Double?
        var crossings = 0
        for i in 1..<max(x.count, 1) {
            let a = x[i - 1], b = x[i]
            if a < 0 && b >= 0 {
                let t = Double(i - 1) + Double(-a) / Double(b - a)
                if first == nil { first = t } else { crossings += 1 }
                last = t
            }
        }
        guard let first, let last, crossings > 0 else { return nil }
        return Double(crossings) * sampleRate / (last - first)
    }
}
