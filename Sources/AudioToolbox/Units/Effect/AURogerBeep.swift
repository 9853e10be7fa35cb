import AudioDSP

/// AURogerBeep (`'aufx' 'rogr' 'appl'`, macOS): AudioDSP's RogerBeepKernel. The input passes unchanged; once the
/// level has stayed above the in-gate threshold for the in-gate time (talking) and then below the out-gate threshold
/// for the out-gate time, a 200 ms "roger" beep (type 0: 1 kHz; 1: 800 Hz then 1.2 kHz; 2: a 600 Hz-2.4 kHz chirp) is
/// mixed in at the roger gain. Sensitivity 0/1/2 sets the level window (50/20/5 ms). Apple's parameters and defaults;
/// the reading of them is ours, as Apple documents only their names and ranges.
final class AURogerBeep: AUSingleKernelEffect<RogerBeepKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_RogerBeep,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kRogerBeepParam_InGateThreshold, name: "in gate threshold", unit: .decibels, min: -80, max: 0, defaultValue: -6),
         EffectParameter(id: kRogerBeepParam_InGateThresholdTime, name: "in gate threshold time", unit: .milliseconds, min: 0, max: 1000,
                         defaultValue: 1000),
         EffectParameter(id: kRogerBeepParam_OutGateThreshold, name: "out gate threshold", unit: .decibels, min: -80, max: 0, defaultValue: -6),
         EffectParameter(id: kRogerBeepParam_OutGateThresholdTime, name: "out gate threshold time", unit: .milliseconds, min: 0, max: 1000,
                         defaultValue: 1000),
         EffectParameter(id: kRogerBeepParam_Sensitivity, name: "sensitivity", unit: .indexed, min: 0, max: 2, defaultValue: 2),
         EffectParameter(id: kRogerBeepParam_RogerType, name: "roger type", unit: .indexed, min: 0, max: 2, defaultValue: 0),
         EffectParameter(id: kRogerBeepParam_RogerGain, name: "roger gain", unit: .decibels, min: -80, max: 20, defaultValue: -6)]
    }

    override var tailTime: Double? { kernel?.tailTime ?? 2.2 }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> RogerBeepKernel {
        RogerBeepKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: RogerBeepKernel) {
        kernel.setInGateThreshold(Double(value(kRogerBeepParam_InGateThreshold)))
        kernel.setInGateThresholdTime(Double(value(kRogerBeepParam_InGateThresholdTime)))
        kernel.setOutGateThreshold(Double(value(kRogerBeepParam_OutGateThreshold)))
        kernel.setOutGateThresholdTime(Double(value(kRogerBeepParam_OutGateThresholdTime)))
        kernel.setSensitivity(Int(value(kRogerBeepParam_Sensitivity)))
        kernel.setRogerType(Int(value(kRogerBeepParam_RogerType)))
        kernel.setRogerGain(Double(value(kRogerBeepParam_RogerGain)))
    }
}
