import Foundation

/// One band of an AVAudioUnitEQ: its filter and settings (AUNBandEQ's parameters for the band).
open class AVAudioUnitEQFilterParameters: NSObject, @unchecked Sendable {
    private let unit: AudioUnit
    private let band: AudioUnitParameterID

    init(unit: AudioUnit, band: Int) {
        self.unit = unit
        self.band = AudioUnitParameterID(band)
        super.init()
    }

    private func get(_ base: AudioUnitParameterID) -> Float {
        var value: AudioUnitParameterValue = 0
        AudioUnitGetParameter(unit, base + band, kAudioUnitScope_Global, 0, &value)
        return value
    }

    /// Called after each change (the environment node's reverb filter follows its band this way).
    var changed: (() -> Void)?

    private func set(_ base: AudioUnitParameterID, _ value: Float) {
        AudioUnitSetParameter(unit, base + band, kAudioUnitScope_Global, 0, value, 0)
        changed?()
    }

    /// The band's filter.
    public var filterType: AVAudioUnitEQFilterType {
        get { AVAudioUnitEQFilterType(rawValue: Int(get(kAUNBandEQParam_FilterType))) ?? .parametric }
        set { set(kAUNBandEQParam_FilterType, Float(newValue.rawValue)) }
    }
    /// Centre or cutoff frequency in hertz, 20...(sample rate / 2).
    public var frequency: Float {
        get { get(kAUNBandEQParam_Frequency) }
        set { set(kAUNBandEQParam_Frequency, newValue) }
    }
    /// Bandwidth in octaves, 0.05...5.
    public var bandwidth: Float {
        get { get(kAUNBandEQParam_Bandwidth) }
        set { set(kAUNBandEQParam_Bandwidth, newValue) }
    }
    /// Gain in dB, -96...24 (parametric and shelf filters).
    public var gain: Float {
        get { get(kAUNBandEQParam_Gain) }
        set { set(kAUNBandEQParam_Gain, newValue) }
    }
    /// Whether the band is bypassed.
    public var bypass: Bool {
        get { get(kAUNBandEQParam_BypassBand) != 0 }
        set { set(kAUNBandEQParam_BypassBand, newValue ? 1 : 0) }
    }
}
