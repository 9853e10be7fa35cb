import Foundation

/// A reverb (AUReverb2) with Apple's room presets.
open class AVAudioUnitReverb: AVAudioUnitEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Reverb2,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A reverb with AUReverb2's defaults.
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
    }

    /// Loads one of the room presets.
    public func loadFactoryPreset(_ preset: AVAudioUnitReverbPreset) {
        loadFactoryPreset(number: preset.rawValue)
    }

    /// Wet signal in percent, 0...100.
    public var wetDryMix: Float {
        get { parameter(kReverb2Param_DryWetMix) }
        set { setParameter(kReverb2Param_DryWetMix, newValue) }
    }
}
