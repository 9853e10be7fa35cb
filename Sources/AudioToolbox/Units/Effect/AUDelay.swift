import AudioDSP

/// AUDelay (`'aufx' 'dely' 'appl'`, what AVAudioUnitDelay runs): AudioDSP's DelayKernel with Apple's parameters:
/// wet/dry 0-100 (equal-power crossfade, default 50), delay 0-2 s (1), feedback -100-100 % (50), low-pass cutoff in
/// the loop 10 Hz to Nyquist (15,000). A delay change crossfades to the new tap over 50 ms (no pitch sweep).
final class AUDelay: AUSingleKernelEffect<DelayKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kDelayParam_WetDryMix, name: "dry/wet mix", unit: .equalPowerCrossfade, min: 0, max: 100, defaultValue: 50),
         EffectParameter(id: kDelayParam_DelayTime, name: "delay time", unit: .seconds, min: 0, max: 2, defaultValue: 1),
         EffectParameter(id: kDelayParam_Feedback, name: "feedback", unit: .percent, min: -100, max: 100, defaultValue: 50),
         EffectParameter(id: kDelayParam_LopassCutoff, name: "lowpass cutoff frequency", unit: .hertz, min: 10, max: nil,
                         defaultValue: 15000, flags: [.flag_IsHighResolution])]
    }

    override var tailTime: Double? { min(kernel?.tailTime ?? Double(value(kDelayParam_DelayTime)), 60) }  // endless at ±100%: a minute

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> DelayKernel {
        DelayKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: DelayKernel) {
        kernel.setWetDryMix(Double(value(kDelayParam_WetDryMix)))
        kernel.setDelayTime(Double(value(kDelayParam_DelayTime)))
        kernel.setFeedback(Double(value(kDelayParam_Feedback)))
        kernel.setLowpassCutoff(Double(value(kDelayParam_LopassCutoff)))
    }
}
