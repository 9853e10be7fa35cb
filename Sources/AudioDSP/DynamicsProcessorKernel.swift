#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A compressor/expander with Apple's AUDynamicsProcessor controls. There is no fixed ratio: above the threshold T
/// the output level approaches, and never exceeds, T + headroom H, along out = T + H·tanh((in − T)/H) (dB), so a
/// smaller headroom compresses harder; below the expansion threshold E the level falls `expansionRatio` times faster
/// (out = E + (in − E)·ratio). The level is a peak detector (stereo-linked) with the attack and release times as
/// one-pole time constants; the overall gain comes after. Meters: the gain applied (dB, ≤ 0 when compressing) and
/// the detected input and output levels (dB). All memory at init; `process` and the setters allocate nothing.
public final class DynamicsProcessorKernel {
    public let sampleRate: Double
    public private(set) var threshold = -20.0, headRoom = 5.0
    public private(set) var expansionRatio = 2.0, expansionThreshold = -100.0
    private var attack: Float = 0, release: Float = 0
    private var level: Float = 0                 // detected peak (linear)
    private var overall: Float = 1, targetOverall: Float = 1
    private let glide: Float
    /// The last block's gain in dB (the compression-amount meter), input and output levels in dB.
    public private(set) var gainDB: Float = 0, inputDB: Float = -120, outputDB: Float = -120

    /// A processor at `sampleRate`.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        glide = Float(1 - exp(-1 / (0.010 * sampleRate)))
        setAttack(0.001)
        setRelease(0.05)
    }

    /// The static curve: output level (dB) for a steady input level (dB).
    public static func staticCurve(inputDB x: Double, threshold t: Double, headRoom h: Double, expansionRatio r: Double,
                                   expansionThreshold e: Double) -> Double {
        if x > t { return t + h * tanh((x - t) / h) }
        if x < e { return e + (x - e) * r }
        return x
    }

    /// Clears the detector.
    public func reset() { level = 0 }
    /// Compression threshold, dB (-40...20).
    public func setThreshold(_ dB: Double) { threshold = min(max(dB, -40), 20) }
    /// Headroom above the threshold the output never exceeds, dB (0.1...40).
    public func setHeadRoom(_ dB: Double) { headRoom = min(max(dB, 0.1), 40) }
    /// Downward expansion below `threshold` (dB, -120...0) by `ratio` (1...50).
    public func setExpansion(ratio: Double, threshold dB: Double) {
        expansionRatio = min(max(ratio, 1), 50)
        expansionThreshold = min(max(dB, -120), 0)
    }
    /// Attack time, seconds (0.0001...0.2): the detector rises with this time constant.
    public func setAttack(_ seconds: Double) { attack = Float(1 - exp(-1 / (min(max(seconds, 0.0001), 0.2) * sampleRate))) }
    /// Release time, seconds (0.01...3).
    public func setRelease(_ seconds: Double) { release = Float(1 - exp(-1 / (min(max(seconds, 0.01), 3) * sampleRate))) }
    /// Gain after the dynamics, dB (-40...40).
    public func setOverallGain(_ dB: Double) { targetOverall = Float(pow(10, min(max(dB, -40), 40) / 20)) }
    /// Jumps the overall gain to its target (before any audio).
    public func settle() { overall = targetOverall }

    /// The gain (dB) the curve gives a detected level (dB).
    @inline(__always)
    private func curveGain(_ x: Double) -> Double {
        if x > threshold { return threshold + headRoom * tanh((x - threshold) / headRoom) - x }
        if x < expansionThreshold { return (x - expansionThreshold) * (expansionRatio - 1) }
        return 0
    }

    /// Processes `frames` frames of `channels` non-interleaved channels; `input` may equal `output`. The gain is
    /// recomputed every 8 frames from the detector (log and tanh per sample would cost more than the rest).
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels: Int, frames: Int) {
        var gain: Float = 1
        var peakOut: Float = 0
        for i in 0..<frames {
            var peak: Float = 0
            for c in 0..<channels { peak = max(peak, abs(input[c][i])) }
            level += (peak - level) * (peak > level ? attack : release)
            if level < 1e-12 { level = 0 }
            if i % 8 == 0 {
                let x = level > 0 ? 20 * log10(Double(level)) : -240
                gain = Float(pow(10, curveGain(x) / 20))
            }
            overall += (targetOverall - overall) * glide
            if abs(targetOverall - overall) < 5e-5 * targetOverall { overall = targetOverall }
            let g = gain * overall
            for c in 0..<channels {
                let y = input[c][i] * g
                output[c][i] = y
                peakOut = max(peakOut, abs(y))
            }
        }
        gainDB = gain > 0 ? Float(20 * log10(Double(gain))) : -120
        inputDB = level > 0 ? max(Float(20 * log10(Double(level))), -120) : -120
        outputDB = peakOut > 0 ? max(Float(20 * log10(Double(peakOut))), -120) : -120
    }
}
