#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine of AUMatrixReverb ('mrev'): a small room (the early part) and a large room (the late part), each a
/// feedback delay network (see FeedbackDelayNetwork), mixed. How Apple's parameters (MatrixReverbParameters)
/// drive them:
///
/// - Small part, 8 lines: longest delay = SmallSize, shortest = SmallSize·(1 - 0.9·SmallDelayRange);
///   RT60 at 0 Hz = 40·SmallSize·(0.25 + SmallDensity) (0.05 s to 1 s; 0.42 s at the defaults), at Nyquist that
///   times SmallBrightness; pre-delay = PreDelay.
/// - Large part, 16 lines: RT60 at 0 Hz = LargeSize, at Nyquist LargeSize·LargeBrightness; longest delay =
///   0.12 s - 0.1 s·LargeDensity (denser, shorter lines, more echoes per second), shortest = longest·(1 - 0.9·
///   LargeDelayRange); pre-delay = PreDelay + LargeDelay; each output rotates between two orthogonal tap patterns
///   by up to ModulationDepth·45° at ModulationRate (a slow movement of the tail with no pitch change).
/// - SmallLargeMix: equal-power crossfade from small (0 %) to large (100 %); DryWetMix: equal-power crossfade from
///   dry (0 %, bit-exact) to wet (100 %). Both glide over 10 ms.
///
/// So the decay the late tail shows at low frequencies is LargeSize (`parameters.largeSize`, or a room's
/// `decayTimeAt0Hz` after `apply(_:)`). All memory is allocated at init; `process` and `setParameters` allocate
/// nothing, take no lock and make no system call.
public final class MatrixReverbKernel {
    /// Frames per second.
    public let sampleRate: Double
    /// The most frames one `process` call may be given.
    public let maximumFrames: Int
    /// The channels the kernel was built for (1...8).
    public let channels: Int
    /// The parameters in force, each clamped to Apple's range.
    public private(set) var parameters = MatrixReverbParameters()

    var small: FeedbackDelayNetwork
    var large: FeedbackDelayNetwork
    private let storage: UnsafeMutablePointer<Float>
    private let smallBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let largeBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private var dryRamp: LinearRamp
    private var smallRamp: LinearRamp
    private var largeRamp: LinearRamp

