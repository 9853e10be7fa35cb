import AudioDSP

/// AUParametricEQ (`'aufx' 'pmeq' 'appl'`): one peaking section, centre 20 Hz to Nyquist (2,000 Hz by
/// default), Q 0.1 to 20 (1), gain -20 to 20 dB (0; exactly transparent at 0).
final class AUParametricEQ: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_ParametricEQ,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override func filterParameters() -> [Parameter] {
        [Parameter(id: kParametricEQParam_CenterFreq, name: "center frequency", unit: .hertz, min: 20, max: nil,
                   defaultValue: 2000, glide: .logarithmic, flags: [.flag_IsHighResolution]),
         Parameter(id: kParametricEQParam_Q, name: "Q", unit: .generic, min: 0.1, max: 20, defaultValue: 1, glide: .logarithmic),
         Parameter(id: kParametricEQParam_Gain, name: "gain", unit: .decibels, min: -20, max: 20, defaultValue: 0, glide: .linear)]
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        sections[0] = values[2] == 0 ? .identity
            : .peaking(frequency: min(values[0], 0.499 * sampleRate), q: values[1], gainDB: values[2], sampleRate: sampleRate)
    }
}
