#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A feedback delay per channel, the engine behind AUDelay: the delayed signal (read with linear interpolation, so
/// the time can glide), fed back through a one-pole low-pass (transparent when its cutoff is at or above 0.49 of the
/// rate, so an impulse comes back exact), mixed with the dry signal by an equal-power crossfade. A new delay time
/// glides over about 50 ms (no click); mix glides over about 10 ms. Memory for two seconds is allocated at init;
/// `process` and the setters allocate nothing and take no lock.
public final class DelayKernel {
    public let sampleRate: Double
    public let channels: Int
    private let capacity: Int
    private let rings: UnsafeMutablePointer<Float>
    private let lowpassState: UnsafeMutablePointer<Float>
    private var writeIndex = 0
    private var delay: Double            // samples, gliding toward targetDelay
    private var targetDelay: Double
    private let delayGlide: Double
    private var feedback: Float = 0.5
    private var lowpassCoefficient: Float = 1   // 1: transparent
    private var dryGain: Float, wetGain: Float
    private var targetDry: Float, targetWet: Float
    private let mixGlide: Float

    /// Two seconds of delay per channel at `sampleRate`.
    public init(sampleRate: Double, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = max(channels, 1)
        var c = 1
        while c < Int(sampleRate * 2) + 4 { c <<= 1 }
        capacity = c
        rings = .allocate(capacity: c * self.channels)
        rings.initialize(repeating: 0, count: c * self.channels)
        lowpassState = .allocate(capacity: self.channels)
        lowpassState.initialize(repeating: 0, count: self.channels)
        delay = sampleRate
        targetDelay = sampleRate
        delayGlide = 1 - exp(-1 / (0.050 * sampleRate))
        mixGlide = Float(1 - exp(-1 / (0.010 * sampleRate)))
        (dryGain, wetGain) = (Float(cos(Double.pi / 4)), Float(sin(Double.pi / 4)))
        (targetDry, targetWet) = (dryGain, wetGain)
    }

    deinit {
        rings.deallocate()
        lowpassState.deallocate()
    }

    /// Clears the delay lines.
    public func reset() {
        rings.update(repeating: 0, count: capacity * channels)
        lowpassState.update(repeating: 0, count: channels)
        delay = targetDelay
    }

    /// Delay time, seconds (0...2).
    public func setDelayTime(_ seconds: Double) {
        let samples = min(max(seconds, 0), 2) * sampleRate
        // A Float parameter lands a hair off whole samples (0.01 s is 440.99999 at 44.1 kHz): snap, so echoes are exact.
        targetDelay = abs(samples - samples.rounded()) < 1e-3 ? samples.rounded() : samples
    }
    /// Feedback, percent (-100...100).
    public func setFeedback(_ percent: Double) { feedback = Float(min(max(percent, -100), 100) / 100) }
    /// The loop's low-pass cutoff, Hz (at or above 0.49 of the rate: no filtering).
    public func setLowpassCutoff(_ hertz: Double) {
        lowpassCoefficient = hertz >= 0.49 * sampleRate ? 1 : Float(1 - exp(-2 * Double.pi * max(hertz, 1) / sampleRate))
    }
    /// Wet/dry, percent: dry gain cos(p·π/2), wet gain sin(p·π/2) with p = mix / 100.
    public func setWetDryMix(_ percent: Double) {
        let p = min(max(percent, 0), 100) / 100
        targetDry = p == 1 ? 0 : Float(cos(p * Double.pi / 2))
        targetWet = p == 0 ? 0 : Float(sin(p * Double.pi / 2))
    }
    /// Jumps the gliding values to their targets (before any audio).
    public func settle() {
        dryGain = targetDry
        wetGain = targetWet
        delay = targetDelay
    }

    /// Seconds until the echoes have fallen by 60 dB.
    public var tailTime: Double {
        let f = Double(abs(feedback))
        let seconds = targetDelay / sampleRate
        guard f > 0 else { return seconds }
        return f >= 1 ? 60 : seconds * (1 + log(0.001) / log(f))
    }

    /// Processes `frames` frames of `channels` non-interleaved channels; `input` may equal `output`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        let mask = capacity - 1
        let n = min(count, channels)
        let fb = feedback, k = lowpassCoefficient
        var d = delay, wet = wetGain, dry = dryGain, w = writeIndex
        for i in 0..<frames {
            d += (targetDelay - d) * delayGlide
            if abs(targetDelay - d) < 1e-6 { d = targetDelay }
            wet += (targetWet - wet) * mixGlide
            dry += (targetDry - dry) * mixGlide
            if abs(targetWet - wet) < 5e-5 { wet = targetWet }
            if abs(targetDry - dry) < 5e-5 { dry = targetDry }
            let whole = Int(d), fraction = Float(d - Double(whole))
            for c in 0..<n {
                let ring = rings + c * capacity
                let x = input[c][i]
                // The sample written `d` frames ago (d = 0: this frame's input, which is written first).
                let a = whole == 0 ? x : ring[(w - whole) & mask]
                let b = ring[(w - whole - 1) & mask]
                let delayed = fraction == 0 ? a : a + (b - a) * fraction
                var looped = delayed
                if k < 1 {
                    lowpassState[c] += (delayed - lowpassState[c]) * k
                    looped = lowpassState[c]
                }
                var stored = x + fb * looped
                if abs(stored) < 1e-25 { stored = 0 }
                ring[w] = stored
                output[c][i] = dry * x + wet * looped
            }
            w = (w + 1) & mask
        }
        delay = d
        wetGain = wet
        dryGain = dry
        writeIndex = w
    }
}
