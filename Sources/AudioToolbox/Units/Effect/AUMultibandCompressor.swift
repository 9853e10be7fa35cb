import AudioDSP

/// AUMultibandCompressor (`'aufx' 'mcmp' 'appl'`, macOS): AudioDSP's MultibandCompressorKernel (4th-order
/// Linkwitz-Riley crossovers whose bands sum flat, each band on the dynamics processor's curve) with Apple's 19
/// parameters and defaults and its twelve read-only meters (per band: compression amount in positive dB, input and
/// output levels in dB).
final class AUMultibandCompressor: AUSingleKernelEffect<MultibandCompressorKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_MultiBandCompressor,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        var list = [
            EffectParameter(id: kMultibandCompressorParam_Pregain, name: "pre-gain", unit: .decibels, min: -40, max: 40, defaultValue: 0),
            EffectParameter(id: kMultibandCompressorParam_Postgain, name: "post-gain", unit: .decibels, min: -40, max: 40, defaultValue: 0),
        ]
        for (k, f) in [Float(120), 700, 3000].enumerated() {
            list.append(EffectParameter(id: kMultibandCompressorParam_Crossover1 + AudioUnitParameterID(k), name: "crossover \(k + 1)",
                                        unit: .hertz, min: 20, max: nil, defaultValue: f, flags: [.flag_IsHighResolution]))
        }
        for (k, t) in [Float(-22), -32, -33, -36].enumerated() {
            list.append(EffectParameter(id: kMultibandCompressorParam_Threshold1 + AudioUnitParameterID(k), name: "threshold \(k + 1)",
                                        unit: .decibels, min: -100, max: 0, defaultValue: t))
        }
        for (k, h) in [Float(5), 12, 5, 7.5].enumerated() {
            list.append(EffectParameter(id: kMultibandCompressorParam_Headroom1 + AudioUnitParameterID(k), name: "headroom \(k + 1)",
                                        unit: .decibels, min: 0.1, max: 40, defaultValue: h))
        }
        list.append(EffectParameter(id: kMultibandCompressorParam_AttackTime, name: "attack time", unit: .seconds, min: 0.001, max: 0.2,
                                    defaultValue: 0.080))
        list.append(EffectParameter(id: kMultibandCompressorParam_ReleaseTime, name: "release time", unit: .seconds, min: 0.01, max: 3,
                                    defaultValue: 0.120))
        for k in 0..<4 {
            list.append(EffectParameter(id: kMultibandCompressorParam_EQ1 + AudioUnitParameterID(k), name: "EQ \(k + 1)", unit: .decibels,
                                        min: -20, max: 20, defaultValue: 0))
        }
        for k in 0..<4 {
            let n = AudioUnitParameterID(k) * 1000
            list.append(EffectParameter(id: kMultibandCompressorParam_CompressionAmount1 + n, name: "compression amount \(k + 1)",
                                        unit: .decibels, min: 0, max: 20, defaultValue: 0, flags: [.flag_MeterReadOnly]))
            list.append(EffectParameter(id: kMultibandCompressorParam_InputAmplitude1 + n, name: "input amplitude \(k + 1)",
                                        unit: .decibels, min: -120, max: 20, defaultValue: -120, flags: [.flag_MeterReadOnly]))
            list.append(EffectParameter(id: kMultibandCompressorParam_OutputAmplitude1 + n, name: "output amplitude \(k + 1)",
                                        unit: .decibels, min: -120, max: 20, defaultValue: -120, flags: [.flag_MeterReadOnly]))
        }
        return list
    }

    override var tailTime: Double? { kernel?.tailSeconds ?? Double(value(kMultibandCompressorParam_ReleaseTime)) }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> MultibandCompressorKernel {
        MultibandCompressorKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: MultibandCompressorKernel) {
        kernel.setPreGain(Double(value(kMultibandCompressorParam_Pregain)))
        kernel.setPostGain(Double(value(kMultibandCompressorParam_Postgain)))
        for k in 0..<3 { kernel.setCrossover(Double(value(kMultibandCompressorParam_Crossover1 + AudioUnitParameterID(k))), index: k) }
        for b in 0..<4 {
            let n = AudioUnitParameterID(b)
            kernel.setThreshold(Double(value(kMultibandCompressorParam_Threshold1 + n)), band: b)
            kernel.setHeadroom(Double(value(kMultibandCompressorParam_Headroom1 + n)), band: b)
            kernel.setEQ(Double(value(kMultibandCompressorParam_EQ1 + n)), band: b)
        }
        kernel.setAttack(Double(value(kMultibandCompressorParam_AttackTime)))
        kernel.setRelease(Double(value(kMultibandCompressorParam_ReleaseTime)))
    }

    override func kernelDidProcess(_ kernel: MultibandCompressorKernel) {
        for b in 0..<4 {
            let n = AudioUnitParameterID(b) * 1000
            storeValue(kMultibandCompressorParam_CompressionAmount1 + n, kernel.compressionAmount(band: b))
            storeValue(kMultibandCompressorParam_InputAmplitude1 + n, kernel.inputAmplitude(band: b))
            storeValue(kMultibandCompressorParam_OutputAmplitude1 + n, kernel.outputAmplitude(band: b))
        }
    }
}
