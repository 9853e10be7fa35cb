#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine behind AUDelay (`'aufx' 'dely' 'appl'`): per channel, a delay line whose output goes through a low-pass
/// and back into the line, mixed with the dry signal by an equal-power crossfade.
///
/// Per channel, with `p = wetDryMix / 100` and `f = feedback / 100`:
///
///     wet[n]  = lowpass(tap(line, delayTime))
///     line[n] = x[n] + f · wet[n]                       (soft-limited beyond ±1, so ±100 % stays bounded)
///     y[n]    = cos(p·π/2) · x[n] + sin(p·π/2) · wet[n]
///
/// - The tap is exact when `delayTime · sampleRate` is a whole number (within 1e-3 of one: Float parameters land a
///   hair off) and Catmull-Rom interpolated otherwise.
/// - The low-pass is one pole with its -3 dB point exactly at `lowpassCutoff`; at the top of the range (Nyquist) it
///   is bypassed, so an impulse comes back as a single sample.
/// - A new delay time never moves a tap (that would sweep the pitch, and click on a jump): the output crossfades
///   from the old tap to one at the new time over 50 ms. A time set during a crossfade starts when it ends.
/// - Mix gains and feedback glide over about 10 ms.
///
/// All memory (two seconds of line per channel) is allocated by `init`. `process` allocates nothing, takes no lock,
/// makes no system call and calls no libm function (checked by the compiler: `@_noLocks @_noAllocation`). The
/// setters allocate nothing and take no lock either and may be called on the render thread between slices; the mix
/// and cutoff setters call libm's cos and sin, which the compiler cannot check, so only the others are annotated.
public final class DelayKernel {
    /// Frames per second.
    public let sampleRate: Double
    /// The most frames one `process` call is given.
    public let maximumFrames: Int
    /// Channels with their own delay line.
    public let channels: Int

    /// Equal-power wet/dry crossfade, percent (0...100).
    public private(set) var wetDryMix: Double = 50
    /// Delay, seconds (0...2).
    public private(set) var delayTime: Double = 1
    /// Feedback, percent (-100...100); negative values invert every other echo.
    public private(set) var feedback: Double = 50
    /// The loop low-pass's -3 dB frequency, Hz (10...Nyquist; at Nyquist the filter is bypassed). Apple's
    /// `kDelayParam_LopassCutoff`.
    public private(set) var lowpassCutoff: Double = 15000

    /// The longest delay, seconds.
    public static let maximumDelayTime = 2.0
    /// The crossfade between the old and the new tap when the delay time changes, seconds.
    public static let delayChangeTime = 0.05

    private let capacity: Int                  // per channel, a power of two
    private let mask: Int
    private let lines: UnsafeMutablePointer<Float>
    private let lowpassStates: UnsafeMutablePointer<Float>
    private var writeIndex = 0
    private var tapDelay: Double               // samples, the tap being heard
    private var nextTapDelay: Double           // samples, the tap faded in during a change
    private var targetDelay: Double            // samples, the latest request
    private var fadePosition = 0               // 0: no change under way; else 1...fadeLength
    private let fadeLength: Int
    private var lowpassCoefficient: Float = 1  // 1: bypassed
    private var dryGain: Float = 0, wetGain: Float = 0, feedbackGain: Float = 0
    private var targetDry: Float = 0, targetWet: Float = 0, targetFeedback: Float = 0
    private let glideCoefficient: Float
    private var primed = false

