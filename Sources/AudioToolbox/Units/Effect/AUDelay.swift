import AudioDSP

/// AUDelay (`'aufx' 'dely' 'appl'`, what AVAudioUnitDelay runs): AudioDSP's DelayKernel with Apple's parameters:
/// wet/dry 0-100 (equal-power crossfade, default 50), delay 0-2 s (1), feedback -100-100 % (50), low-pass cutoff in
/// the loop 10 Hz to Nyquist (15,000). A delay change crossfades to the new tap over 50 ms (no pitch sweep).
final class AUDelay: AUKernelEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var kernel: DelayKernel?

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

    override func makeKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Bool {
        kernel = DelayKernel(sampleRate: sampleRate, channels: channels)
        push()
        kernel?.settle()
        return true
    }

    override func releaseKernel() { kernel = nil }
    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { kernel?.reset() }

    private func push() {
        guard let kernel else { return }
        kernel.setWetDryMix(Double(value(kDelayParam_WetDryMix)))
        kernel.setDelayTime(Double(value(kDelayParam_DelayTime)))
        kernel.setFeedback(Double(value(kDelayParam_Feedback)))
        kernel.setLowpassCutoff(Double(value(kDelayParam_LopassCutoff)))
    }

    override func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                          channels: Int, frames: Int) {
        push()
        kernel?.process(input: input, output: output, channels: channels, frames: frames)
    }
}
