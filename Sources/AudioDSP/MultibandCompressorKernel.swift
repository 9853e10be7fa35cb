/// A four-band compressor with AUMultibandCompressor's controls ('aufx' 'mcmp').
///
/// Pre-gain, then a tree of 4th-order Linkwitz-Riley crossovers at f1 < f2 < f3 (see `LinkwitzRileyCrossover`):
/// the input splits at f2; the low half passes f3's allpass and splits at f1 into bands 1 and 2; the high half
/// passes f1's allpass and splits at f3 into bands 3 and 4. Every path then carries all three crossovers' allpass
/// phase, so with unity band gains the four bands sum to A1·A2·A3, an allpass: the magnitude is flat (to rounding)
/// whatever the crossover frequencies, even out of order.
///
/// Each band has its own detector (`EnvelopeFollower`: 5 ms RMS, stereo-linked, attack/release ballistics in dB,
/// shared times) and the dynamics processor's static curve without expansion (`DynamicsCurve`: out = T + H·tanh((in
/// − T)/H) above the band's threshold T, unity below), then its EQ gain; the bands are summed and the post-gain
/// applied. Pre-, post- and EQ gains glide over 10 ms. Band indices are 0...3 (Apple's bands 1...4), crossover
/// indices 0...2 (Apple's Crossover1...3).
///
/// Note that an EQ gain G on a band scales that band's share of the signal, and LR4 bands overlap: a tone at
/// frequency f rises by 20·log10(1 + (G − 1)·m(f)), where m is the band's magnitude (at the geometric centre of the
/// default band 3, 700...3000 Hz, m ≈ 0.90, so +6 dB of EQ gives +5.6 dB).
///
/// Real-time: all memory is allocated at init; `process` and the setters allocate nothing, lock nothing and make no
/// system call. Latency 0; the tail is the crossovers' ring-out.
public final class MultibandCompressorKernel {
    /// The sample rate, Hz.
    public let sampleRate: Double
    /// The most frames one `process` call may pass.
    public let maximumFrames: Int
    /// The most channels one `process` call may pass (1...8).
    public let channels: Int

    /// Gain before the crossovers, dB (-40...40, default 0).
    public private(set) var preGain = 0.0
    /// Gain after the bands are summed, dB (-40...40, default 0).
    public private(set) var postGain = 0.0
    /// Attack time constant of every band's detector, seconds (0.001...0.2, default 0.080).
    public private(set) var attackTime = 0.080
    /// Release time constant of every band's detector, seconds (0.01...3, default 0.120).
    public private(set) var releaseTime = 0.120

    private var crossover1: LinkwitzRileyCrossover
    private var crossover2: LinkwitzRileyCrossover
    private var crossover3: LinkwitzRileyCrossover
    private let thresholds = UnsafeMutablePointer<Double>.allocate(capacity: 4)
    private let headrooms = UnsafeMutablePointer<Double>.allocate(capacity: 4)
    private let eqDB = UnsafeMutablePointer<Double>.allocate(capacity: 4)
    private let eqGains = UnsafeMutablePointer<SmoothedGain>.allocate(capacity: 4)
    private let levels = UnsafeMutablePointer<Double>.allocate(capacity: 4)      // after the ballistics, dB
    private let linked = UnsafeMutablePointer<Double>.allocate(capacity: 4)      // per-frame scratch
    private let bandGains = UnsafeMutablePointer<Double>.allocate(capacity: 4)   // per-frame scratch
    private let meters = UnsafeMutablePointer<Float>.allocate(capacity: 12)      // compression, input, output × 4
    private let filterState: UnsafeMutablePointer<Double>                        // filterStride per channel
    private let rmsState: UnsafeMutablePointer<Double>                           // 4 × 2 per channel
    private let bands: UnsafeMutablePointer<Double>                              // 4 per channel, per-frame scratch
    private var follower: EnvelopeFollower
    private var pre: SmoothedGain
    private var post: SmoothedGain

    // Per channel: split at f2 (8), allpasses f3 and f1 (2 + 2), splits at f1 and f3 (8 + 8).
    private let filterStride = 28