    /// A delay for `channels` channels (1...8) at `sampleRate`, given at most `maximumFrames` frames per call, with
    /// Apple's defaults (mix 50 %, 1 s, feedback 50 %, cutoff 15 kHz).
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = max(maximumFrames, 1)
        self.channels = min(max(channels, 1), 8)
        // Two seconds plus the interpolator's three extra taps.
        var c = 1
        while c < Int((Self.maximumDelayTime * sampleRate).rounded(.up)) + 4 { c <<= 1 }
        capacity = c
        mask = c - 1
        lines = .allocate(capacity: c * self.channels)
        lines.initialize(repeating: 0, count: c * self.channels)
        lowpassStates = .allocate(capacity: self.channels)
        lowpassStates.initialize(repeating: 0, count: self.channels)
        fadeLength = max(Int(Self.delayChangeTime * sampleRate), 1)
        glideCoefficient = Float(1 - exp(-1 / (0.010 * sampleRate)))
        tapDelay = sampleRate
        nextTapDelay = sampleRate
        targetDelay = sampleRate
        setWetDryMix(wetDryMix, force: true)
        setDelayTime(delayTime)
        setFeedback(feedback, force: true)
        setLowpassCutoff(lowpassCutoff, force: true)
        settle()
        primed = false
    }

    /// Two seconds of delay for `channels` channels, at most 4096 frames per call.
    public convenience init(sampleRate: Double, channels: Int) {
        self.init(sampleRate: sampleRate, maximumFrames: 4096, channels: channels)
    }

    deinit {
        lines.deallocate()
        lowpassStates.deallocate()
    }

    /// Silences the delay lines and the filters; the next `process` starts at the parameters' values, not gliding.
    @_noLocks @_noAllocation
    public func reset() {
        lines.update(repeating: 0, count: capacity * channels)
        lowpassStates.update(repeating: 0, count: channels)
        fadePosition = 0
        primed = false
    }

    /// Jumps every gliding value (gains, feedback, delay) to its target. `process` does this by itself on its first
    /// call after `init` or `reset()`.
    @_noLocks @_noAllocation
    public func settle() {
        dryGain = targetDry
        wetGain = targetWet
        feedbackGain = targetFeedback
        tapDelay = targetDelay
        nextTapDelay = targetDelay
        fadePosition = 0
        primed = true
    }

    /// Sets the equal-power wet/dry mix, percent (clamped to 0...100): dry gain cos(p·π/2), wet gain sin(p·π/2).
    /// Like every setter here, ignores NaN.
    public func setWetDryMix(_ percent: Double) { setWetDryMix(percent, force: false) }

    // Not @_noLocks: the checker cannot see into libm's cos and sin (which neither allocate nor lock).
    private func setWetDryMix(_ percent: Double, force: Bool) {
        if percent.isNaN { return }
        let mix = min(max(percent, 0), 100)
        // Nested ifs: the autoclosure of `&&` would retain self, which @_noLocks rejects.
        if !force { if mix == wetDryMix { return } }
        wetDryMix = mix
        let p = mix / 100
        // Exact ends: cos(π/2) is 6e-17, not 0, and mix 0 must return the input bit for bit.
        targetDry = p == 1 ? 0 : Float(cos(p * Double.pi / 2))
        targetWet = p == 0 ? 0 : Float(sin(p * Double.pi / 2))
    }

    /// Sets the delay time, seconds (clamped to 0...2). While running, the output crossfades to the new time over
    /// 50 ms.
    @_noLocks @_noAllocation
    public func setDelayTime(_ seconds: Double) {
        if seconds.isNaN { return }
        let time = min(max(seconds, 0), Self.maximumDelayTime)
        delayTime = time
        let samples = time * sampleRate
        let whole = Double(Int(samples + 0.5))
        targetDelay = abs(samples - whole) < 1e-3 ? whole : samples
    }

    /// Sets the feedback, percent (clamped to -100...100).
    @_noLocks @_noAllocation
    public func setFeedback(_ percent: Double) { setFeedback(percent, force: false) }

    @_noLocks @_noAllocation
    private func setFeedback(_ percent: Double, force: Bool) {
        if percent.isNaN { return }
        let value = min(max(percent, -100), 100)
        if !force { if value == feedback { return } }
        feedback = value
        targetFeedback = Float(value / 100)
    }

    /// Sets the loop low-pass's -3 dB frequency, Hz (clamped to 10...Nyquist). At Nyquist the filter is bypassed.
    public func setLowpassCutoff(_ hertz: Double) { setLowpassCutoff(hertz, force: false) }

    // Not @_noLocks: libm's cos is opaque to the checker.
    private func setLowpassCutoff(_ hertz: Double, force: Bool) {
        if hertz.isNaN { return }
        let nyquist = sampleRate / 2
        let cutoff = min(max(hertz, 10), nyquist)
        if !force { if cutoff == lowpassCutoff { return } }
        lowpassCutoff = cutoff
        lowpassCoefficient = DelayKernel.lowpassCoefficient(cutoff: cutoff, sampleRate: sampleRate)
    }

    /// The coefficient `a` of the loop's one-pole low-pass `s += a·(x - s)` for a -3 dB point at `cutoff`: with
    /// m = 1 - cos(2π·cutoff/rate), a = √(m² + 2m) - m. Returns 1 (bypass) at Nyquist, where a one-pole cannot
    /// reach -3 dB (a parameter that arrives as a Float rounds a little below: within 1e-4 counts as the top).
    public static func lowpassCoefficient(cutoff: Double, sampleRate: Double) -> Float {
        if cutoff >= sampleRate / 2 * (1 - 1e-4) { return 1 }
        let m = 1 - cos(2 * Double.pi * cutoff / sampleRate)
        return Float((m * m + 2 * m).squareRoot() - m)
    }

    /// Seconds until the echoes of an impulse have fallen 60 dB: the delay time, plus the repeats that feedback
    /// `f` needs for |f|^k ≤ 10^-3 (the loop low-pass only shortens this). Infinite at ±100 %, where the echoes
    /// never die; a host that pulls a tail clamps it.
    public var tailTime: Double {
        let f = abs(feedback) / 100
        if f == 0 { return delayTime }
        if f >= 1 { return .infinity }
        return delayTime * (1 + log(1e-3) / log(f))
    }

    /// Processes `frames` (at most `maximumFrames`) frames of `channels` non-interleaved channels. `input` may equal
    /// `output`. Channels beyond the kernel's own are copied through.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        if !primed { settle() }
        let n = min(count, channels)
        let k = lowpassCoefficient
        let filtered = k < 1
        let a = glideCoefficient
        let fadeScale = 1 / Float(fadeLength)
        var w = writeIndex
        var dry = dryGain, wet = wetGain, fb = feedbackGain
        var from = tapDelay, to = nextTapDelay, fade = fadePosition
        for i in 0..<frames {
            if fade == 0 {
                let target = targetDelay
                if target != from {
                    to = target
                    fade = 1
                }
            }
            // Smoothstep: the crossfade starts and ends with zero slope.
            var g: Float = 0
            if fade > 0 {
                let t = Float(fade) * fadeScale
                g = t * t * (3 - 2 * t)
            }
            dry = approach(dry, targetDry, a)
            wet = approach(wet, targetWet, a)
            fb = approach(fb, targetFeedback, a)
            for c in 0..<n {
                let line = lines + c * capacity
                let x = input[c][i]
                // Written first so that a tap under one sample reads this frame's input.
                line[w] = x
                var tap = read(line, w, from)
                if g > 0 { tap += (read(line, w, to) - tap) * g }
                var echo = tap
                if filtered {
                    var s = lowpassStates[c] + (tap - lowpassStates[c]) * k
                    if abs(s) < 1e-20 { s = 0 }
                    lowpassStates[c] = s
                    echo = s
                } else {
                    lowpassStates[c] = tap    // so that lowering the cutoff later starts without a step
                }
                var stored = x + fb * echo
                let magnitude = abs(stored)
                if magnitude > 1 {
                    // Identity up to 1, then bending smoothly toward 2: a ±100 % loop cannot run away.
                    stored = stored > 0 ? 2 - 1 / magnitude : 1 / magnitude - 2
                } else if magnitude < 1e-20 {
                    stored = 0
                }
                line[w] = stored
                output[c][i] = dry * x + wet * echo
            }
            if fade > 0 {
                fade += 1
                if fade > fadeLength {
                    from = to
                    fade = 0
                }
            }
            w = (w + 1) & mask
        }
        var c = n
        while c < count {
            let x = input[c], y = output[c]
            if x != y { for i in 0..<frames { y[i] = x[i] } }
            c += 1
        }
        writeIndex = w
        dryGain = dry
        wetGain = wet
        feedbackGain = fb
        tapDelay = from
        nextTapDelay = to
        fadePosition = fade
    }

    /// One step of a one-pole glide toward `target`, landing on it once within 1e-5 or once a step rounds to nothing.
    @inline(__always)
    private func approach(_ value: Float, _ target: Float, _ coefficient: Float) -> Float {
        let next = value + (target - value) * coefficient
        // Near the target a Float step rounds to nothing (below half an ulp): land rather than stall.
        return next == value || abs(target - next) < 1e-5 ? target : next
    }

    /// The line `delay` samples before the frame at `w`; Catmull-Rom between samples, exact on whole samples.
    @inline(__always)
    private func read(_ line: UnsafeMutablePointer<Float>, _ w: Int, _ delay: Double) -> Float {
        let whole = Int(delay)
        let f = Float(delay - Double(whole))
        let p1 = line[(w - whole) & mask]
        if f == 0 { return p1 }
        let p0 = whole == 0 ? p1 : line[(w - whole + 1) & mask]
        let p2 = line[(w - whole - 1) & mask]
        let p3 = line[(w - whole - 2) & mask]
        return p1 + 0.5 * f * (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 + f * (3 * (p1 - p2) + p3 - p0)))
    }
}
