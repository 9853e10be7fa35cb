#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A feedback-delay-network reverb (Jot's design), the engine behind AUReverb2 and AUMatrixReverb: eight delay
/// lines whose lengths spread between a minimum and a maximum delay (a seed picks the spread, so "randomize
/// reflections" changes the pattern), a Householder feedback matrix (lossless and dense), and in each loop a
/// first-order absorption filter whose gain at DC and at Nyquist gives exactly the requested RT60 at those two
/// frequencies (g = 10^(-3·length / (RT60·rate))). The input is summed to mono, optionally pre-delayed, and fed to
/// every line with alternating signs; the left and right outputs tap the lines with two orthogonal sign patterns,
/// so the channels are decorrelated. Dry/wet (an equal-power crossfade) and gain glide over about 10 ms. All memory is allocated at init;
/// `process` and the setters allocate nothing and take no lock.
public final class FDNReverbKernel {
    public static let lines = 8
    public let sampleRate: Double
    public let maximumFrames: Int

    // Parameters as set.
    public private(set) var dryWetMix = 100.0
    public private(set) var gainDB = 0.0
    public private(set) var minDelay = 0.008, maxDelay = 0.050
    public private(set) var decayAt0Hz = 1.0, decayAtNyquist = 0.5
    public private(set) var seed = 1
    public private(set) var preDelay = 0.0