    /// A compressor for up to `channels` channels (clamped to 1...8) of at most `maximumFrames` frames per call,
    /// with Apple's defaults.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.channels = min(max(channels, 1), 8)
        crossover1 = LinkwitzRileyCrossover(frequency: 120, sampleRate: sampleRate)
        crossover2 = LinkwitzRileyCrossover(frequency: 700, sampleRate: sampleRate)
        crossover3 = LinkwitzRileyCrossover(frequency: 3000, sampleRate: sampleRate)
        filterState = .allocate(capacity: self.channels * filterStride)
        rmsState = .allocate(capacity: self.channels * 4 * EnvelopeFollower.stateCount)
        bands = .allocate(capacity: self.channels * 4)
        follower = EnvelopeFollower(sampleRate: sampleRate, attack: 0.080, release: 0.120)
        pre = SmoothedGain(sampleRate: sampleRate)
        post = SmoothedGain(sampleRate: sampleRate)
        let defaults: [(threshold: Double, headroom: Double)] = [(-22, 5), (-32, 12), (-33, 5), (-36, 7.5)]
        for k in 0..<4 {
            thresholds[k] = defaults[k].threshold
            headrooms[k] = defaults[k].headroom
            eqDB[k] = 0
            (eqGains + k).initialize(to: SmoothedGain(sampleRate: sampleRate))
        }
        linked.initialize(repeating: 0, count: 4)
        bandGains.initialize(repeating: 1, count: 4)
        bands.initialize(repeating: 0, count: self.channels * 4)
        filterState.initialize(repeating: 0, count: self.channels * filterStride)
        rmsState.initialize(repeating: 0, count: self.channels * 4 * EnvelopeFollower.stateCount)
        levels.initialize(repeating: EnvelopeFollower.floorDB, count: 4)
        meters.initialize(repeating: 0, count: 12)
        reset()
    }

    deinit {
        thresholds.deallocate()
        headrooms.deallocate()
        eqDB.deallocate()
        eqGains.deinitialize(count: 4)
        eqGains.deallocate()
        levels.deallocate()
        linked.deallocate()
        bandGains.deallocate()
        meters.deallocate()
        filterState.deallocate()
        rmsState.deallocate()
        bands.deallocate()
    }

    /// Crossover `index` (0...2, Apple's Crossover1...3), Hz.
    public func crossover(_ index: Int) -> Double {
        switch index {
        case 0: crossover1.frequency
        case 1: crossover2.frequency
        default: crossover3.frequency
        }
    }
    /// Band `band`'s threshold (0...3), dB.
    public func threshold(band: Int) -> Double { thresholds[min(max(band, 0), 3)] }
    /// Band `band`'s headroom (0...3), dB.
    public func headroom(band: Int) -> Double { headrooms[min(max(band, 0), 3)] }
    /// Band `band`'s EQ (output) gain (0...3), dB.
    public func eq(band: Int) -> Double { eqDB[min(max(band, 0), 3)] }

    /// Meter: band `band`'s gain reduction at the end of the last slice, dB, ≥ 0 (Apple's range 0...20).
    public func compressionAmount(band: Int) -> Float { meters[min(max(band, 0), 3)] }
    /// Meter: band `band`'s detected level at the end of the last slice, dB (sine-calibrated RMS, floor -120).
    public func inputAmplitude(band: Int) -> Float { meters[4 + min(max(band, 0), 3)] }
    /// Meter: band `band`'s level after its compression and EQ (before the post-gain), dB, floor -120.
    public func outputAmplitude(band: Int) -> Float { meters[8 + min(max(band, 0), 3)] }

    /// Latency: none (IIR crossovers).
    public var latencySeconds: Double { 0 }
    /// Ring-out of the crossovers after the input stops: 4 / (lowest crossover) seconds, where the slowest
    /// (double) pole pair of a 4th-order Linkwitz-Riley section has decayed by more than 120 dB.
    public var tailSeconds: Double { 4 / min(crossover1.frequency, crossover2.frequency, crossover3.frequency) }

    /// Clears the filters and detectors and lands the gliding gains on their targets.
    public func reset() {
        filterState.update(repeating: 0, count: channels * filterStride)
        rmsState.update(repeating: 0, count: channels * 4 * EnvelopeFollower.stateCount)
        levels.update(repeating: EnvelopeFollower.floorDB, count: 4)
        for k in 0..<4 {
            eqGains[k].settle()
            meters[k] = 0
            meters[4 + k] = Float(EnvelopeFollower.floorDB)
            meters[8 + k] = Float(EnvelopeFollower.floorDB)
        }
        pre.settle()
        post.settle()
    }

    /// Jumps the gliding gains to their targets (a unit's first parameters, before any audio).
    public func settle() {
        pre.settle()
        post.settle()
        for k in 0..<4 { eqGains[k].settle() }
    }

    /// Pre-gain, dB (clamped to -40...40).
    public func setPreGain(_ dB: Double) {
        preGain = min(max(dB, -40), 40)
        pre.setTarget(decibels: preGain)
    }
    /// Post-gain, dB (clamped to -40...40).
    public func setPostGain(_ dB: Double) {
        postGain = min(max(dB, -40), 40)
        post.setTarget(decibels: postGain)
    }
    /// Crossover `index` (0...2), Hz (clamped to 20 Hz...Nyquist; designs stop at 0.49 of the rate). Out-of-range
    /// indices are ignored. The filter state carries over.
    public func setCrossover(_ hertz: Double, index: Int) {
        let f = min(max(hertz, 20), sampleRate / 2)
        switch index {
        case 0: crossover1.setFrequency(f, sampleRate: sampleRate)
        case 1: crossover2.setFrequency(f, sampleRate: sampleRate)
        case 2: crossover3.setFrequency(f, sampleRate: sampleRate)
        default: break
        }
    }
    /// Band `band`'s threshold (0...3), dB (clamped to -100...0).
    public func setThreshold(_ dB: Double, band: Int) {
        guard (0..<4).contains(band) else { return }
        thresholds[band] = min(max(dB, -100), 0)
    }
    /// Band `band`'s headroom (0...3), dB (clamped to 0.1...40).
    public func setHeadroom(_ dB: Double, band: Int) {
        guard (0..<4).contains(band) else { return }
        headrooms[band] = min(max(dB, 0.1), 40)
    }
    /// Band `band`'s EQ gain (0...3), dB (clamped to -20...20); glides over 10 ms.
    public func setEQ(_ dB: Double, band: Int) {
        guard (0..<4).contains(band) else { return }
        eqDB[band] = min(max(dB, -20), 20)
        eqGains[band].setTarget(decibels: eqDB[band])
    }
    /// Attack time constant, seconds (clamped to 0.001...0.2).
    public func setAttack(_ seconds: Double) {
        attackTime = min(max(seconds, 0.001), 0.2)
        follower.setTimes(attack: attackTime, release: releaseTime, sampleRate: sampleRate)
    }
    /// Release time constant, seconds (clamped to 0.01...3).
    public func setRelease(_ seconds: Double) {
        releaseTime = min(max(seconds, 0.01), 3)
        follower.setTimes(attack: attackTime, release: releaseTime, sampleRate: sampleRate)
    }

    /// Processes `frames` frames (at most `maximumFrames`) of `channels` non-interleaved channels (at most the
    /// `channels` given at init; extra channels are left untouched). `input` may equal `output`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        let n = min(count, channels)
        let stride = filterStride, rmsStride = EnvelopeFollower.stateCount
        let xo1 = crossover1, xo2 = crossover2, xo3 = crossover3
        let floor = EnvelopeFollower.floorDB
        for i in 0..<frames {
            let pg = pre.next(), og = post.next()
            for k in 0..<4 { linked[k] = 0 }
            for c in 0..<n {
                let state = filterState + c * stride
                let split = xo2.split(Double(input[c][i]) * pg, state: state)
                let low = xo3.allpass(split.low, state: state + 8)
                let high = xo1.allpass(split.high, state: state + 10)
                let lowBands = xo1.split(low, state: state + 12)
                let highBands = xo3.split(high, state: state + 20)
                let b = bands + c * 4
                b[0] = lowBands.low
                b[1] = lowBands.high
                b[2] = highBands.low
                b[3] = highBands.high
                for k in 0..<4 {
                    let ms = follower.meanSquare(b[k], state: rmsState + (c * 4 + k) * rmsStride)
                    linked[k] = max(linked[k], ms)
                }
            }
            let last = i == frames - 1
            for k in 0..<4 {
                let level = EnvelopeFollower.level(meanSquare: linked[k])
                let smoothed = follower.follow(level, from: levels[k])
                levels[k] = smoothed
                let gainDB = DynamicsCurve.output(inputDB: smoothed, threshold: thresholds[k], headRoom: headrooms[k],
                                                  expansionRatio: 1, expansionThreshold: -.infinity) - smoothed
                let eq = eqGains[k].next()
                bandGains[k] = DynamicsMath.amplitude(decibels: gainDB) * eq * og
                if last {
                    meters[k] = Float(0 - gainDB)  // 0 − x: no -0.0 on the meter
                    meters[4 + k] = Float(level)
                    meters[8 + k] = Float(max(level + gainDB + DynamicsMath.decibels(amplitude: eq), floor))
                }
            }
            for c in 0..<n {
                let b = bands + c * 4
                let y = b[0] * bandGains[0] + b[1] * bandGains[1] + b[2] * bandGains[2] + b[3] * bandGains[3]
                output[c][i] = Float(y)
            }
        }
    }
}
