import AudioDSP

/// AUPeakLimiter (`'aufx' 'lmtr' 'appl'`): AudioDSP's look-ahead PeakLimiterKernel with Apple's parameters: attack
/// 0.001-0.03 s (0.012; also the look-ahead, reported as Latency), decay 0.001-0.06 s (0.024), pre-gain -40-40 dB
/// (0). The ceiling is full scale: after the attack time no output sample's magnitude exceeds 1.
final class AUPeakLimiter: AUSingleKernelEffect<PeakLimiterKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_PeakLimiter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kLimiterParam_AttackTime, name: "attack time", unit: .seconds, min: 0.001, max: 0.03, defaultValue: 0.012),
         EffectParameter(id: kLimiterParam_DecayTime, name: "decay time", unit: .seconds, min: 0.001, max: 0.06, defaultValue: 0.024),
         EffectParameter(id: kLimiterParam_PreGain, name: "pre gain", unit: .decibels, min: -40, max: 40, defaultValue: 0)]
    }

    override var latency: Double {
        let rate = outputs[0].format.mSampleRate
        return (Double(value(kLimiterParam_AttackTime)) * rate).rounded() / rate
    }
    override var tailTime: Double? { latency + Double(value(kLimiterParam_DecayTime)) }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> PeakLimiterKernel {
        PeakLimiterKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: PeakLimiterKernel) {
        kernel.setAttack(Double(value(kLimiterParam_AttackTime)))
        kernel.setDecay(Double(value(kLimiterParam_DecayTime)))
        kernel.setPreGain(Double(value(kLimiterParam_PreGain)))
    }
}
