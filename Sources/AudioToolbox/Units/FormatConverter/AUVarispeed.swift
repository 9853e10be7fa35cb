import AudioDSP
#if canImport(Glibc)
import Glibc
#endif

/// AUVarispeed (`'aufc' 'vari' 'appl'`): playback rate with the pitch following, like a tape sped up or
/// slowed down. One or two channels, canonical format in and out with the same channel count and sample rate.
///
/// Parameters (global): `kVarispeedParam_PlaybackRate` (rate, 0.25...4, default 1) and
/// `kVarispeedParam_PlaybackCents` (cents, -2400...2400, default 0) are two views of one setting, linked as
/// Apple's are: rate = 2^(cents/1200). Setting one stores the other (both clamped to their ranges); for
/// scheduled events the render takes whichever changed since the last slice (the rate if both did).
///
/// AudioDSP's `VariableRateResampler` (windowed sinc, its cutoff following the output's Nyquist when reading
/// faster than 1). Output frame k plays input time k·rate with the filter delay compensated, so Latency is 0
/// (the unit pulls the filter's half length ahead instead); TailTime is that half length at 4x.
final class AUVarispeed: VariableInputUnit, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Varispeed,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var resampler: VariableRateResampler?
    /// The parameter values the render last saw (render thread).
    private var lastRate: Float = 1
    private var lastCents: Float = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineParameter(kVarispeedParam_PlaybackRate, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Playback Rate", unit: .rate, min: 0.25, max: 4, default: 1, flags: [.flag_DisplayLogarithmic]))
        defineParameter(kVarispeedParam_PlaybackCents, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Playback Cents", unit: .cents, min: -2400, max: 2400, default: 0))
    }

    @inline(__always) static func cents(forRate rate: Float) -> Float { Float(1200 * log2(Double(min(max(rate, 0.25), 4)))) }
    @inline(__always) static func rate(forCents cents: Float) -> Float { Float(exp2(Double(min(max(cents, -2400), 2400)) / 1200)) }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        let status = super.setParameter(id, scope, element, value, bufferOffset)
        guard status == noErr, scope == kAudioUnitScope_Global else { return status }
        switch id {
        case kVarispeedParam_PlaybackRate:
            storeClamped(kVarispeedParam_PlaybackRate, value, min: 0.25, max: 4)
            storeClamped(kVarispeedParam_PlaybackCents, Self.cents(forRate: value), min: -2400, max: 2400)
        case kVarispeedParam_PlaybackCents:
            storeClamped(kVarispeedParam_PlaybackCents, value, min: -2400, max: 2400)
            storeClamped(kVarispeedParam_PlaybackRate, Self.rate(forCents: value), min: 0.25, max: 4)
        default:
            break
        }
        return status
    }

    override var latency: Double { 0 }
    override var tailTime: Double? {
        guard let resampler else { return 0 }
        return Double(resampler.latencyInputFrames) / outputs[0].format.mSampleRate
    }

    override func makeProcessor(sampleRate: Double, channels: Int) {
        resampler = VariableRateResampler(channels: channels, maximumStep: 4)
    }

    override func releaseProcessor() { resampler = nil }
    override func resetProcessor() { resampler?.reset() }

    override func prepareSlice() {
        guard let resampler else { return }
        let storedRate = parameterValue(kVarispeedParam_PlaybackRate, kAudioUnitScope_Global, 0)
        let storedCents = parameterValue(kVarispeedParam_PlaybackCents, kAudioUnitScope_Global, 0)
        if storedRate != lastRate {
            storeClamped(kVarispeedParam_PlaybackCents, Self.cents(forRate: storedRate), min: -2400, max: 2400)
        } else if storedCents != lastCents {
            // Only the cents moved (a scheduled event): the rate follows.
            storeClamped(kVarispeedParam_PlaybackRate, Self.rate(forCents: storedCents), min: 0.25, max: 4)
        }
        lastRate = parameterValue(kVarispeedParam_PlaybackRate, kAudioUnitScope_Global, 0)
        lastCents = parameterValue(kVarispeedParam_PlaybackCents, kAudioUnitScope_Global, 0)
        resampler.step = Double(min(max(lastRate, 0.25), 4))
    }

    override func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        resampler?.inputFramesNeeded(forOutputFrames: outputFrames) ?? 0
    }

    override func process(input: UnsafePointer<UnsafePointer<Float>>, inputFrames: Int,
                          output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> (inputConsumed: Int, outputProduced: Int) {
        guard let resampler else { return (0, 0) }
        return resampler.process(input: input, inputFrames: inputFrames, endOfInput: false, output: output, outputCapacity: outputCapacity)
    }
}
