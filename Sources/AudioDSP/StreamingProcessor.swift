/// The shape every streaming processor in AudioDSP shares (the sample-rate converter, the variable-rate
/// resampler, the time stretcher, the time-pitch processor), so the next one follows the same pattern.
///
/// Verbs, one meaning each across AudioDSP and the units: `process` streams (consumes what input it can,
/// produces what output fits, and says how much of each); `apply` transforms exactly `count` frames of a
/// block (the kernels' static functions, an effect unit's `applyEffect`); `render` pulls (audio units).
///
/// Threading: every member may be called from one thread at a time; `process` is real-time safe
/// (no allocation, no lock), the rest is not.
public protocol StreamingProcessor: AnyObject {
    /// Channels, each a planar Float32 buffer.
    var channels: Int { get }
    /// Input frames the output lags behind (at the current settings): what `process` holds back.
    var latencyInputFrames: Int { get }
    /// True once end of input was given and every output frame has been produced.
    var isFinished: Bool { get }
    /// Forgets all history, as if new.
    func reset()
    /// The input frames needed to produce `outputFrames` more output frames now.
    func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int
    /// Consumes up to `inputFrames` frames of `input` (nil: none now) and writes up to `outputCapacity`
    /// frames to `output`; `endOfInput` says no input follows `input`, so the held-back tail is flushed.
    func process(input: UnsafePointer<UnsafePointer<Float>>?, inputFrames: Int, endOfInput: Bool,
                 output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> (inputConsumed: Int, outputProduced: Int)
}

extension SampleRateConverter: StreamingProcessor {}
extension VariableRateResampler: StreamingProcessor {}
extension TimePitchProcessor: StreamingProcessor {}
extension TimeStretcher: StreamingProcessor {
    /// `lookaheadFrames(rate:)` at the current rate.
    public var latencyInputFrames: Int { lookaheadFrames(rate: rate) }
}
