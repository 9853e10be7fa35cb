import Foundation

/// BS.1770-4 annex 2's true-peak meter for one channel: the signal oversampled (4x below 96 kHz, 2x below 192 kHz)
/// by a Hann-windowed sinc interpolator of 49 taps, whose phase 0 passes the input samples through, and the largest
/// absolute value of the result.
public struct TruePeakDetector {
    /// The oversampling factor for the rate.
    public let factor: Int
    /// Taps per phase (phase-major: phase p's taps are `coefficients[p * length ..< (p + 1) * length]`).
    private let length: Int
    private let coefficients: [Double]
    /// The last `length` inputs, newest first, twice over so a window is always contiguous.
    private var history: [Double]
    private var position = 0
    /// The largest absolute value seen.
    public private(set) var peak = 0.0

    /// A detector for `sampleRate`.
    public init(sampleRate: Double) {
        factor = sampleRate < 96000 ? 4 : sampleRate < 192000 ? 2 : 1
        let taps = 49
        length = (taps + factor - 1) / factor
        var c = [Double](repeating: 0, count: factor * length)
        let middle = Double(taps - 1) / 2
        for n in 0..<taps {
            let m = (Double(n) - middle) / Double(factor)
            let sinc = m == 0 ? 1 : sin(Double.pi * m) / (Double.pi * m)
            let window = 0.5 * (1 - cos(2 * Double.pi * Double(n) / Double(taps - 1)))
            c[(n % factor) * length + n / factor] = sinc * window
        }
        coefficients = c
        history = [Double](repeating: 0, count: 2 * length)
    }

    /// Feeds one sample.
    @inline(__always) public mutating func process(_ x: Double) {
        position = position == 0 ? length - 1 : position - 1
        history[position] = x
        history[position + length] = x
        for p in 0..<factor {
            var y = 0.0
            for k in 0..<length { y += coefficients[p * length + k] * history[position + k] }
            peak = max(peak, abs(y))
        }
    }
}
