import AudioDSP

/// AULowShelfFilter (`'aufx' 'lshf' 'appl'`): `gain` (-40 to 40 dB) below the cutoff (10 to 200 Hz, 80 Hz by
/// default), half the gain in dB at the cutoff, unity at Nyquist.
final class AULowShelfFilter: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_LowShelfFilter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override func filterParameters() -> [Parameter] {
        [Parameter(id: kAULowShelfParam_CutoffFrequency, name: "cutoff frequency", unit: .hertz, min: 10, max: 200,
                   defaultValue: 80, glide: .logarithmic, flags: [.flag_IsHighResolution]),
         Parameter(id: kAULowShelfParam_Gain, name: "gain", unit: .decibels, min: -40, max: 40, defaultValue: 0, glide: .linear)]
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        sections[0] = values[1] == 0 ? .identity
            : .shelf(frequency: values[0], gainDB: values[1], q: 1 / 2.0.squareRoot(), high: false, sampleRate: sampleRate)
    }
}
