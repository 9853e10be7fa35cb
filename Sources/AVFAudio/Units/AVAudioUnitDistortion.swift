import Foundation

/// A multi-stage distortion (AUDistortion) with Apple's presets.
open class AVAudioUnitDistortion: AVAudioUnitEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Distortion,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A distortion with AUDistortion's defaults.
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
    }

    /// Loads one of the presets.
    public func loadFactoryPreset(_ preset: AVAudioUnitDistortionPreset) {
        loadFactoryPreset(number: preset.rawValue)
    }

    /// Gain before the distortion in dB, -80...20.
    public var preGain: Float {
        get { parameter(kDistortionParam_SoftClipGain) }
        set { setParameter(kDistortionParam_SoftClipGain, newValue) }
    }
    /// Wet signal in percent, 0...100.
    public var wetDryMix: Float {
        get { parameter(kDistortionParam_FinalMix) }
        set { setParameter(kDistortionParam_FinalMix, newValue) }
    }
}
