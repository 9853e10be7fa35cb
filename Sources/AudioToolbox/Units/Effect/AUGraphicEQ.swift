import AudioDSP

/// AUGraphicEQ (`'aufx' 'greq' 'appl'`, macOS): 10 octave bands (32 Hz to 16 kHz) or 31 third-octave bands
/// (20 Hz to 20 kHz), chosen by kGraphicEQParam_NumberOfBands; band n's gain (-12 to 12 dB, our range) is
/// parameter n. Each band is a peaking section of constant Q (octave: 1.41, third-octave: 4.32) at its raw gain,
/// so neighbouring boosts add where they overlap (as on an analogue graphic EQ); bands above 0.45 of the rate
/// are left out.
final class AUGraphicEQ: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_GraphicEQ,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let octaveCentres: [Double] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    static let thirdOctaveCentres: [Double] = [20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
                                               1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000]

    /// The centres as raw memory (the render thread never touches the static arrays, whose first use may lock).
    private let octave = UnsafeMutablePointer<Double>.allocate(capacity: 10)
    private let thirdOctave = UnsafeMutablePointer<Double>.allocate(capacity: 31)

    override init(component: AudioComponentEntry) {
        octave.initialize(from: Self.octaveCentres, count: 10)
        thirdOctave.initialize(from: Self.thirdOctaveCentres, count: 31)
        super.init(component: component)
        defineFilterParameters()
    }

    deinit {
        octave.deallocate()
        thirdOctave.deallocate()
    }

    override var maxSections: Int { 31 }

    override func filterParameters() -> [Parameter] {
        var list = (0..<31).map { b in
            Parameter(id: AudioUnitParameterID(b), name: "band \(b)", unit: .decibels, min: -12, max: 12, defaultValue: 0, glide: .linear)
        }
        list.append(Parameter(id: kGraphicEQParam_NumberOfBands, name: "number of bands", unit: .indexed, min: 10, max: 31,
                              defaultValue: 10, glide: .immediate))
        return list
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        let third = values[31] > 20
        for b in 0..<31 {
            let usable = third || b < 10
            let f = third ? thirdOctave[b] : (b < 10 ? octave[b] : 0)
            sections[b] = !usable || values[b] == 0 || f >= 0.45 * sampleRate ? .identity
                : .peaking(frequency: f, q: third ? 4.32 : 1.41, gainDB: values[b], sampleRate: sampleRate)
        }
    }
}
