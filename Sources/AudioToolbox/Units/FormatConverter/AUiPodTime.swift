import AudioDSP

/// AUiPodTime (`'aufc' 'iptm' 'appl'`, also registered as AUiPodTimeOther `'aufc' 'ipto' 'appl'`), as
/// Technical Q&A QA1717 describes it: a time stretcher for audio books and speech, playback rate 0.5x to 2x
/// without changing pitch. One or two channels, canonical format in and out with the same channel count and
/// sample rate (any rate).
///
/// `kTimePitchParam_Rate` (global, rate, 0.5...2, default 1) is "rounded by the unit to whichever of the
/// following is closest: 0.5, 0.66667, 0.8, 1.0, 1.25, 1.5, 2": the value stored, and read back, is the rounded
/// one. A value halfway between two rates (0.583335, 0.733335, 0.9, 1.125, 1.375, 1.75) goes to the faster
/// one; values outside the range go to its ends. The rate can change while playing: the stretcher re-anchors
/// its time map at its next frame, so the output stays continuous.
///
/// AudioDSP's `TimeStretcher` with the speech preset (12 ms frames, overlap 4, ±8 ms search). Output time t
/// plays input time t·rate: at rate 1 the output is the input, unchanged and undelayed, so Latency is 0 (the
/// unit pulls its look-ahead, up to about 22 ms of input, ahead instead of delaying the output). TailTime is
/// half a frame (6 ms): how far a window reaches past its input.
final class AUiPodTime: VariableInputUnit, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUiPodTime,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let otherDescription = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUiPodTimeOther,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// QA1717's rates, and the midpoints between neighbours (at or above a midpoint: the faster rate).
    static let rates: [Float] = [0.5, 0.66667, 0.8, 1.0, 1.25, 1.5, 2]
    static let midpoints: [Float] = [0.583335, 0.733335, 0.9, 1.125, 1.375, 1.75]

    /// The rate QA1717's unit plays for `value`.
    @inline(__always)
    static func roundedRate(_ value: Float) -> Float {
        // Unrolled: static array access on the render thread would touch lazy globals.
        if !(value >= 0.583335) { return 0.5 }  // also NaN
        if value < 0.733335 { return 0.66667 }
        if value < 0.9 { return 0.8 }
        if value < 1.125 { return 1 }
        if value < 1.375 { return 1.25 }
        if value < 1.75 { return 1.5 }
        return 2
    }

    private var stretcher: TimeStretcher?
    private var frameDuration: Double { TimeStretcherSettings.standard.frameDuration }

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineParameter(kTimePitchParam_Rate, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Playback Rate", unit: .rate, min: 0.5, max: 2, default: 1))
    }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        guard id == kTimePitchParam_Rate, scope == kAudioUnitScope_Global, element == 0, value.isFinite else {
            return super.setParameter(id, scope, element, value, bufferOffset)
        }
        return super.setParameter(id, scope, element, Self.roundedRate(value), bufferOffset)
    }

    override var latency: Double { 0 }
    override var tailTime: Double? { frameDuration / 2 }

    override func makeProcessor(sampleRate: Double, channels: Int) {
        stretcher = TimeStretcher(sampleRate: sampleRate, channels: channels, settings: .standard, minimumRate: 0.5, maximumRate: 2)
    }

    override func releaseProcessor() { stretcher = nil }
    override func resetProcessor() { stretcher?.reset() }

    override func prepareSlice() {
        let value = parameterValue(kTimePitchParam_Rate, kAudioUnitScope_Global, 0)
        let rate = Self.roundedRate(value)
        // A scheduled value is rounded here, and stored so that it reads back rounded as well.
        if rate != value { storeClamped(kTimePitchParam_Rate, rate, min: 0.5, max: 2) }
        stretcher?.rate = Double(rate)
    }

    override func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        stretcher?.inputFramesNeeded(forOutputFrames: outputFrames) ?? 0
    }

    override func process(input: UnsafePointer<UnsafePointer<Float>>, inputFrames: Int,
                          output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> (inputConsumed: Int, outputProduced: Int) {
        guard let stretcher else { return (0, 0) }
        return stretcher.process(input: input, inputFrames: inputFrames, endOfInput: false, output: output, outputCapacity: outputCapacity)
    }
}
