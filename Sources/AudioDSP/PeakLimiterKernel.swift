#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A look-ahead peak limiter, the engine behind AUPeakLimiter. The signal (after the pre-gain) is delayed by the
/// attack time; the gain each sample needs (ceiling / peak over the channels, at most 1) is known that far ahead,
/// so the gain envelope falls toward the smallest need in the window before the peak arrives and recovers with the
/// decay time. The applied gain is never above the need of the sample leaving the delay, so no output sample
/// exceeds the ceiling: the guarantee holds exactly, not statistically. Stereo-linked. All memory at init;
/// `process` and the setters allocate nothing and take no lock.
public final class PeakLimiterKernel {
    public let sampleRate: Double
    public let channels: Int
    /// The largest output magnitude (linear).
    public var ceiling: Float = 1
    private let capacity: Int                 // delay line and need window (power of two)
    private let delay: UnsafeMutablePointer<Float>
    private let needs: UnsafeMutablePointer<Float>
    // A monotonic queue of (index, need) for the window minimum: O(1) per sample.
    private let dequeIndex: UnsafeMutablePointer<Int>
    private let dequeValue: UnsafeMutablePointer<Float>
    private var dequeHead = 0, dequeCount = 0
    private var position = 0
    private var lookahead = 1
    private var envelope: Float = 1
    private var attackCoefficient: Float = 0.5
    private var releaseCoefficient: Float = 0.001
    private var preGain: Float = 1, targetPreGain: Float = 1
    private let glide: Float

    /// A limiter for `channels` channels at `sampleRate`, with look-ahead up to 0.03 s.
    public init(sampleRate: Double, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = max(channels, 1)
        var c = 1
        while c < Int(0.031 * sampleRate) + 2 { c <<= 1 }
        capacity = c
        delay = .allocate(capacity: c * self.channels)
        delay.initialize(repeating: 0, count: c * self.channels)
        needs = .allocate(capacity: c)
        needs.initialize(repeating: 1, count: c)
        dequeIndex = .allocate(capacity: c)
        dequeValue = .allocate(capacity: c)
        glide = Float(1 - exp(-1 / (0.010 * sampleRate)))
        setAttack(0.012)
        setDecay(0.024)
    }

    deinit {
        delay.deallocate()
        needs.deallocate()
        dequeIndex.deallocate()
        dequeValue.deallocate()
    }

    /// Clears the delay and the envelope.
    public func reset() {
        delay.update(repeating: 0, count: capacity * channels)
        needs.update(repeating: 1, count: capacity)
        dequeHead = 0
        dequeCount = 0
        envelope = 1
    }

    /// Attack (= look-ahead) time, seconds (0.001...0.03).
    public func setAttack(_ seconds: Double) {
        let n = max(1, min(Int((min(max(seconds, 0.001), 0.03) * sampleRate).rounded()), capacity - 2))
        if n != lookahead { lookahead = n }
        // 99% of the way in the look-ahead: the need clamp below covers the rest.
        attackCoefficient = Float(1 - exp(-4.6 / Double(n)))
    }
    /// Decay (release) time, seconds (0.001...0.06): the gain recovers by 1 - 1/e in this time.
    public func setDecay(_ seconds: Double) {
        releaseCoefficient = Float(1 - exp(-1 / (min(max(seconds, 0.001), 0.06) * sampleRate)))
    }
    /// Gain before limiting, dB (-40...40).
    public func setPreGain(_ dB: Double) { targetPreGain = Float(pow(10, min(max(dB, -40), 40) / 20)) }
    /// Jumps the pre-gain to its target (before any audio).
    public func settle() { preGain = targetPreGain }

    /// The delay the look-ahead adds, in frames.
    public var latencyFrames: Int { lookahead }

    /// Limits `frames` frames; `input` may equal `output`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        let mask = capacity - 1
        let n = min(count, channels)
        let ceilingValue = ceiling
        for i in 0..<frames {
            preGain += (targetPreGain - preGain) * glide
            if abs(targetPreGain - preGain) < 5e-5 * targetPreGain { preGain = targetPreGain }
            var peak: Float = 0
            for c in 0..<n {
                let x = input[c][i] * preGain
                delay[c * capacity + position] = x
                peak = max(peak, abs(x))
            }
            let need: Float = peak > ceilingValue ? ceilingValue / peak : 1
            needs[position] = need
            // Window minimum over the last lookahead+1 needs (monotonic queue of increasing values).
            // (Plain loops: `&&` takes an autoclosure, which the real-time checker rejects.)
            while dequeCount > 0 {
                if dequeValue[(dequeHead + dequeCount - 1) & mask] < need { break }
                dequeCount -= 1
            }
            dequeIndex[(dequeHead + dequeCount) & mask] = position
            dequeValue[(dequeHead + dequeCount) & mask] = need
            dequeCount += 1
            let oldest = (position - lookahead) & mask
            // Drop entries that fell out of the window (older than the sample now leaving the delay).
            while dequeCount > 1 {
                if ((position - dequeIndex[dequeHead]) & mask) <= lookahead { break }
                dequeHead = (dequeHead + 1) & mask
                dequeCount -= 1
            }
            let target = dequeValue[dequeHead]
            envelope += (target - envelope) * (target < envelope ? attackCoefficient : releaseCoefficient)
            let gain = min(envelope, needs[oldest])
            for c in 0..<n {
                var y = delay[c * capacity + oldest] * gain
                // Rounding can leave one ulp over: the ceiling is a promise.
                y = min(max(y, -ceilingValue), ceilingValue)
                output[c][i] = y
            }
            position = (position + 1) & mask
        }
    }
}
