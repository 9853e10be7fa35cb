#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A compressor/expander with AUDynamicsProcessor's controls ('aufx' 'dcmp').
///
/// There is no fixed ratio (Apple: "HeadRoom adjusts the amount of compression ... The compression ratio is
/// automatically adjusted to not exceed Threshold + HeadRoom"). The static curve, in dB, with T the threshold, H the
/// headroom, E the expansion threshold (taken as min(E, T)) and R the expansion ratio:
///
///     out = T + H·tanh((in − T)/H)    in > T    (slope 1 at T, approaches T + H and never reaches it)
///     out = in                        E ≤ in ≤ T
///     out = E + R·(in − E)            in < E    (downward expansion: R dB down per dB below E)
///
/// The curve is C²-smooth at T (tanh's second derivative vanishes at 0), a built-in soft knee: at T + H the gain
/// reduction is 0.24·H, at T + 2H 1.04·H, and further up every extra dB in is (nearly) a dB of reduction.
///
/// Level detection: RMS over a fixed 5 ms window, stereo-linked by the largest channel, then attack/release
/// ballistics on the level in dB (see `EnvelopeFollower`); levels are sine-calibrated, so a steady sine of peak
/// level L dBFS leaves with peak level `staticCurve(L)` + overall gain. The overall gain comes last and glides over
/// 10 ms. No look-ahead: latency 0, tail 0 (the output stops with the input).
///
/// Real-time: all memory is allocated at init; `process` and the setters allocate nothing, lock nothing and make
/// no system call. Setters may run on the render thread between slices.
public final class DynamicsProcessorKernel {
    /// The sample rate, Hz.
    public let sampleRate: Double
    /// The most frames one `process` call may pass.
    public let maximumFrames: Int
    /// The most channels one `process` call may pass (1...8).
    public let channels: Int

    /// Compression threshold T, dB (-40...20, default -20).
    public private(set) var threshold = -20.0
    /// Headroom H, dB (0.1...40, default 5): the output level approaches T + H and never exceeds it.
    public private(set) var headRoom = 5.0
    /// Downward-expansion ratio R (1...50, default 2; 1 turns expansion off).
    public private(set) var expansionRatio = 2.0
    /// Expansion threshold E, dB (-120...0, default -100: Apple documents no range or default; -100 keeps the
    /// expander out of ordinary program material). Used as min(E, T).
    public private(set) var expansionThreshold = -100.0
    /// Attack time constant, seconds (0.0001...0.2, default 0.001).
    public private(set) var attackTime = 0.001
    /// Release time constant, seconds (0.01...3, default 0.05).
    public private(set) var releaseTime = 0.05
    /// Gain after the dynamics, dB (-40...40, default 0).
    public private(set) var overallGain = 0.0

    /// Meter: gain reduction the curve applied at the end of the last slice, dB, ≥ 0 (compression and expansion
    /// together; the overall gain is not included). Positive, as Apple's multiband compressor reports its 0...20.
    public private(set) var compressionAmount: Float = 0
    /// Meter: detected input level at the end of the last slice, dB (sine-calibrated RMS, floor -120).
    public private(set) var inputAmplitude: Float = -120
    /// Meter: input level plus the gain applied (curve and overall gain), dB, floor -120.
    public private(set) var outputAmplitude: Float = -120

    /// Latency the processor adds: none.
    public var latencySeconds: Double { 0 }
    /// Output after the input stops: none (the gain acts on the input only).
    public var tailSeconds: Double { 0 }

    private var follower: EnvelopeFollower
    private let rmsState: UnsafeMutablePointer<Double>   // EnvelopeFollower.stateCount per channel
    private var smoothedLevel = EnvelopeFollower.floorDB // dB, after the ballistics
    private var overall: SmoothedGain
    private var effectiveExpansionThreshold = -100.0

