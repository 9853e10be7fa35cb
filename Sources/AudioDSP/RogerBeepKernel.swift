#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine behind AURogerBeep (`'aufx' 'rogr' 'appl'`): the input passes through unchanged, and when a talker
/// stops, a short "roger" beep is mixed into every channel. Apple documents the parameters, not the behaviour; this is
/// our reading of them:
///
/// - Level: the mean power of the loudest channel over a sliding window set by `sensitivity`
///   (0 low: 50 ms, 1 medium: 20 ms, 2 high: 5 ms; shorter reacts faster and to shorter sounds).
/// - Talking starts once the level has stayed at or above `inGateThreshold` for `inGateThresholdTime` without a break
///   (a dip below restarts the count): a burst shorter than that is not talk and brings no beep.
/// - Talking ends once the level has stayed below `outGateThreshold` for `outGateThresholdTime`; the beep starts on
///   that frame. Since the window must empty first, the beep comes `outGateThresholdTime` plus up to one window after
///   the input falls silent.
/// - The beep (`rogerType`, fixed when it starts) lasts `beepDuration` (200 ms) with 5 ms raised-cosine ends:
///   0 one tone (1 kHz), 1 two tones (800 Hz then 1.2 kHz, 100 ms each, phase-continuous), 2 a chirp (600 Hz rising
///   linearly to 2.4 kHz). Its sine's peak is `rogerGain` dB re full scale (0 dB: ±1); the gain glides over ~10 ms.
/// - Outside the beep every output sample is the input sample, bit for bit.
///
/// All memory (the level history and the three beeps, rendered once) is allocated by `init`. `process` allocates
/// nothing, takes no lock and makes no system call; the setters allocate nothing and take no lock (the gain and
/// threshold setters call libm's pow) and may be called on the render thread between slices. Setters ignore NaN.
public final class RogerBeepKernel {
    /// Frames per second.
    public let sampleRate: Double
    /// The most frames one `process` call is given.
    public let maximumFrames: Int
    /// Channels processed.
    public let channels: Int

    /// The level that starts talk, dB re full scale (-80...0, default -6).
    public private(set) var inGateThreshold: Double = -6
    /// How long the level must stay at or above `inGateThreshold` to count as talk, milliseconds (0...1000, default 1000).
    public private(set) var inGateThresholdTime: Double = 1000
    /// The level below which talk may end, dB re full scale (-80...0, default -6).
    public private(set) var outGateThreshold: Double = -6
    /// How long the level must stay below `outGateThreshold` before the beep, milliseconds (0...1000, default 1000).
    public private(set) var outGateThresholdTime: Double = 1000
    /// The level detector's speed: 0 low (50 ms window), 1 medium (20 ms), 2 high (5 ms); default 2.
    public private(set) var sensitivity = 2
    /// The beep: 0 one tone, 1 two tones, 2 a chirp; default 0.
    public private(set) var rogerType = 0
    /// The beep's peak level, dB re full scale (-80...20, default -6).
    public private(set) var rogerGain: Double = -6

    /// How long a beep lasts, seconds.
    public static let beepDuration = 0.2
    /// The raised-cosine fade at each end of a beep, seconds.
    public static let beepFadeTime = 0.005

    /// The level detector's window for a `sensitivity` (0...2), seconds.
    public static func detectorWindow(sensitivity: Int) -> Double {
        switch sensitivity {
        case ...0: 0.050
        case 1: 0.020
        default: 0.005
        }
    }

    private let historyCapacity: Int              // a power of two above the longest window
    private let historyMask: Int
    private let history: UnsafeMutablePointer<Float>   // each frame's power (loudest channel)
    private var historyWrite = 0
    private let windowLengths: UnsafeMutablePointer<Int>    // frames, by sensitivity
    private let windowSums: UnsafeMutablePointer<Double>    // running sums of `history` over each window
    private let beepLength: Int
    private let beeps: UnsafeMutablePointer<Float>      // three unit-peak beeps, one after another
    private var beepPosition = -1                        // -1: no beep playing
    private var beepOffset = 0                           // where the playing beep's samples start in `beeps`
    private var talking = false
    private var aboveCount = 0, belowCount = 0
    private var inPower = 0.0, outPower = 0.0           // thresholds as mean power
    private var inFrames = 0, outFrames = 0
    private var gain: Float = 0, targetGain: Float = 0
    private let glideCoefficient: Float
    private var primed = false

