import AudioDSP

/// AUHighShelfFilter (`'aufx' 'hshf' 'appl'`): `gain` (-40 to 40 dB) above the cutoff (10 kHz to Nyquist,
/// 10 kHz by default), half the gain in dB at the cutoff, unity at DC.
final class AUHighShelfFilter: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_HighShelfFilter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override func filterParameters() -> [Parameter] {
        [Parameter(id: kHighShelfParam_CutOffFrequency, name: "cut off frequency", unit: .hertz, min: 10000, max: nil,
                   defaultValue: 10000, glide: .logarithmic, flags: [.flag_IsHighResolution]),
         Parameter(id: kHighShelfParam_Gain, name: "gain", unit: .decibels, min: -40, max: 40, defaultValue: 0, glide: .linear)]
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        sections[0] = values[1] == 0 ? .identity
            : .shelf(frequency: values[0], gainDB: values[1], q: 1 / 2.0.squareRoot(), high: true, sampleRate: sampleRate)
    }
}