    /// A processor for up to `channels` channels (clamped to 1...8) of at most `maximumFrames` frames per call.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.channels = min(max(channels, 1), 8)
        rmsState = .allocate(capacity: self.channels * EnvelopeFollower.stateCount)
        rmsState.initialize(repeating: 0, count: self.channels * EnvelopeFollower.stateCount)
        follower = EnvelopeFollower(sampleRate: sampleRate, attack: 0.001, release: 0.05)
        overall = SmoothedGain(sampleRate: sampleRate)
        updateExpansion()
    }

    deinit { rmsState.deallocate() }

    /// The design: the steady output level (dB) for a steady input level (dB, a sine's peak level). With the
    /// defaults for the expansion arguments the curve is a pure compressor.
    public static func staticCurve(inputDB x: Double, threshold t: Double, headRoom h: Double,
                                   expansionRatio r: Double = 1, expansionThreshold e: Double = -.infinity) -> Double {
        DynamicsCurve.output(inputDB: x, threshold: t, headRoom: h, expansionRatio: r, expansionThreshold: e)
    }

    /// `staticCurve` with this processor's current settings (overall gain not included).
    public func staticCurve(inputDB: Double) -> Double {
        Self.staticCurve(inputDB: inputDB, threshold: threshold, headRoom: headRoom,
                         expansionRatio: expansionRatio, expansionThreshold: expansionThreshold)
    }

    /// Clears the detector and the meters and lands the overall gain on its target.
    public func reset() {
        rmsState.update(repeating: 0, count: channels * EnvelopeFollower.stateCount)
        smoothedLevel = EnvelopeFollower.floorDB
        overall.settle()
        compressionAmount = 0
        inputAmplitude = Float(EnvelopeFollower.floorDB)
        outputAmplitude = Float(EnvelopeFollower.floorDB)
    }

    /// Jumps the overall gain to its target (a unit's first parameters, before any audio).
    public func settle() { overall.settle() }

    /// Threshold T, dB (clamped to -40...20).
    public func setThreshold(_ dB: Double) {
        threshold = min(max(dB, -40), 20)
        updateExpansion()
    }
    /// Headroom H, dB (clamped to 0.1...40).
    public func setHeadRoom(_ dB: Double) { headRoom = min(max(dB, 0.1), 40) }
    /// Expansion ratio R (clamped to 1...50).
    public func setExpansionRatio(_ ratio: Double) { expansionRatio = min(max(ratio, 1), 50) }
    /// Expansion threshold E, dB (clamped to -120...0).
    public func setExpansionThreshold(_ dB: Double) {
        expansionThreshold = min(max(dB, -120), 0)
        updateExpansion()
    }
    /// Both expansion controls at once.
    public func setExpansion(ratio: Double, threshold dB: Double) {
        setExpansionRatio(ratio)
        setExpansionThreshold(dB)
    }
    /// Attack time constant, seconds (clamped to 0.0001...0.2).
    public func setAttack(_ seconds: Double) {
        attackTime = min(max(seconds, 0.0001), 0.2)
        follower.setTimes(attack: attackTime, release: releaseTime, sampleRate: sampleRate)
    }
    /// Release time constant, seconds (clamped to 0.01...3).
    public func setRelease(_ seconds: Double) {
        releaseTime = min(max(seconds, 0.01), 3)
        follower.setTimes(attack: attackTime, release: releaseTime, sampleRate: sampleRate)
    }
    /// Overall (makeup) gain, dB (clamped to -40...40); glides over 10 ms.
    public func setOverallGain(_ dB: Double) {
        overallGain = min(max(dB, -40), 40)
        overall.setTarget(decibels: overallGain)
    }

    private func updateExpansion() { effectiveExpansionThreshold = min(expansionThreshold, threshold) }

    /// Processes `frames` frames (at most `maximumFrames`) of `channels` non-interleaved channels (at most the
    /// `channels` given at init; extra channels are left untouched). `input` may equal `output`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        guard frames > 0 else { return }  // keep the meters
        let n = min(count, channels)
        let t = threshold, h = headRoom, r = expansionRatio, e = effectiveExpansionThreshold
        var level = EnvelopeFollower.floorDB
        var smoothed = smoothedLevel
        var gainDB = 0.0
        for i in 0..<frames {
            var linked = 0.0
            for c in 0..<n {
                let ms = follower.meanSquare(Double(input[c][i]), state: rmsState + c * EnvelopeFollower.stateCount)
                linked = max(linked, ms)
            }
            level = EnvelopeFollower.level(meanSquare: linked)
            smoothed = follower.follow(level, from: smoothed)
            // Past -200 dB the gain is silence anyway; the clamp keeps Float away from underflow.
            let curve = DynamicsCurve.output(inputDB: smoothed, threshold: t, headRoom: h, expansionRatio: r, expansionThreshold: e)
            gainDB = max(curve - smoothed, -200)
            let g = Float(DynamicsMath.amplitude(decibels: gainDB) * overall.next())
            for c in 0..<n { output[c][i] = input[c][i] * g }
        }
        smoothedLevel = smoothed
        compressionAmount = Float(0 - gainDB)  // 0 − x: no -0.0 on the meter
        inputAmplitude = Float(level)
        let outDB = level + gainDB + DynamicsMath.decibels(amplitude: overall.value)
        outputAmplitude = Float(max(outDB, EnvelopeFollower.floorDB))
    }
}
