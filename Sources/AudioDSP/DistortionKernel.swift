#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine behind AUDistortion (`'aufx' 'dist' 'appl'`): five stages in series, each crossfaded with its own
/// input by its mix parameter, then the whole crossfaded with the dry input. Apple documents the parameters, not the
/// algorithm; this is our design. Per channel, every crossfade linear (`mix(a, b, m) = (1 - m)·a + m·b`):
///
///     x  → delay:     line[n] = x[n] + g·line[n - D],  echo[n] = line[n - D]
///                     D = delay ms · rate / 1000 (linear interpolation), g = 2^-decay (decay 1: each repeat halves)
///                     v1 = mix(x, echo, delayMix)
///     v1 → decimator: h = v1 sampled once every 2^(6·decimation/100) frames and held (0 %: every frame,
///                     50 %: every 8th, 100 %: every 64th), then, if rounding > 0, rounded to
///                     1 + 15·(1 - rounding/100) bits (steps of 2^(1 - bits) over -1...1)
///                     v2 = mix(v1, h, decimationMix)
///     v2 → polynomial: p = linear·v2 + squared·v2·|v2| + cubic·v2³       v3 = mix(v2, p, polynomialMix)
///     v3 → ring mod:   c = (1 - b)·sin(2π·freq1·t) + b·sin(2π·freq2·t),  b = balance / 100
///                      v4 = mix(v3, v3·c, ringModMix)
///     v4 → soft clip:  y = tanh(G·v4), G = 10^(softClipGain/20)   (so the processed signal never exceeds ±1)
///     out = mix(x, y, finalMix)
///
/// Mixes, polynomial terms, balance, clip gain and the comb's feedback glide over about 10 ms; the comb's delay
/// glides over about 50 ms (a short pitch bend, as a tape delay's). The oscillators run continuously, shared by all
/// channels. All memory (half a second of comb per channel) is allocated by `init`; `process` allocates nothing,
/// takes no lock, makes no system call and calls no libm function (its tanh is a Padé approximant, its sines are
/// rotating phasors). The setters allocate nothing and take no lock (they call libm for exp, pow, sin and cos) and may
/// be called on the render thread between slices.
public final class DistortionKernel {
    /// Frames per second.
    public let sampleRate: Double
    /// The most frames one `process` call is given.
    public let maximumFrames: Int
    /// Channels processed (each with its own comb and hold).
    public let channels: Int

    /// The longest comb delay, milliseconds.
    public static let maximumDelay = 500.0

    private let values: UnsafeMutablePointer<Double>     // the 16 parameters as set, by raw value
    // Delay section.
    private let combCapacity: Int                        // per channel, a power of two
    private let combMask: Int
    private let combLines: UnsafeMutablePointer<Float>
    private var combWrite = 0
    private var combDelay: Double = 1, targetCombDelay: Double = 1   // samples
    private let delayGlideCoefficient: Double
    // Decimator.
    private let held: UnsafeMutablePointer<Float>
    private var holdPhase: Double = 1                    // ≥ 1 on the next frame: sample it
    private var holdStep: Double = 1
    private var quantum: Float = 1, quantumInverse: Float = 1
    private var quantizing = false
    // Ring modulator: unit phasors turned by a fixed rotation each frame; the sine is the imaginary part.
    private var phasor1 = (re: 1.0, im: 0.0), rotation1 = (re: 1.0, im: 0.0)
    private var phasor2 = (re: 1.0, im: 0.0), rotation2 = (re: 1.0, im: 0.0)
    // Gliding values (current, target).
    private var delayMix: Float = 0, targetDelayMix: Float = 0
    private var feedback: Float = 0, targetFeedback: Float = 0
    private var decimationMix: Float = 0, targetDecimationMix: Float = 0
    private var linear: Float = 0, targetLinear: Float = 0
    private var squared: Float = 0, targetSquared: Float = 0
    private var cubic: Float = 0, targetCubic: Float = 0
    private var polynomialMix: Float = 0, targetPolynomialMix: Float = 0
    private var balance: Float = 0, targetBalance: Float = 0
    private var ringModMix: Float = 0, targetRingModMix: Float = 0
    private var clipGain: Float = 0, targetClipGain: Float = 0
    private var finalMix: Float = 0, targetFinalMix: Float = 0
    private let glideCoefficient: Float
    private var isGliding = true                         // false once every gliding value sits on its target
    private var primed = false

