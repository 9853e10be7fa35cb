#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine of AUReverb2 ('rvb2'): a 16-line feedback delay network (see FeedbackDelayNetwork) with Apple's
/// seven parameters.
///
/// - dryWetMix (0...100 %, default 100): equal-power crossfade, 0 = dry only (bit-exact), 100 = wet only.
/// - gain (-20...20 dB, default 0): applied to the whole output.
/// - minDelayTime / maxDelayTime (0.0001...1 s, defaults 0.008 / 0.050) and randomizeReflections (1...1000,
///   default 1): the range the delay lines are spread over and the seed of the spread.
/// - decayTimeAt0Hz / decayTimeAtNyquist (0.001...20 s, defaults 1.0 / 0.5): the RT60 at those two frequencies.
///
/// Channels (1...8) share the network: each input feeds it through its own pattern and each output reads it
/// through its own, so the outputs' tails are decorrelated. The wet signal has no direct sound; it starts after
/// the shortest delay. Mix and gain glide over 10 ms; a change of the delay parameters is made under a 5 ms duck
/// of the wet signal. All memory is allocated at init; `process` and the setters allocate nothing, take no lock
/// and make no system call (setters are meant to be called on the render thread between slices).
public final class Reverb2Kernel {
    /// Frames per second.
    public let sampleRate: Double
    /// The most frames one `process` call may be given.
    public let maximumFrames: Int
    /// The channels the kernel was built for (1...8).
    public let channels: Int
    /// Dry/wet mix as set, percent.
    public private(set) var dryWetMix = 100.0
    /// Output gain as set, dB.
    public private(set) var gain = 0.0
    /// The shortest delay line, seconds, as set.
    public var minDelayTime: Double { network.minimumDelayTime }
    /// The longest delay line, seconds, as set.
    public var maxDelayTime: Double { network.maximumDelayTime }
    /// The seed of the delay-line spread, as set.
    public var randomizeReflections: Int { network.seed }
    /// RT60 at 0 Hz, seconds, as set.
    public var decayTimeAt0Hz: Double { network.decayAt0Hz }
    /// RT60 at Nyquist, seconds, as set.
    public var decayTimeAtNyquist: Double { network.decayAtNyquist }

    var network: FeedbackDelayNetwork
    private let wetStorage: UnsafeMutablePointer<Float>
    private let wetBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private var dryRamp: LinearRamp
    private var wetRamp: LinearRamp

    /// A reverb for `channels` channels (clamped to 1...8) at `sampleRate`, processing at most `maximumFrames`
    /// frames per call, with AUReverb2's default parameters.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = Swift.max(1, maximumFrames)
        self.channels = Swift.min(Swift.max(channels, 1), 8)
        network = FeedbackDelayNetwork(sampleRate: sampleRate, channels: self.channels, lineCount: 16, maximumDelay: 1.0)
        wetStorage = .allocate(capacity: self.maximumFrames * self.channels)
        wetStorage.initialize(repeating: 0, count: self.maximumFrames * self.channels)
        wetBuffers = .allocate(capacity: self.channels)
        for c in 0..<self.channels { (wetBuffers + c).initialize(to: wetStorage + c * self.maximumFrames) }
        let ramp = Int(0.010 * sampleRate)
        dryRamp = LinearRamp(value: 0, length: ramp)
        wetRamp = LinearRamp(value: 1, length: ramp)
    }

    deinit {
        wetStorage.deallocate()
        wetBuffers.deallocate()
    }

    /// Sets the dry/wet mix, percent (clamped to 0...100); glides over 10 ms.
    public func setDryWetMix(_ percent: Double) {
        let p = percent.isNaN ? 100 : Swift.min(Swift.max(percent, 0), 100)
        if p == dryWetMix { return }
        dryWetMix = p
        updateLevels()
    }

    /// Sets the output gain, dB (clamped to -20...20); glides over 10 ms.
    public func setGain(_ decibels: Double) {
        let g = decibels.isNaN ? 0 : Swift.min(Swift.max(decibels, -20), 20)
        if g == gain { return }
        gain = g
        updateLevels()
    }

    /// Sets the range the delay lines are spread over (seconds, 0.0001...1; min above max is taken as the other
    /// way round) and the seed that picks the spread. Only a real change re-spreads the lines, ducked.
    public func setDelayTimes(minimum: Double, maximum: Double, randomizeReflections seed: Int) {
        network.setDelays(minimum: minimum, maximum: maximum, seed: Swift.min(Swift.max(seed, 1), 1000))
    }

    /// Sets the RT60 at 0 Hz and at Nyquist (seconds, clamped to 0.001...20); takes effect at once.
    public func setDecayTimes(at0Hz: Double, atNyquist: Double) {
        network.setDecay(at0Hz: Swift.min(at0Hz, 20), atNyquist: Swift.min(atNyquist, 20))
    }

    /// Sets the delay and decay parameters from one of Apple's room types (kAudioUnitProperty_ReverbRoomType).
    public func apply(_ room: ReverbRoomPreset) {
        setDelayTimes(minimum: room.minDelayTime, maximum: room.maxDelayTime, randomizeReflections: randomizeReflections)
        setDecayTimes(at0Hz: room.decayTimeAt0Hz, atNyquist: room.decayTimeAtNyquist)
    }

    /// Seconds the output goes on after the input stops: the longer RT60 plus the longest delay.
    public var tailTime: Double { network.tailTime }

    /// Clears the reverberation, and lands every glide and pending change on its target (the first audio after
    /// a reset uses the parameters as set, without a ramp).
    public func reset() {
        network.reset()
        dryRamp.settle()
        wetRamp.settle()
    }

    /// Processes `frames` (at most `maximumFrames`) of `channels` non-interleaved channels (at most the channels
    /// the kernel was built for); `output` may be `input`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels: Int, frames: Int) {
        let fits = frames <= maximumFrames, known = channels <= self.channels
        precondition(fits && known, "more frames or channels than the kernel was built for")
        network.render(input: input, inputChannels: channels, output: UnsafePointer(wetBuffers), outputChannels: channels, frames: frames)
        var dry = dryRamp, wet = wetRamp
        let wetBuffers = self.wetBuffers
        var frame = 0
        while frame < frames {
            let d = dry.next(), w = wet.next()
            var c = 0
            while c < channels {
                output[c][frame] = input[c][frame] * d + wetBuffers[c][frame] * w
                c += 1
            }
            frame += 1
        }
        dryRamp = dry
        wetRamp = wet
    }

    private func updateLevels() {
        let linear = gain == 0 ? 1 : pow(10, gain / 20)
        // Equal-power crossfade, with exact ends so that 0 % is bit-transparent and 100 % has no dry at all.
        let angle = dryWetMix / 100 * Double.pi / 2
        let dry = dryWetMix <= 0 ? 1 : dryWetMix >= 100 ? 0 : cos(angle)
        let wet = dryWetMix <= 0 ? 0 : dryWetMix >= 100 ? 1 : sin(angle)
        dryRamp.set(Float(linear * dry))
        wetRamp.set(Float(linear * wet))
    }
}
