import AudioDSP

/// AUHipass (`'aufx' 'hpas' 'appl'`): a resonant two-pole high-pass. Cutoff 10 Hz to Nyquist (6,900 Hz by
/// default); resonance -20 to 40 dB as AULowpass's.
final class AUHighPassFilter: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_HighPassFilter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override func filterParameters() -> [Parameter] {
        [Parameter(id: kHipassParam_CutoffFrequency, name: "cutoff frequency", unit: .hertz, min: 10, max: nil,
                   defaultValue: 6900, glide: .logarithmic, flags: [.flag_IsHighResolution]),
         Parameter(id: kHipassParam_Resonance, name: "resonance", unit: .decibels, min: -20, max: 40,
                   defaultValue: 0, glide: .linear)]
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        sections[0] = .highPass(frequency: values[0], q: BiquadCoefficients.q(resonanceDB: values[1]), sampleRate: sampleRate)
    }
}
