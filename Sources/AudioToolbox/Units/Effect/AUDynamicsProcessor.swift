import AudioDSP

/// AUDynamicsProcessor (`'aufx' 'dcmp' 'appl'`): AudioDSP's DynamicsProcessorKernel with Apple's parameters:
/// threshold -40-20 dB (-20), headroom 0.1-40 dB (5; the output never exceeds threshold + headroom), expansion ratio
/// 1-50 (2), expansion threshold -120-0 dB (our range and default, -100), attack 0.0001-0.2 s (0.001), release
/// 0.01-3 s (0.05), overall gain -40-40 dB (0). Read-only meters after each render: CompressionAmount (the gain
/// reduction, positive dB, as Apple's multiband unit reports it), InputAmplitude and OutputAmplitude (dB). The
/// level is an RMS detector calibrated so a sine's reading is its peak in dBFS.
final class AUDynamicsProcessor: AUSingleKernelEffect<DynamicsProcessorKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_DynamicsProcessor,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kDynamicsProcessorParam_Threshold, name: "threshold", unit: .decibels, min: -40, max: 20, defaultValue: -20),
         EffectParameter(id: kDynamicsProcessorParam_HeadRoom, name: "headroom", unit: .decibels, min: 0.1, max: 40, defaultValue: 5),
         EffectParameter(id: kDynamicsProcessorParam_ExpansionRatio, name: "expansion ratio", unit: .rate, min: 1, max: 50, defaultValue: 2),
         EffectParameter(id: kDynamicsProcessorParam_ExpansionThreshold, name: "expansion threshold", unit: .decibels, min: -120, max: 0,
                         defaultValue: -100),
         EffectParameter(id: kDynamicsProcessorParam_AttackTime, name: "attack time", unit: .seconds, min: 0.0001, max: 0.2, defaultValue: 0.001),
         EffectParameter(id: kDynamicsProcessorParam_ReleaseTime, name: "release time", unit: .seconds, min: 0.01, max: 3, defaultValue: 0.05),
         EffectParameter(id: kDynamicsProcessorParam_OverallGain, name: "master gain", unit: .decibels, min: -40, max: 40, defaultValue: 0),
         EffectParameter(id: kDynamicsProcessorParam_CompressionAmount, name: "compression amount", unit: .decibels, min: 0, max: 120,
                         defaultValue: 0, flags: [.flag_MeterReadOnly]),
         EffectParameter(id: kDynamicsProcessorParam_InputAmplitude, name: "input amplitude", unit: .decibels, min: -120, max: 20,
                         defaultValue: -120, flags: [.flag_MeterReadOnly]),
         EffectParameter(id: kDynamicsProcessorParam_OutputAmplitude, name: "output amplitude", unit: .decibels, min: -120, max: 20,
                         defaultValue: -120, flags: [.flag_MeterReadOnly])]
    }

    override var tailTime: Double? { Double(value(kDynamicsProcessorParam_ReleaseTime)) }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> DynamicsProcessorKernel {
        DynamicsProcessorKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: DynamicsProcessorKernel) {
        kernel.setThreshold(Double(value(kDynamicsProcessorParam_Threshold)))
        kernel.setHeadRoom(Double(value(kDynamicsProcessorParam_HeadRoom)))
        kernel.setExpansion(ratio: Double(value(kDynamicsProcessorParam_ExpansionRatio)),
                            threshold: Double(value(kDynamicsProcessorParam_ExpansionThreshold)))
        kernel.setAttack(Double(value(kDynamicsProcessorParam_AttackTime)))
        kernel.setRelease(Double(value(kDynamicsProcessorParam_ReleaseTime)))
        kernel.setOverallGain(Double(value(kDynamicsProcessorParam_OverallGain)))
    }

    override func kernelDidProcess(_ kernel: DynamicsProcessorKernel) {
        storeValue(kDynamicsProcessorParam_CompressionAmount, kernel.compressionAmount)
        storeValue(kDynamicsProcessorParam_InputAmplitude, kernel.inputAmplitude)
        storeValue(kDynamicsProcessorParam_OutputAmplitude, kernel.outputAmplitude)
    }
}