    /// A roger beep for `channels` channels (1...8) at `sampleRate`, given at most `maximumFrames` frames per call,
    /// with Apple's defaults.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = max(maximumFrames, 1)
        self.channels = min(max(channels, 1), 8)
        windowLengths = .allocate(capacity: 3)
        windowSums = .allocate(capacity: 3)
        windowSums.initialize(repeating: 0, count: 3)
        var longest = 1
        for s in 0..<3 {
            let length = max(Int((Self.detectorWindow(sensitivity: s) * sampleRate).rounded()), 1)
            (windowLengths + s).initialize(to: length)
            longest = max(longest, length)
        }
        var c = 1
        while c <= longest { c <<= 1 }
        historyCapacity = c
        historyMask = c - 1
        history = .allocate(capacity: c)
        history.initialize(repeating: 0, count: c)
        beepLength = max(Int((Self.beepDuration * sampleRate).rounded()), 2)
        beeps = .allocate(capacity: 3 * beepLength)
        glideCoefficient = Float(1 - exp(-1 / (0.010 * sampleRate)))
        for type in 0..<3 { Self.render(type: type, into: beeps + type * beepLength, count: beepLength, sampleRate: sampleRate) }
        setInGateThreshold(inGateThreshold)
        setInGateThresholdTime(inGateThresholdTime)
        setOutGateThreshold(outGateThreshold)
        setOutGateThresholdTime(outGateThresholdTime)
        setRogerGain(rogerGain)
        settle()
        primed = false
    }

    deinit {
        history.deallocate()
        windowLengths.deallocate()
        windowSums.deallocate()
        beeps.deallocate()
    }

    /// Renders beep `type` with a unit peak and its faded ends.
    private static func render(type: Int, into buffer: UnsafeMutablePointer<Float>, count: Int, sampleRate: Double) {
        let ceiling = 0.45 * sampleRate         // keeps every tone below Nyquist at low rates
        let fade = max(Int((beepFadeTime * sampleRate).rounded()), 1)
        var phase = 0.0
        for n in 0..<count {
            let t = Double(n) / Double(count)   // 0..<1 through the beep
            let frequency: Double
            switch type {
            case 0: frequency = 1000
            case 1: frequency = t < 0.5 ? 800 : 1200
            default: frequency = 600 + (2400 - 600) * t
            }
            var envelope = 1.0
            let edge = min(n, count - 1 - n)
            if edge < fade { envelope = 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fade)) }
            buffer[n] = Float(envelope * sin(phase))
            phase += 2 * Double.pi * min(frequency, ceiling) / sampleRate
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
        }
    }

    /// Forgets talk, stops a beep and empties the level history; the next `process` starts at the gain's value.
    @_noLocks @_noAllocation
    public func reset() {
        history.update(repeating: 0, count: historyCapacity)
        windowSums.update(repeating: 0, count: 3)
        historyWrite = 0
        beepPosition = -1
        talking = false
        aboveCount = 0
        belowCount = 0
        primed = false
    }

    /// Jumps the beep gain to its target. `process` does this by itself on its first call after `init` or `reset()`.
    @_noLocks @_noAllocation
    public func settle() {
        gain = targetGain
        primed = true
    }

    /// Whether the gate currently counts the input as talk (a beep follows when it ends).
    public var isTalking: Bool { talking }
    /// Whether a beep is playing.
    public var isBeeping: Bool { beepPosition >= 0 }

    /// Sets the level that starts talk, dB (clamped to -80...0).
    public func setInGateThreshold(_ decibels: Double) {
        if decibels.isNaN { return }
        inGateThreshold = min(max(decibels, -80), 0)
        inPower = pow(10, inGateThreshold / 10)
    }

    /// Sets how long the level must stay above the in-gate threshold, milliseconds (clamped to 0...1000).
    @_noLocks @_noAllocation
    public func setInGateThresholdTime(_ milliseconds: Double) {
        if milliseconds.isNaN { return }
        inGateThresholdTime = min(max(milliseconds, 0), 1000)
        inFrames = Int(inGateThresholdTime / 1000 * sampleRate + 0.5)
    }

    /// Sets the level below which talk may end, dB (clamped to -80...0).
    public func setOutGateThreshold(_ decibels: Double) {
        if decibels.isNaN { return }
        outGateThreshold = min(max(decibels, -80), 0)
        outPower = pow(10, outGateThreshold / 10)
    }

    /// Sets how long the level must stay below the out-gate threshold before the beep, milliseconds (clamped to
    /// 0...1000).
    @_noLocks @_noAllocation
    public func setOutGateThresholdTime(_ milliseconds: Double) {
        if milliseconds.isNaN { return }
        outGateThresholdTime = min(max(milliseconds, 0), 1000)
        outFrames = Int(outGateThresholdTime / 1000 * sampleRate + 0.5)
    }

    /// Sets the detector's speed, 0...2 (clamped): 0 low, 1 medium, 2 high.
    @_noLocks @_noAllocation
    public func setSensitivity(_ index: Int) { sensitivity = min(max(index, 0), 2) }

    /// Sets the beep for the next talk's end, 0...2 (clamped): 0 one tone, 1 two tones, 2 a chirp.
    @_noLocks @_noAllocation
    public func setRogerType(_ index: Int) { rogerType = min(max(index, 0), 2) }

    /// Sets the beep's peak level, dB re full scale (clamped to -80...20).
    public func setRogerGain(_ decibels: Double) {
        if decibels.isNaN { return }
        rogerGain = min(max(decibels, -80), 20)
        targetGain = Float(pow(10, rogerGain / 20))
    }

    /// Seconds of output that may follow the input's end: the out-gate time, the detector's window, and a beep.
    public var tailTime: Double {
        outGateThresholdTime / 1000 + Self.detectorWindow(sensitivity: sensitivity) + Self.beepDuration
    }

    /// Processes `frames` (at most `maximumFrames`) frames of `channels` non-interleaved channels. `input` may equal
    /// `output`. The level is measured over the kernel's own channels; the beep goes into every channel given.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        if !primed { settle() }
        let measured = min(count, channels)
        let mask = historyMask
        let window = windowLengths[sensitivity]
        let windowScale = 1 / Double(window)
        let a = glideCoefficient
        var g = gain
        for i in 0..<frames {
            // The loudest channel's power enters all three windows; each drops what left it.
            var power: Float = 0
            for c in 0..<measured {
                let x = input[c][i]
                let p = x * x
                if p > power { power = p }
            }
            let w = historyWrite
            history[w] = power
            for s in 0..<3 {
                let sum = windowSums[s] + Double(power) - Double(history[(w - windowLengths[s]) & mask])
                windowSums[s] = sum > 0 ? sum : 0
            }
            historyWrite = (w + 1) & mask
            // Once per lap of the history, recompute the sums so rounding cannot pile up over hours.
            if historyWrite == 0 { recomputeSums() }

            let level = windowSums[sensitivity] * windowScale
            if talking {
                if level < outPower {
                    belowCount += 1
                    if belowCount >= outFrames {
                        talking = false
                        aboveCount = 0
                        beepOffset = rogerType * beepLength
                        beepPosition = 0
                    }
                } else {
                    belowCount = 0
                }
            } else if level >= inPower {
                aboveCount += 1
                if aboveCount >= inFrames {
                    talking = true
                    belowCount = 0
                }
            } else {
                aboveCount = 0
            }

            let target = targetGain
            let next = g + (target - g) * a
            // Land once a step rounds to nothing (or nearly), instead of stalling a few ulps short.
            g = next == g || abs(target - next) < 1e-6 * target ? target : next
            if beepPosition >= 0 {
                let beep = beeps[beepOffset + beepPosition] * g
                for c in 0..<count { output[c][i] = input[c][i] + beep }
                beepPosition += 1
                if beepPosition >= beepLength { beepPosition = -1 }
            } else {
                for c in 0..<count {
                    let x = input[c], y = output[c]
                    if x != y { y[i] = x[i] }
                }
            }
        }
        gain = g
    }

    /// Sums each window afresh from the history.
    @_noLocks @_noAllocation
    private func recomputeSums() {
        let mask = historyMask
        for s in 0..<3 {
            var sum = 0.0
            let length = windowLengths[s]
            var k = 1
            while k <= length {
                sum += Double(history[(historyWrite - k) & mask])
                k += 1
            }
            windowSums[s] = sum
        }
    }
}
