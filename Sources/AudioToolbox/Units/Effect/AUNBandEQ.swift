import AudioDSP

/// AUNBandEQ (`'aufx' 'nbeq' 'appl'`), the unit behind AVAudioUnitEQ: up to 16 bands, each bypassed (the
/// default), or one of Apple's eleven filter types at its frequency, gain and bandwidth; a global gain after
/// them. Band b's parameters are the band-0 IDs + b. The band count is kAUNBandEQProperty_NumberOfBands
/// (settable while uninitialized); the current sections are kAUNBandEQProperty_BiquadCoefficients.
final class AUNBandEQ: AUFilterEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let maxBands = 16

    private var bands = 2

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineFilterParameters()
    }

    override var maxSections: Int { bands }

    override func filterParameters() -> [Parameter] {
        var list = [Parameter(id: kAUNBandEQParam_GlobalGain, name: "global gain", unit: .decibels, min: -96, max: 24,
                              defaultValue: 0, glide: .linear)]
        for b in 0..<bands {
            let n = AudioUnitParameterID(b)
            list += [
                Parameter(id: kAUNBandEQParam_BypassBand + n, name: "bypass band \(b)", unit: .boolean, min: 0, max: 1,
                          defaultValue: 1, glide: .immediate),
                Parameter(id: kAUNBandEQParam_FilterType + n, name: "filter type \(b)", unit: .indexed, min: 0,
                          max: Float(kNumAUNBandEQFilterTypes - 1), defaultValue: 0, glide: .immediate),
                Parameter(id: kAUNBandEQParam_Frequency + n, name: "frequency \(b)", unit: .hertz, min: 20, max: nil,
                          defaultValue: 1000, glide: .logarithmic, flags: [.flag_IsHighResolution]),
                Parameter(id: kAUNBandEQParam_Gain + n, name: "gain \(b)", unit: .decibels, min: -96, max: 24,
                          defaultValue: 0, glide: .linear),
                Parameter(id: kAUNBandEQParam_Bandwidth + n, name: "bandwidth \(b)", unit: .octaves, min: 0.05, max: 5,
                          defaultValue: 0.5, glide: .logarithmic),
            ]
        }
        return list
    }

    /// The filter types' names, in kAUNBandEQFilterType_ order (our wording of Apple's constant names).
    static let filterTypeNames = ["Parametric", "2nd Order Butterworth Low Pass", "2nd Order Butterworth High Pass",
                                  "Resonant Low Pass", "Resonant High Pass", "Band Pass", "Band Stop", "Low Shelf",
                                  "High Shelf", "Resonant Low Shelf", "Resonant High Shelf"]

    override func parameterValueStrings(_ scope: AudioUnitScope, _ id: AudioUnitParameterID) -> [String]? {
        let first = AudioUnitParameterID(kAUNBandEQParam_FilterType)
        guard scope == kAudioUnitScope_Global, id >= first, id < first + AudioUnitParameterID(bands) else { return nil }
        return Self.filterTypeNames
    }

    /// Band b's section from its parameters (values laid out as `filterParameters()`).
    static func section(type: Int, frequency f: Double, gain: Double, octaves: Double, sampleRate: Double) -> BiquadCoefficients {
        let butterworth = 1 / 2.0.squareRoot()
        switch type {
        case kAUNBandEQFilterType_Parametric:
            return gain == 0 ? .identity : .peaking(frequency: f, octaves: octaves, gainDB: gain, sampleRate: sampleRate)
        case kAUNBandEQFilterType_2ndOrderButterworthLowPass: return .lowPass(frequency: f, q: butterworth, sampleRate: sampleRate)
        case kAUNBandEQFilterType_2ndOrderButterworthHighPass: return .highPass(frequency: f, q: butterworth, sampleRate: sampleRate)
        case kAUNBandEQFilterType_ResonantLowPass:
            return .lowPass(frequency: f, q: BiquadCoefficients.q(octaves: octaves, frequency: f, sampleRate: sampleRate), sampleRate: sampleRate)
        case kAUNBandEQFilterType_ResonantHighPass:
            return .highPass(frequency: f, q: BiquadCoefficients.q(octaves: octaves, frequency: f, sampleRate: sampleRate), sampleRate: sampleRate)
        case kAUNBandEQFilterType_BandPass: return .bandPass(frequency: f, octaves: octaves, sampleRate: sampleRate)
        case kAUNBandEQFilterType_BandStop: return .bandStop(frequency: f, octaves: octaves, sampleRate: sampleRate)
        case kAUNBandEQFilterType_LowShelf:
            return gain == 0 ? .identity : .shelf(frequency: f, gainDB: gain, q: butterworth, high: false, sampleRate: sampleRate)
        case kAUNBandEQFilterType_HighShelf:
            return gain == 0 ? .identity : .shelf(frequency: f, gainDB: gain, q: butterworth, high: true, sampleRate: sampleRate)
        case kAUNBandEQFilterType_ResonantLowShelf:
            return gain == 0 ? .identity : .shelf(frequency: f, gainDB: gain, q: BiquadCoefficients.q(octaves: octaves, frequency: f, sampleRate: sampleRate),
                                                  high: false, sampleRate: sampleRate)
        case kAUNBandEQFilterType_ResonantHighShelf:
            return gain == 0 ? .identity : .shelf(frequency: f, gainDB: gain, q: BiquadCoefficients.q(octaves: octaves, frequency: f, sampleRate: sampleRate),
                                                  high: true, sampleRate: sampleRate)
        default: return .identity
        }
    }

    override func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {
        for b in 0..<bands {
            let v = values + 1 + 5 * b
            sections[b] = v[0] != 0 ? .identity
                : Self.section(type: Int(v[1]), frequency: v[2], gain: v[3], octaves: v[4], sampleRate: sampleRate)
        }
    }

    override func outputGain(_ values: UnsafePointer<Double>) -> Double { pow(10, values[0] / 20) }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kAUNBandEQProperty_NumberOfBands, UInt32.self, of: AUNBandEQ.self, place: AUProperty.global,
                   writable: .uninitializedOnly,
                   get: { unit, _, _ in UInt32(unit.bands) },
                   set: { unit, _, _, n in
                       guard n >= 1, Int(n) <= AUNBandEQ.maxBands else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.bands = Int(n)
                       unit.defineFilterParameters()
                       unit.propertyChanged(kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0)
                       return noErr
                   }),
            .value(kAUNBandEQProperty_MaxNumberOfBands, UInt32.self, of: AUNBandEQ.self, place: AUProperty.global,
                   get: { _, _, _ in UInt32(AUNBandEQ.maxBands) }),
            .array(kAUNBandEQProperty_BiquadCoefficients, Float64.self, of: AUNBandEQ.self, place: AUProperty.global,
                   get: { unit, _, _ in unit.currentCoefficients() }),
        ]
    }

    /// b0 b1 b2 a1 a2 per band, from the current parameter values.
    private func currentCoefficients() -> [Float64] {
        let rate = outputs[0].format.mSampleRate
        var values = filterParameters().map { Double(parameterValue($0.id, kAudioUnitScope_Global, 0)) }
        var sections = [BiquadCoefficients](repeating: .identity, count: bands)
        values.withUnsafeMutableBufferPointer { v in
            sections.withUnsafeMutableBufferPointer { s in design(v.baseAddress!, sampleRate: rate, into: s.baseAddress!) }
        }
        return sections.flatMap { [$0.b0, $0.b1, $0.b2, $0.a1, $0.a2] }
    }
}