    /// A reverb for `channels` channels (clamped to 1...8) at `sampleRate`, processing at most `maximumFrames`
    /// frames per call, with AUMatrixReverb's default parameters.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = Swift.max(1, maximumFrames)
        self.channels = Swift.min(Swift.max(channels, 1), 8)
        small = FeedbackDelayNetwork(sampleRate: sampleRate, channels: self.channels, lineCount: 8,
                                     maximumDelay: 0.020, maximumPreDelay: 0.030)
        large = FeedbackDelayNetwork(sampleRate: sampleRate, channels: self.channels, lineCount: 16,
                                     maximumDelay: 0.120, maximumPreDelay: 0.130)
        let count = self.maximumFrames * self.channels
        storage = .allocate(capacity: 2 * count)
        storage.initialize(repeating: 0, count: 2 * count)
        smallBuffers = .allocate(capacity: self.channels)
        largeBuffers = .allocate(capacity: self.channels)
        for c in 0..<self.channels {
            (smallBuffers + c).initialize(to: storage + c * self.maximumFrames)
            (largeBuffers + c).initialize(to: storage + count + c * self.maximumFrames)
        }
        let ramp = Int(0.010 * sampleRate)
        dryRamp = LinearRamp(value: 0, length: ramp)
        smallRamp = LinearRamp(value: 0, length: ramp)
        largeRamp = LinearRamp(value: 0, length: ramp)
        configure(parameters)
        reset()
    }

    deinit {
        storage.deallocate()
        smallBuffers.deallocate()
        largeBuffers.deallocate()
    }

    /// Takes new parameters (clamped to Apple's ranges); only what changed is recomputed. Levels glide over
    /// 10 ms, decay changes act at once, delay changes are made under a 5 ms duck.
    public func setParameters(_ newValue: MatrixReverbParameters) {
        let p = Self.clamped(newValue)
        if p == parameters { return }
        configure(p)
    }

    /// Sets the room-driven parameters from one of Apple's room types, keeping the rest
    /// (see ReverbRoomPreset.applied(to:)).
    public func apply(_ room: ReverbRoomPreset) {
        setParameters(room.applied(to: parameters))
    }

    /// Seconds the output goes on after the input stops (the longer of the two parts' tails).
    public var tailTime: Double { Swift.max(small.tailTime, large.tailTime) }

    /// Clears the reverberation, and lands every glide and pending change on its target.
    public func reset() {
        small.reset()
        large.reset()
        dryRamp.settle()
        smallRamp.settle()
        largeRamp.settle()
    }

    /// Processes `frames` (at most `maximumFrames`) of `channels` non-interleaved channels (at most the channels
    /// the kernel was built for); `output` may be `input`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels: Int, frames: Int) {
        let fits = frames <= maximumFrames, known = channels <= self.channels
        precondition(fits && known, "more frames or channels than the kernel was built for")
        let smallBuffers = self.smallBuffers, largeBuffers = self.largeBuffers
        small.render(input: input, inputChannels: channels, output: UnsafePointer(smallBuffers), outputChannels: channels, frames: frames)
        large.render(input: input, inputChannels: channels, output: UnsafePointer(largeBuffers), outputChannels: channels, frames: frames)
        var dry = dryRamp, early = smallRamp, late = largeRamp
        var frame = 0
        while frame < frames {
            let d = dry.next(), s = early.next(), l = late.next()
            var c = 0
            while c < channels {
                output[c][frame] = input[c][frame] * d + smallBuffers[c][frame] * s + largeBuffers[c][frame] * l
                c += 1
            }
            frame += 1
        }
        dryRamp = dry
        smallRamp = early
        largeRamp = late
    }

    private func configure(_ p: MatrixReverbParameters) {
        parameters = p
        let smallDecay = 40 * p.smallSize * (0.25 + p.smallDensity)
        small.setDecay(at0Hz: smallDecay, atNyquist: smallDecay * p.smallBrightness)
        small.setDelays(minimum: p.smallSize * (1 - 0.9 * p.smallDelayRange), maximum: p.smallSize, seed: 1)
        small.setPreDelay(p.preDelay)
        large.setDecay(at0Hz: p.largeSize, atNyquist: p.largeSize * p.largeBrightness)
        let longest = 0.12 - 0.1 * p.largeDensity
        large.setDelays(minimum: longest * (1 - 0.9 * p.largeDelayRange), maximum: longest, seed: 1)
        large.setPreDelay(p.preDelay + p.largeDelay)
        large.setModulation(rate: p.modulationRate, depth: p.modulationDepth)

        let wetAngle = p.dryWetMix / 100 * Double.pi / 2, mixAngle = p.smallLargeMix / 100 * Double.pi / 2
        // Exact ends, so 0 % is bit-transparent and 100 % carries no dry at all.
        let dry = p.dryWetMix <= 0 ? 1 : p.dryWetMix >= 100 ? 0 : cos(wetAngle)
        let wet = p.dryWetMix <= 0 ? 0 : p.dryWetMix >= 100 ? 1 : sin(wetAngle)
        let early = p.smallLargeMix <= 0 ? 1 : p.smallLargeMix >= 100 ? 0 : cos(mixAngle)
        let late = p.smallLargeMix <= 0 ? 0 : p.smallLargeMix >= 100 ? 1 : sin(mixAngle)
        dryRamp.set(Float(dry))
        smallRamp.set(Float(wet * early))
        largeRamp.set(Float(wet * late))
    }

    private static func clamped(_ p: MatrixReverbParameters) -> MatrixReverbParameters {
        func c(_ v: Double, _ lo: Double, _ hi: Double) -> Double { v.isNaN ? lo : Swift.min(Swift.max(v, lo), hi) }
        var q = p
        q.dryWetMix = c(p.dryWetMix, 0, 100)
        q.smallLargeMix = c(p.smallLargeMix, 0, 100)
        q.smallSize = c(p.smallSize, 0.005, 0.020)
        q.largeSize = c(p.largeSize, 0.4, 10)
        q.preDelay = c(p.preDelay, 0.001, 0.03)
        q.largeDelay = c(p.largeDelay, 0.001, 0.1)
        q.smallDensity = c(p.smallDensity, 0, 1)
        q.largeDensity = c(p.largeDensity, 0, 1)
        q.largeDelayRange = c(p.largeDelayRange, 0, 1)
        q.smallBrightness = c(p.smallBrightness, 0.1, 1)
        q.largeBrightness = c(p.largeBrightness, 0.1, 1)
        q.smallDelayRange = c(p.smallDelayRange, 0, 1)
        q.modulationRate = c(p.modulationRate, 0.001, 2)
        q.modulationDepth = c(p.modulationDepth, 0, 1)
        return q
    }
}
