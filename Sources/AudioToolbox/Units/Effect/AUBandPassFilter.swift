import AudioDSP

/// AUBandpass (`'aufx' 'bpas' 'appl'`): 0 dB at the centre (20 Hz to Nyquist, 5,000 Hz by default) and -3 dB
/// edges the bandwidth apart (100 to 12,000 cents, 600 by default).
final class AUBandPassFilter: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_BandPassFilter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override func filterParameters() -> [Parameter] {
        [Parameter(id: kBandpassParam_CenterFrequency, name: "center frequency", unit: .hertz, min: 20, max: nil,
                   defaultValue: 5000, glide: .logarithmic, flags: [.flag_IsHighResolution]),
         Parameter(id: kBandpassParam_Bandwidth, name: "bandwidth", unit: .cents, min: 100, max: 12000,
                   defaultValue: 600, glide: .logarithmic)]
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        sections[0] = .bandPass(frequency: values[0], octaves: values[1] / 1200, sampleRate: sampleRate)
    }
}