    /// A distortion for `channels` channels (1...8) at `sampleRate`, given at most `maximumFrames` frames per call,
    /// with Apple's default parameters.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = max(maximumFrames, 1)
        self.channels = min(max(channels, 1), 8)
        var c = 1
        while c < Int((Self.maximumDelay / 1000 * sampleRate).rounded(.up)) + 3 { c <<= 1 }
        combCapacity = c
        combMask = c - 1
        combLines = .allocate(capacity: c * self.channels)
        combLines.initialize(repeating: 0, count: c * self.channels)
        held = .allocate(capacity: self.channels)
        held.initialize(repeating: 0, count: self.channels)
        values = .allocate(capacity: DistortionParameter.allCases.count)
        values.initialize(repeating: 0, count: DistortionParameter.allCases.count)
        delayGlideCoefficient = 1 - exp(-1 / (0.050 * sampleRate))
        glideCoefficient = Float(1 - exp(-1 / (0.010 * sampleRate)))
        for parameter in DistortionParameter.allCases { setParameter(parameter, parameter.defaultValue) }
        settle()
        primed = false
    }

    deinit {
        combLines.deallocate()
        held.deallocate()
        values.deallocate()
    }

    /// Silences the comb and the hold and restarts the oscillators; the next `process` starts at the parameters'
    /// values, not gliding.
    @_noLocks @_noAllocation
    public func reset() {
        combLines.update(repeating: 0, count: combCapacity * channels)
        held.update(repeating: 0, count: channels)
        holdPhase = 1
        phasor1 = (1, 0)
        phasor2 = (1, 0)
        primed = false
    }

    /// Jumps every gliding value to its target. `process` does this by itself on its first call after `init` or
    /// `reset()`.
    @_noLocks @_noAllocation
    public func settle() {
        combDelay = targetCombDelay
        delayMix = targetDelayMix
        feedback = targetFeedback
        decimationMix = targetDecimationMix
        linear = targetLinear
        squared = targetSquared
        cubic = targetCubic
        polynomialMix = targetPolynomialMix
        balance = targetBalance
        ringModMix = targetRingModMix
        clipGain = targetClipGain
        finalMix = targetFinalMix
        primed = true
    }

    /// The parameter's value as last set (after clamping).
    public func parameter(_ parameter: DistortionParameter) -> Double { values[parameter.rawValue] }

    /// Sets one parameter, clamped to its range (see `DistortionParameter` for units and meaning); NaN is ignored.
    public func setParameter(_ parameter: DistortionParameter, _ value: Double) {
        if value.isNaN { return }
        let range = parameter.range
        let v = min(max(value, range.lowerBound), range.upperBound)
        values[parameter.rawValue] = v
        let fraction = Float(v / 100)
        switch parameter {
        case .delay:
            // Snapped to a whole sample when a hair off one (10 ms is 480.00000000000006 frames at 48 kHz).
            let samples = v * sampleRate / 1000
            let whole = samples.rounded()
            let snapped = abs(samples - whole) < 1e-6 ? whole : samples
            targetCombDelay = min(max(snapped, 1), Double(combCapacity - 2))
        case .decay: targetFeedback = Float(pow(2, -v))
        case .delayMix: targetDelayMix = fraction
        case .decimation: holdStep = pow(2, -6 * v / 100)
        case .rounding:
            quantizing = v > 0
            let bits = 1 + 15 * (1 - v / 100)
            quantum = Float(pow(2, 1 - bits))
            quantumInverse = 1 / quantum
        case .decimationMix: targetDecimationMix = fraction
        case .linearTerm: targetLinear = Float(v)
        case .squaredTerm: targetSquared = Float(v)
        case .cubicTerm: targetCubic = Float(v)
        case .polynomialMix: targetPolynomialMix = fraction
        case .ringModFreq1: rotation1 = (cos(2 * Double.pi * v / sampleRate), sin(2 * Double.pi * v / sampleRate))
        case .ringModFreq2: rotation2 = (cos(2 * Double.pi * v / sampleRate), sin(2 * Double.pi * v / sampleRate))
        case .ringModBalance: targetBalance = fraction
        case .ringModMix: targetRingModMix = fraction
        case .softClipGain: targetClipGain = Float(pow(10, v / 20))
        case .finalMix: targetFinalMix = fraction
        }
        isGliding = true
    }

    /// Sets all 16 parameters from `preset`.
    public func load(_ preset: DistortionPreset) {
        for parameter in DistortionParameter.allCases { setParameter(parameter, preset[parameter]) }
    }

    /// Seconds until the comb's repeats have fallen 60 dB (each is 6.02·decay dB below the last), plus one hold.
    public var tailTime: Double {
        let delay = values[DistortionParameter.delay.rawValue] / 1000
        let decay = values[DistortionParameter.decay.rawValue]
        let repeats = 60 / (20 * log10(2.0) * decay)
        return delay * (1 + repeats) + 1 / (holdStep * sampleRate)
    }

    /// Processes `frames` (at most `maximumFrames`) frames of `channels` non-interleaved channels. `input` may equal
    /// `output`. Channels beyond the kernel's own are copied through.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        if !primed { settle() }
        let n = min(count, channels)
        let a = glideCoefficient, delayGlide = delayGlideCoefficient
        let mask = combMask, capacity = combCapacity
        let step = holdStep, quantize = quantizing, q = quantum, qInverse = quantumInverse
        let r1 = rotation1, r2 = rotation2
        var p1 = phasor1, p2 = phasor2
        var phase = holdPhase, w = combWrite, delay = combDelay
        var dMix = delayMix, fb = feedback, decMix = decimationMix, lin = linear, sq = squared, cub = cubic
        var pMix = polynomialMix, bal = balance, rMix = ringModMix, gain = clipGain, fMix = finalMix
        // Targets only change between slices: once everything has landed, the glides are skipped.
        let gliding = isGliding
        for i in 0..<frames {
            if gliding {
                dMix = approach(dMix, targetDelayMix, a)
                fb = approach(fb, targetFeedback, a)
                decMix = approach(decMix, targetDecimationMix, a)
                lin = approach(lin, targetLinear, a)
                sq = approach(sq, targetSquared, a)
                cub = approach(cub, targetCubic, a)
                pMix = approach(pMix, targetPolynomialMix, a)
                bal = approach(bal, targetBalance, a)
                rMix = approach(rMix, targetRingModMix, a)
                gain = approach(gain, targetClipGain, a)
                fMix = approach(fMix, targetFinalMix, a)
                let delayTarget = targetCombDelay
                delay += (delayTarget - delay) * delayGlide
                if abs(delayTarget - delay) < 1e-6 { delay = delayTarget }
            }
            let whole = Int(delay)
            let fraction = Float(delay - Double(whole))

            phase += step
            var sample = false
            if phase >= 1 {
                phase -= 1
                sample = true
            }

            let carrier = Float(p1.im) + bal * (Float(p2.im) - Float(p1.im))
            p1 = rotate(p1, r1)
            p2 = rotate(p2, r2)

            for c in 0..<n {
                let x = input[c][i]
                // Delay section.
                let line = combLines + c * capacity
                let older = line[(w - whole) & mask]
                let oldest = line[(w - whole - 1) & mask]
                let echo = older + (oldest - older) * fraction
                var stored = x + fb * echo
                if abs(stored) < 1e-20 { stored = 0 }
                line[w] = stored
                let v1 = (1 - dMix) * x + dMix * echo
                // Decimator: hold, then round.
                if sample { held[c] = v1 }
                var h = held[c]
                if quantize { h = roundToEven(h * qInverse) * q }
                let v2 = (1 - decMix) * v1 + decMix * h
                // Polynomial waveshaper.
                let shaped = lin * v2 + sq * v2 * abs(v2) + cub * v2 * v2 * v2
                let v3 = (1 - pMix) * v2 + pMix * shaped
                // Ring modulator.
                let v4 = (1 - rMix) * v3 + rMix * v3 * carrier
                // Soft clip, then the final crossfade with the dry input.
                let y = softClip(gain * v4)
                output[c][i] = (1 - fMix) * x + fMix * y
            }
            w = (w + 1) & mask
        }
        var c = n
        while c < count {
            let x = input[c], y = output[c]
            if x != y { for i in 0..<frames { y[i] = x[i] } }
            c += 1
        }
        if gliding {
            // Whether all have landed: a sum of distances (`&&` would build autoclosures that retain self).
            var spread = abs(dMix - targetDelayMix) + abs(fb - targetFeedback) + abs(decMix - targetDecimationMix)
            spread += abs(lin - targetLinear) + abs(sq - targetSquared) + abs(cub - targetCubic)
            spread += abs(pMix - targetPolynomialMix) + abs(bal - targetBalance) + abs(rMix - targetRingModMix)
            spread += abs(gain - targetClipGain) + abs(fMix - targetFinalMix) + Float(abs(delay - targetCombDelay))
            isGliding = spread != 0
        }
        phasor1 = p1
        phasor2 = p2
        holdPhase = phase
        combWrite = w
        combDelay = delay
        delayMix = dMix
        feedback = fb
        decimationMix = decMix
        linear = lin
        squared = sq
        cubic = cub
        polynomialMix = pMix
        balance = bal
        ringModMix = rMix
        clipGain = gain
        finalMix = fMix
    }

    /// One step of a one-pole glide toward `target`, landing on it once within 1e-6 or once a step rounds to nothing.
    @inline(__always)
    private func approach(_ value: Float, _ target: Float, _ coefficient: Float) -> Float {
        let next = value + (target - value) * coefficient
        // Near the target a Float step rounds to nothing (below half an ulp): land rather than stall.
        return next == value || abs(target - next) < 1e-6 ? target : next
    }

    /// `p` turned by `r`, then pulled back onto the unit circle (one Newton step for 1/|p|, no square root).
    @inline(__always)
    private func rotate(_ p: (re: Double, im: Double), _ r: (re: Double, im: Double)) -> (re: Double, im: Double) {
        let re = p.re * r.re - p.im * r.im
        let im = p.re * r.im + p.im * r.re
        let k = (3 - (re * re + im * im)) / 2
        return (re * k, im * k)
    }

    /// The nearest integer (ties to even), by the 1.5·2²³ trick: exact for |v| < 2²², no conversion that could trap.
    @inline(__always)
    private func roundToEven(_ v: Float) -> Float {
        let limit: Float = 4_000_000
        let clamped = v > limit ? limit : (v < -limit ? -limit : v)
        let magic: Float = 12_582_912
        return (clamped + magic) - magic
    }

    /// tanh by its [7/6] Padé approximant (error below 1e-4, and relative error far below 1e-7 under 0.1), clamped
    /// at ±4.9718, where the approximant reaches ±1.
    @inline(__always)
    private func softClip(_ v: Float) -> Float {
        let edge: Float = 4.9718
        if v >= edge { return 1 }
        if v <= -edge { return -1 }
        let v2 = v * v
        let numerator = v * (135_135 + v2 * (17_325 + v2 * (378 + v2)))
        let denominator = 135_135 + v2 * (62_370 + v2 * (3_150 + 28 * v2))
        return numerator / denominator
    }
}
