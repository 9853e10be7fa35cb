/// AUDistortion's parameters, numbered as Apple's `kDistortionParam_*` IDs (0...15), with their ranges and defaults.
public enum DistortionParameter: Int, CaseIterable, Sendable {
    /// Delay section: the comb's delay, milliseconds (0.1...500, default 0.1).
    case delay = 0
    /// Delay section: how fast the repeats die, halvings per repeat (0.1...50, default 1: each repeat is half the last).
    case decay = 1
    /// Delay section: its share of the output, percent (0...100, default 50).
    case delayMix = 2
    /// Decimator: sample-rate reduction, percent (0...100, default 0): each sample is held for 2^(6·p/100) frames.
    case decimation = 3
    /// Decimator: bit-depth reduction, percent (0...100, default 0): 1 + 15·(1 - p/100) bits.
    case rounding = 4
    /// Decimator: its share of the output, percent (0...100, default 50).
    case decimationMix = 5
    /// Waveshaper: the coefficient of x (0...1, default 1).
    case linearTerm = 6
    /// Waveshaper: the coefficient of x·|x| (0...20, default 0).
    case squaredTerm = 7
    /// Waveshaper: the coefficient of x³ (0...20, default 0).
    case cubicTerm = 8
    /// Waveshaper: its share of the output, percent (0...100, default 50).
    case polynomialMix = 9
    /// Ring modulator: the first oscillator's frequency, Hz (0.5...8000, default 100).
    case ringModFreq1 = 10
    /// Ring modulator: the second oscillator's frequency, Hz (0.5...8000, default 100).
    case ringModFreq2 = 11
    /// Ring modulator: from the first oscillator (0) to the second (100), percent (default 50).
    case ringModBalance = 12
    /// Ring modulator: its share of the output, percent (0...100, default 0).
    case ringModMix = 13
    /// Soft clipper: the gain into tanh, dB (-80...20, default -6).
    case softClipGain = 14
    /// The processed signal's share of the output against the dry input, percent (0...100, default 50).
    case finalMix = 15

    /// The values the parameter accepts (setters clamp to it).
    public var range: ClosedRange<Double> {
        switch self {
        case .delay: 0.1...500
        case .decay: 0.1...50
        case .linearTerm: 0...1
        case .squaredTerm, .cubicTerm: 0...20
        case .ringModFreq1, .ringModFreq2: 0.5...8000
        case .softClipGain: -80...20
        case .delayMix, .decimation, .rounding, .decimationMix, .polynomialMix, .ringModBalance, .ringModMix, .finalMix:
            0...100
        }
    }

    /// Apple's default value.
    public var defaultValue: Double {
        switch self {
        case .delay: 0.1
        case .decay: 1
        case .delayMix, .decimationMix, .polynomialMix, .ringModBalance, .finalMix: 50
        case .decimation, .rounding, .squaredTerm, .cubicTerm, .ringModMix: 0
        case .linearTerm: 1
        case .ringModFreq1, .ringModFreq2: 100
        case .softClipGain: -6
        }
    }
}