    private let capacity: Int            // samples per delay line (power of two)
    private let buffers: UnsafeMutablePointer<Float>
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: FDNReverbKernel.lines)
    private let feedbackB0 = UnsafeMutablePointer<Float>.allocate(capacity: FDNReverbKernel.lines)
    private let feedbackA1 = UnsafeMutablePointer<Float>.allocate(capacity: FDNReverbKernel.lines)
    private let filterState = UnsafeMutablePointer<Float>.allocate(capacity: FDNReverbKernel.lines)
    private let reads = UnsafeMutablePointer<Float>.allocate(capacity: FDNReverbKernel.lines)
    private var writeIndex = 0
    private let preCapacity: Int
    private let preBuffer: UnsafeMutablePointer<Float>
    private var preIndex = 0
    private var preLength = 0
    private var dryGain: Float = 0, wetGain: Float = 1
    private var targetDry: Float = 0, targetWet: Float = 1
    private var smoothing: Float

    /// An engine for `sampleRate`, processing at most `maximumFrames` per call; delays up to one second, pre-delay up
    /// to 0.1 s.
    public init(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        var c = 1
        while c < Int(sampleRate * 1.05) + 2 { c <<= 1 }
        capacity = c
        buffers = .allocate(capacity: c * Self.lines)
        preCapacity = Int(sampleRate * 0.1) + 2
        preBuffer = .allocate(capacity: preCapacity)
        smoothing = Float(1 - exp(-1 / (0.010 * sampleRate)))
        reset()
        updateLengths()
        (targetDry, targetWet) = targetMixGains()
        dryGain = targetDry
        wetGain = targetWet
    }

    deinit {
        buffers.deallocate()
        lengths.deallocate()
        feedbackB0.deallocate()
        feedbackA1.deallocate()
        filterState.deallocate()
        reads.deallocate()
        preBuffer.deallocate()
    }

    /// Clears the delay lines (silence afterwards).
    public func reset() {
        buffers.initialize(repeating: 0, count: capacity * Self.lines)
        filterState.initialize(repeating: 0, count: Self.lines)
        preBuffer.initialize(repeating: 0, count: preCapacity)
        writeIndex = 0
        preIndex = 0
    }

    /// Jumps the gliding gains to their targets (a unit's first parameters, before any audio).
    public func settle() {
        dryGain = targetDry
        wetGain = targetWet
    }

    /// Dry/wet crossfade in percent (0 dry, 100 wet).
    public func setDryWetMix(_ percent: Double) {
        dryWetMix = min(max(percent, 0), 100)
        (targetDry, targetWet) = targetMixGains()
    }
    /// Output gain in dB, applied to the wet signal.
    public func setGain(_ dB: Double) {
        gainDB = min(max(dB, -96), 40)
        (targetDry, targetWet) = targetMixGains()
    }
    /// RT60 at DC and at Nyquist, seconds.
    public func setDecay(at0Hz: Double, atNyquist: Double) {
        let a = min(max(at0Hz, 0.001), 60), b = min(max(atNyquist, 0.001), 60)
        guard a != decayAt0Hz || b != decayAtNyquist else { return }
        decayAt0Hz = a
        decayAtNyquist = b
        updateGains()
    }
    /// The range the delay lines spread over (seconds, up to one second) and the spread's seed.
    public func setDelays(min: Double, max: Double, seed: Int) {
        let lo = Swift.min(Swift.max(min, 0.0001), 1), hi = Swift.min(Swift.max(max, lo), 1)
        guard lo != minDelay || hi != maxDelay || seed != self.seed else { return }
        minDelay = lo
        maxDelay = hi
        self.seed = seed
        updateLengths()
    }
    /// Pre-delay before the network, seconds (up to 0.1).
    public func setPreDelay(_ seconds: Double) {
        preDelay = Swift.min(Swift.max(seconds, 0), 0.1)
        preLength = Swift.min(Int((preDelay * sampleRate).rounded()), preCapacity - 1)
    }

    /// How long the tail lasts after the input stops: the longer RT60 plus the longest line and the pre-delay.
    public var tailTime: Double { Swift.max(decayAt0Hz, decayAtNyquist) + maxDelay + preDelay }

    /// Equal-power crossfade (Apple's units call the parameter a crossfade): cos and sin of the mix's quarter turn.
    private func targetMixGains() -> (Float, Float) {
        let m = dryWetMix / 100
        let dry = m == 1 ? 0 : cos(m * Double.pi / 2), wet = m == 0 ? 0 : sin(m * Double.pi / 2)
        return (Float(dry), Float(wet * pow(10, gainDB / 20)))
    }

    /// Line lengths: geometric between the two delays, each jittered by the seed and moved to a distinct prime.
    private func updateLengths() {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        let lo = Swift.max(minDelay * sampleRate, 8), hi = Swift.max(maxDelay * sampleRate, lo + 8)
        for i in 0..<Self.lines {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let jitter = Double(state >> 40) / Double(1 << 24) - 0.5  // ±0.5 of a step
            let t = (Double(i) + 0.5 + 0.8 * jitter) / Double(Self.lines)
            var n = Swift.min(Int(lo * pow(hi / lo, t)), capacity - 2)
            // Distinct from the lines before (no allocation: this may run on the render thread).
            func taken(_ n: Int) -> Bool { (0..<i).contains { lengths[$0] == n } }
            while !Self.isPrime(n) || taken(n) { n += 1 }
            lengths[i] = Swift.min(n, capacity - 2)
        }
        updateGains()
    }

    private static func isPrime(_ n: Int) -> Bool {
        if n < 4 { return n > 1 }
        if n % 2 == 0 { return false }
        var d = 3
        while d * d <= n { if n % d == 0 { return false }; d += 2 }
        return true
    }

    /// Per-line absorption: DC gain and Nyquist gain from the two RT60s, as a one-pole b0 / (1 - a1 z^-1).
    private func updateGains() {
        for i in 0..<Self.lines {
            let l = Double(lengths[i])
            let g0 = pow(10, -3 * l / (decayAt0Hz * sampleRate)), gpi = pow(10, -3 * l / (decayAtNyquist * sampleRate))
            let a1 = (g0 - gpi) / (g0 + gpi)
            feedbackA1[i] = Float(a1)
            feedbackB0[i] = Float(g0 * (1 - a1))
        }
    }

    /// Reverberates `frames` frames (at most `maximumFrames`) of `channels` non-interleaved channels; `input` may
    /// be `output`. The input is mixed to mono; channel c takes the left taps when even, the right when odd.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels: Int, frames: Int) {
        let lineCount = 8
        let mask = capacity - 1
        let targetDry = self.targetDry, targetWet = self.targetWet
        let inScale = 1 / Float(Swift.max(channels, 1))
        for n in 0..<frames {
            var x: Float = 0
            for c in 0..<channels { x += input[c][n] }
            x *= inScale
            if preLength > 0 {
                preBuffer[preIndex] = x
                var r = preIndex - preLength
                if r < 0 { r += preCapacity }
                x = preBuffer[r]
                preIndex += 1
                if preIndex == preCapacity { preIndex = 0 }
            }
            var sum: Float = 0
            for i in 0..<lineCount {
                let v = buffers[i * capacity + ((writeIndex - lengths[i]) & mask)]
                // Absorption: one pole, b0·v + a1·state.
                var s = feedbackB0[i] * v + feedbackA1[i] * filterState[i]
                if abs(s) < 1e-25 { s = 0 }
                filterState[i] = s
                reads[i] = s
                sum += s
            }
            // Householder reflection: y = r - (2/N)·Σr, lossless and every line feeding every other.
            let k = sum * (2 / Float(lineCount))
            var left: Float = 0, right: Float = 0
            for i in 0..<lineCount {
                let sign: Float = (i & 1) == 0 ? 1 : -1
                buffers[i * capacity + writeIndex] = reads[i] - k + sign * x
                left += (i & 2) == 0 ? reads[i] : -reads[i]
                right += (i & 4) == 0 ? reads[i] : -reads[i]
            }
            writeIndex = (writeIndex + 1) & mask
            dryGain += (targetDry - dryGain) * smoothing
            wetGain += (targetWet - wetGain) * smoothing
            // Float steps stall about 1e-5 short of the target (the step rounds away): snap there.
            if abs(targetDry - dryGain) < 5e-5 * max(1, abs(targetDry)) { dryGain = targetDry }
            if abs(targetWet - wetGain) < 5e-5 * max(1, abs(targetWet)) { wetGain = targetWet }
            let scale: Float = 0.35  // about unity loudness for a broadband input
            for c in 0..<channels {
                let dry = input[c][n]
                output[c][n] = dryGain * dry + wetGain * scale * ((c & 1) == 0 ? left : right)
            }
        }
    }
}
