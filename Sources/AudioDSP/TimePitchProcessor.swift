/// Independent time and pitch: a `VariableRateResampler` reading the input `pitch` times faster (pitch up
/// by that ratio, duration down by it) feeds a `TimeStretcher` at rate `rate / pitch`, so N input frames
/// become about N / rate output frames at `pitch` times the frequency. Resampling first keeps the stretcher's
/// work per output frame independent of the pitch.
///
/// At pitch 1 the resampler copies its input through with the same timing it has at any other pitch, so
/// pitch changes while running do not shift the output in time. `process` is real-time safe.
public final class TimePitchProcessor {
    public let channels: Int
    /// Input time per output time; read at each call.
    public var rate: Double = 1
    /// Frequency ratio (2 is an octave up); read at each call.
    public var pitch: Double = 1

    public let resampler: VariableRateResampler
    public let stretcher: TimeStretcher
    // The same objects, reached without retain/release on the render path (the lets above keep them alive).
    private let resamplerRef: Unmanaged<VariableRateResampler>
    private let stretcherRef: Unmanaged<TimeStretcher>
    private let middleCapacity = 1024
    private let middle: UnsafeMutablePointer<Float>
    private let middleIn: UnsafeMutablePointer<UnsafePointer<Float>>
    private let middleOut: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let inputAt: UnsafeMutablePointer<UnsafePointer<Float>>
    private let outputAt: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private var middleStart = 0
    private var middleCount = 0

    /// `maximumRate` and `maximumPitch` bound the ranges (and the memory): rate in 1/maximumRate ...
    /// maximumRate, pitch in 1/maximumPitch ... maximumPitch.
    public init(sampleRate: Double, channels: Int, maximumRate: Double = 32, maximumPitch: Double = 4,
                settings: TimeStretcherSettings = .music, quality: SampleRateConverterQuality = .min) {
        self.channels = channels
        resampler = VariableRateResampler(channels: channels, maximumStep: maximumPitch, quality: quality)
        stretcher = TimeStretcher(sampleRate: sampleRate, channels: channels, settings: settings,
                                  minimumRate: 1 / (maximumRate * maximumPitch), maximumRate: maximumRate * maximumPitch)
        resamplerRef = Unmanaged.passUnretained(resampler)
        stretcherRef = Unmanaged.passUnretained(stretcher)
        middle = .allocate(capacity: channels * middleCapacity)
        middle.initialize(repeating: 0, count: channels * middleCapacity)
        middleIn = .allocate(capacity: channels)
        middleOut = .allocate(capacity: channels)
        inputAt = .allocate(capacity: channels)
        outputAt = .allocate(capacity: channels)
        for c in 0..<channels {
            middleOut[c] = middle + c * middleCapacity
            middleIn[c] = UnsafePointer(middle + c * middleCapacity)
            inputAt[c] = UnsafePointer(middle)
            outputAt[c] = middle
        }
    }

    deinit {
        middle.deallocate()
        middleIn.deallocate()
        middleOut.deallocate()
        inputAt.deallocate()
        outputAt.deallocate()
    }

    /// Frames the input runs ahead of the output (resampler filter plus stretcher look-ahead).
    public var latencyInputFrames: Int { resampler.latencyInputFrames + stretcher.lookaheadFrames(rate: rate) }

    public var isFinished: Bool {
        @_noLocks @_noAllocation get { stretcherRef._withUnsafeGuaranteedRef { $0.isFinished } }
    }

    /// Forgets all history, as if new.
    @_noLocks @_noAllocation
    public func reset() {
        resamplerRef._withUnsafeGuaranteedRef { $0.reset() }
        stretcherRef._withUnsafeGuaranteedRef { $0.reset() }
        middleStart = 0
        middleCount = 0
    }

    @inline(__always) @_noLocks @_noAllocation
    private func applyParameters() {
        let p = pitch, r = rate
        resamplerRef._withUnsafeGuaranteedRef { $0.step = p }
        stretcherRef._withUnsafeGuaranteedRef { $0.rate = r / p }
    }

    /// Input frames still to pass before `outputFrames` more output frames can be produced (an upper bound).
    @_noLocks @_noAllocation
    public func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        applyParameters()
        let middleNeeded = stretcherRef._withUnsafeGuaranteedRef { $0.inputFramesNeeded(forOutputFrames: outputFrames) } - middleCount
        guard middleNeeded > 0 else { return 0 }
        return resamplerRef._withUnsafeGuaranteedRef { $0.inputFramesNeeded(forOutputFrames: middleNeeded) }
    }

    /// Streaming time and pitch change of planar Float32, with the shape of `TimeStretcher.process`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafePointer<Float>>?, inputFrames: Int, endOfInput: Bool,
                        output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int)
        -> (inputConsumed: Int, outputProduced: Int) {
        applyParameters()
        var available = max(inputFrames, 0)
        if input == nil { available = 0 }
        let capacity = max(outputCapacity, 0)
        var consumed = 0
        var written = 0
        while true {
            var progress = false
            // The resampled frames on hand go into the stretcher (with the end once the resampler is done).
            let last = resamplerRef._withUnsafeGuaranteedRef { $0.isFinished }
            for c in 0..<channels {
                middleIn[c] = UnsafePointer(middle + c * middleCapacity + middleStart)
                outputAt[c] = output[c] + written
            }
            let count = middleCount, room = capacity - written
            let middleIn = UnsafePointer(self.middleIn), outputAt = UnsafePointer(self.outputAt)
            let s = stretcherRef._withUnsafeGuaranteedRef {
                $0.process(input: middleIn, inputFrames: count, endOfInput: last, output: outputAt, outputCapacity: room)
            }
            middleStart += s.inputConsumed
            middleCount -= s.inputConsumed
            written += s.outputProduced
            if s.inputConsumed > 0 { progress = true }
            if s.outputProduced > 0 { progress = true }
            if middleCount == 0, !last {
                middleStart = 0
                var source: UnsafePointer<UnsafePointer<Float>>? = nil
                if let input {
                    for c in 0..<channels { inputAt[c] = input[c] + consumed }
                    source = UnsafePointer(inputAt)
                }
                let remaining = available - consumed, middleOut = UnsafePointer(self.middleOut), room = middleCapacity
                let r = resamplerRef._withUnsafeGuaranteedRef {
                    $0.process(input: source, inputFrames: remaining, endOfInput: endOfInput, output: middleOut, outputCapacity: room)
                }
                consumed += r.inputConsumed
                middleCount = r.outputProduced
                if r.inputConsumed > 0 { progress = true }
                if r.outputProduced > 0 { progress = true }
                if resamplerRef._withUnsafeGuaranteedRef({ $0.isFinished }) { progress = true }
            }
            if !progress { break }
            if stretcherRef._withUnsafeGuaranteedRef({ $0.isFinished }) { break }
        }
        return (consumed, written)
    }
}
