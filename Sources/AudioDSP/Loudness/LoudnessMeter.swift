import Foundation

/// An ITU-R BS.1770-4 / EBU R 128 loudness meter over a whole programme (offline: it keeps every block's energy to
/// gate at the end, so it allocates as it goes and is not for a render thread). Feed interleaved frames with
/// `process`, read `measurement` at any time.
///
/// Blocks follow the recommendation and EBU Tech 3341/3342 as libebur128 counts them: 100 ms steps of round(rate/10)
/// frames; momentary blocks of 400 ms every 100 ms (absolute gate -70 LUFS, relative gate -10 LU); short-term blocks
/// of 3 s every second for the loudness range (relative gate -20 LU, 10th and 95th percentiles by nearest rank).
public final class LoudnessMeter {
    public let sampleRate: Double
    public let channels: Int
    /// Each channel's weight in the sum (BS.1770: 1 for L, R, C; 1.41 for the surrounds; 0 leaves a channel out, as
    /// the LFE).
    public let weights: [Double]
    private var filters: [KWeightingFilter]
    private var peaks: [TruePeakDetector]
    private var samplePeak = 0.0
    private let stepFrames: Int
    private var stepEnergy = 0.0, stepFill = 0
    /// Weighted energy sums of the last 30 steps (newest last).
    private var steps: [Double] = []
    private var stepCount = 0
    /// Mean weighted square of every momentary block and of every short-term block.
    private var momentaryBlocks: [Double] = []
    private var shortTermBlocks: [Double] = []

    /// A meter for interleaved audio of `channels` at `sampleRate`; `weights` per channel (default: libebur128's
    /// default map: 4 channels L R Ls Rs, 5 L R C Ls Rs, otherwise L R C LFE Ls Rs with the LFE and any seventh or later
    /// channel left out).
    public init(sampleRate: Double, channels: Int, weights: [Double]? = nil) {
        self.sampleRate = sampleRate
        self.channels = max(channels, 1)
        self.weights = weights ?? Self.defaultWeights(channels: max(channels, 1))
        filters = Array(repeating: KWeightingFilter(sampleRate: sampleRate), count: max(channels, 1))
        peaks = Array(repeating: TruePeakDetector(sampleRate: sampleRate), count: max(channels, 1))
        stepFrames = max(1, (Int(sampleRate.rounded()) + 5) / 10)
    }

    /// Weights for `channels` in libebur128's default order.
    public static func defaultWeights(channels: Int) -> [Double] {
        switch channels {
        case 4: return [1, 1, 1.41, 1.41]
        case 5: return [1, 1, 1, 1.41, 1.41]
        default: return (0..<channels).map { $0 < 3 ? 1 : $0 == 4 || $0 == 5 ? 1.41 : 0 }
        }
    }

    /// Measures `frames` interleaved frames.
    public func process(_ samples: UnsafePointer<Float>, frames: Int) {
        for f in 0..<frames {
            var energy = 0.0
            for c in 0..<channels {
                let x = Double(samples[f * channels + c])
                samplePeak = max(samplePeak, abs(x))
                peaks[c].process(x)
                let y = filters[c].process(x)
                energy += weights[c] * y * y
            }
            stepEnergy += energy
            stepFill += 1
            if stepFill == stepFrames { endStep() }
        }
    }

    /// A 100 ms step is complete: the momentary block ending here (every step from the fourth) and the short-term
    /// block (every tenth step from the thirtieth) are recorded.
    private func endStep() {
        steps.append(stepEnergy)
        if steps.count > 30 { steps.removeFirst(steps.count - 30) }
        stepEnergy = 0
        stepFill = 0
        stepCount += 1
        if stepCount >= 4 {
            momentaryBlocks.append(steps.suffix(4).reduce(0, +) / Double(4 * stepFrames))
        }
        if stepCount >= 30 && (stepCount - 30) % 10 == 0 {
            shortTermBlocks.append(steps.reduce(0, +) / Double(30 * stepFrames))
        }
    }

    /// Loudness in LUFS of a mean weighted square.
    public static func loudness(_ meanSquare: Double) -> Double { meanSquare > 0 ? -0.691 + 10 * log10(meanSquare) : -.infinity }

    /// The mean square of a block at `lufs`.
    private static func energy(_ lufs: Double) -> Double { pow(10, (lufs + 0.691) / 10) }

    /// What the programme measures so far.
    public var measurement: LoudnessMeasurement {
        LoudnessMeasurement(integrated: Self.integrated(momentaryBlocks), range: Self.range(shortTermBlocks),
                            maxMomentary: Self.loudness(momentaryBlocks.max() ?? 0), maxShortTerm: Self.loudness(shortTermBlocks.max() ?? 0),
                            samplePeak: samplePeak, truePeak: peaks.reduce(0) { max($0, $1.peak) })
    }

    /// Gated integrated loudness of momentary blocks' mean squares.
    static func integrated(_ blocks: [Double]) -> Double {
        let absolute = blocks.filter { $0 >= energy(-70) }
        guard !absolute.isEmpty else { return -.infinity }
        let gate = energy(loudness(absolute.reduce(0, +) / Double(absolute.count)) - 10)
        let gated = absolute.filter { $0 >= gate }
        guard !gated.isEmpty else { return -.infinity }
        return loudness(gated.reduce(0, +) / Double(gated.count))
    }

    /// Loudness range of short-term blocks' mean squares (0 with fewer than two gated blocks' worth of spread).
    static func range(_ blocks: [Double]) -> Double {
        let absolute = blocks.filter { $0 >= energy(-70) }
        guard !absolute.isEmpty else { return 0 }
        let gate = energy(loudness(absolute.reduce(0, +) / Double(absolute.count)) - 20)
        let gated = absolute.filter { $0 >= gate }.sorted()
        guard !gated.isEmpty else { return 0 }
        let low = gated[Int(Double(gated.count - 1) * 0.1 + 0.5)], high = gated[Int(Double(gated.count - 1) * 0.95 + 0.5)]
        return loudness(high) - loudness(low)
    }
}
