import AudioDSP

/// AUDistortion (`'aufx' 'dist' 'appl'`, what AVAudioUnitDistortion runs): AudioDSP's DistortionKernel (a comb
/// delay, decimation and bit rounding, a polynomial waveshaper, a two-oscillator ring modulator and a soft clipper,
/// each with its mix, then the final dry/wet) with Apple's sixteen parameters, and Apple's 22 factory presets by
/// name and number (kAudioUnitProperty_FactoryPresets / PresentPreset); the presets' values are ours, as Apple does
/// not publish its own.
final class AUDistortion: AUSingleKernelEffect<DistortionKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Distortion,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    static let names = ["delay", "decay", "delay mix", "decimation", "rounding", "decimation mix", "linear term", "squared term",
                        "cubic term", "polynomial mix", "ring mod freq 1", "ring mod freq 2", "ring mod balance", "ring mod mix",
                        "soft clip gain", "final mix"]

    static func unit(_ p: DistortionParameter) -> AudioUnitParameterUnit {
        switch p {
        case .delay: .milliseconds
        case .decay: .rate
        case .linearTerm, .squaredTerm, .cubicTerm: .linearGain
        case .ringModFreq1, .ringModFreq2: .hertz
        case .softClipGain: .decibels
        default: .percent
        }
    }

    override func effectParameters() -> [EffectParameter] {
        DistortionParameter.allCases.map { p in
            EffectParameter(id: AudioUnitParameterID(p.rawValue), name: Self.names[p.rawValue], unit: Self.unit(p),
                            min: Float(p.range.lowerBound), max: Float(p.range.upperBound), defaultValue: Float(p.defaultValue))
        }
    }

    override var factoryPresets: [(number: Int32, name: String)]? {
        DistortionPreset.factoryPresets.map { (Int32($0.number), $0.name) }
    }

    override func applyFactoryPreset(_ number: Int32) -> OSStatus {
        guard let preset = DistortionPreset.factory(number: Int(number)) else { return kAudioUnitErr_InvalidPropertyValue }
        for p in DistortionParameter.allCases { storeValue(AudioUnitParameterID(p.rawValue), Float(preset[p])) }
        currentPreset = (number, preset.name)
        return noErr
    }

    override var tailTime: Double? { min(kernel?.tailTime ?? 0.5, 60) }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> DistortionKernel {
        DistortionKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: DistortionKernel) {
        // By raw value: allCases builds an array, which the render thread must not.
        for raw in 0..<16 {
            guard let p = DistortionParameter(rawValue: raw) else { continue }
            kernel.setParameter(p, Double(value(AudioUnitParameterID(raw))))
        }
    }
}
