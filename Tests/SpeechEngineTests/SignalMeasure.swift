import Foundation

/// Small signal measurements for the tests.
enum SignalMeasure {
    /// RMS level in dBFS (full scale = ±1.0); -inf for silence.
    static func rmsDBFS<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        guard !samples.isEmpty else { return -.infinity }
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(power)
    }

    /// Pearson correlation of two equally long signals.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let n = min(a.count, b.count)
        guard n > 1 else { return 0 }
        let meanA = a.prefix(n).reduce(0.0) { $0 + Double($1) } / Double(n)
        let meanB = b.prefix(n).reduce(0.0) { $0 + Double($1) } / Double(n)
        var ab = 0.0, aa = 0.0, bb = 0.0
        for i in 0..<n {
            let x = Double(a[i]) - meanA, y = Double(b[i]) - meanB
            ab += x * y; aa += x * x; bb += y * y
        }
        return ab / (aa * bb).squareRoot()
    }

    /// Pearson correlation of the two signals' loudness contours (RMS of 10 ms frames
    /// at 22 050 Hz), over the shorter signal. Insensitive to the small phase drift
    /// that makes espeak-ng's successive renderings of one text differ sample-wise.
    static func envelopeCorrelation(_ a: [Float], _ b: [Float], frame: Int = 220) -> Double {
        func envelope(_ x: [Float]) -> [Float] {
            stride(from: 0, to: x.count - frame + 1, by: frame).map { start in
                let window = x[start..<start + frame]
                return Float((window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame)).squareRoot())
            }
        }
        let n = min(a.count, b.count)
        return correlation(envelope(Array(a.prefix(n))), envelope(Array(b.prefix(n))))
    }

    /// Geometric-mean fundamental frequency of the voiced frames (YIN-style
    /// cumulative-mean-normalised difference, 30 ms frames, 45...350 Hz).
    static func meanF0(_ x: [Float], sampleRate: Double) -> Double? {
        let frame = Int(0.03 * sampleRate), hop = Int(0.005 * sampleRate)
        let minLag = Int(sampleRate / 350), maxLag = Int(sampleRate / 45)
        var logSum = 0.0, count = 0
        var start = 0
        while start + frame + maxLag < x.count {
            defer { start += hop }
            let window = x[start..<start + frame]
            guard rmsDBFS(window) > 20 * log10(0.03) else { continue }
            var difference = [Double](repeating: 0, count: maxLag)
            for lag in 1..<maxLag {
                var sum = 0.0
                for i in start..<start + frame {
                    let d = Double(x[i]) - Double(x[i + lag])
                    sum += d * d
                }
                difference[lag] = sum
            }
            var running = 0.0
            var normalised = [Double](repeating: 1, count: maxLag)
            for lag in 1..<maxLag {
                running += difference[lag]
                normalised[lag] = running > 0 ? difference[lag] * Double(lag) / running : 1
            }
            guard var lag = (minLag..<maxLag).first(where: { normalised[$0] < 0.2 }) else { continue }
            while lag + 1 < maxLag, normalised[lag + 1] < normalised[lag] { lag += 1 }
            logSum += log(sampleRate / Double(lag))
            count += 1
        }
        return count > 0 ? exp(logSum / Double(count)) : nil
    }
}
