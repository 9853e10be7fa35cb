import AudioDSP
#if canImport(Glibc)
import Glibc
#endif

/// AUNewTimePitch (`'aufc' 'nutp' 'appl'`, what AVAudioUnitTimePitch runs): rate and pitch changed
/// independently. One or two channels, canonical format in and out with the same channel count and sample rate.
///
/// Parameters (global), with Apple's IDs, ranges and units:
/// - `kNewTimePitchParam_Rate` (rate, 1/32...32, default 1): input time per output time.
/// - `kNewTimePitchParam_Pitch` (cents, -2400...2400, default 0). Apple's header comment says the default is
///   1.0; AVAudioUnitTimePitch documents 0 and a default of 1 cent would detune, so 0.
/// - `kNewTimePitchParam_Smoothness` / `_Overlap` (generic, 3...32, default 8): read at initialize, it sets the
///   stretcher's overlap to max(2, round(value / 4)) frames of 40 ms (the default 8 gives the tuned music
///   preset's 2); a change while initialized applies at the next initialize.
/// - `kNewTimePitchParam_EnableSpectralCoherence` / `_EnablePeakLocking` (6) and
///   `kNewTimePitchParam_EnableTransientPreservation` (7) (boolean, default 1): stored and read back but have
///   no effect: they steer Apple's phase vocoder, and this unit is a WSOLA stretcher, which keeps a tone's
///   phase by matching waveforms rather than by locking spectral peaks.
///
/// AudioDSP's `TimePitchProcessor`: a variable-rate resampler (pitch) feeding a `TimeStretcher` (music
/// preset). Output time t plays input time t·rate, undelayed, so Latency is 0 (the unit pulls its look-ahead
/// ahead instead); TailTime is half a stretcher frame (20 ms).
final class AUNewTimePitch: VariableInputUnit, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_NewTimePitch,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    static let ranges: [AudioUnitParameterID: (min: Float, max: Float)] = [
        kNewTimePitchParam_Rate: (1.0 / 32, 32), kNewTimePitchParam_Pitch: (-2400, 2400), kNewTimePitchParam_Smoothness: (3, 32),
        kNewTimePitchParam_EnableSpectralCoherence: (0, 1), kNewTimePitchParam_EnableTransientPreservation: (0, 1),
    ]

    private var processor: TimePitchProcessor?

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        func define(_ id: AudioUnitParameterID, _ name: String, _ unit: AudioUnitParameterUnit, _ value: Float,
                    _ flags: AudioUnitParameterOptions = []) {
            let r = Self.ranges[id]!
            defineParameter(id, scope: kAudioUnitScope_Global, element: 0, .oca(name, unit: unit, min: r.min, max: r.max, default: value, flags: flags))
        }
        define(kNewTimePitchParam_Rate, "Playback Rate", .rate, 1, [.flag_DisplayLogarithmic])
        define(kNewTimePitchParam_Pitch, "Pitch", .cents, 0)
        define(kNewTimePitchParam_Smoothness, "Smoothness", .generic, 8)
        define(kNewTimePitchParam_EnableSpectralCoherence, "Spectral Coherence", .boolean, 1)
        define(kNewTimePitchParam_EnableTransientPreservation, "Transient Preservation", .boolean, 1)
    }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        let status = super.setParameter(id, scope, element, value, bufferOffset)
        if status == noErr, scope == kAudioUnitScope_Global, let r = Self.ranges[id] {
            storeClamped(id, value, min: r.min, max: r.max)
        }
        return status
    }

    override var latency: Double { 0 }
    override var tailTime: Double? { TimeStretcherSettings.music.frameDuration / 2 }

    /// The stretcher settings for a Smoothness value: the music preset with overlap max(2, round(value / 4)).
    static func settings(smoothness: Float) -> TimeStretcherSettings {
        var s = TimeStretcherSettings.music
        let v = min(max(smoothness, 3), 32)
        s.overlap = max(2, Int((v / 4).rounded()))
        return s
    }

    override func makeProcessor(sampleRate: Double, channels: Int) {
        let smoothness = parameterValue(kNewTimePitchParam_Smoothness, kAudioUnitScope_Global, 0)
        processor = TimePitchProcessor(sampleRate: sampleRate, channels: channels, maximumRate: 32, maximumPitch: 4,
                                       settings: Self.settings(smoothness: smoothness))
    }

    override func releaseProcessor() { processor = nil }
    override func resetProcessor() { processor?.reset() }

    override func prepareSlice() {
        guard let processor else { return }
        // Scheduled values are clamped here, and stored so that they read back clamped as well.
        let rawRate = parameterValue(kNewTimePitchParam_Rate, kAudioUnitScope_Global, 0)
        let rawCents = parameterValue(kNewTimePitchParam_Pitch, kAudioUnitScope_Global, 0)
        let rate = min(max(rawRate, 1.0 / 32), 32), cents = min(max(rawCents, -2400), 2400)
        if rate != rawRate { storeClamped(kNewTimePitchParam_Rate, rate, min: 1.0 / 32, max: 32) }
        if cents != rawCents { storeClamped(kNewTimePitchParam_Pitch, cents, min: -2400, max: 2400) }
        processor.rate = Double(rate)
        processor.pitch = exp2(Double(cents) / 1200)
    }

    override func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        processor?.inputFramesNeeded(forOutputFrames: outputFrames) ?? 0
    }

    override func process(input: UnsafePointer<UnsafePointer<Float>>, inputFrames: Int,
                          output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> (inputConsumed: Int, outputProduced: Int) {
        guard let processor else { return (0, 0) }
        return processor.process(input: input, inputFrames: inputFrames, endOfInput: false, output: output, outputCapacity: outputCapacity)
    }
}
