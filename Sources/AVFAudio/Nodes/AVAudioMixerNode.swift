import Foundation

/// A mixer (AUMultiChannelMixer): any number of inputs at any rate and channel count (the engine converts
/// what the mix does not take directly) mixed to one output; each source's AVAudioMixing volume and pan
/// apply to its input.
open class AVAudioMixerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    /// Inputs a mixer starts with (the mix skips those without a source at almost no cost).
    static let inputCount: UInt32 = 64

    /// A mixer with no inputs connected.
    public init() {
        super.init(unit: Self.instantiate(Self.description))
        var count = Self.inputCount
        AudioUnitSetProperty(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
    }

    /// The mix's gain, 0...1.
    public var outputVolume: Float {
        get {
            var value: AudioUnitParameterValue = 1
            AudioUnitGetParameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, &value)
            return value
        }
        set { AudioUnitSetParameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, newValue, 0) }
    }

    /// The lowest input bus with nothing connected.
    public var nextAvailableInputBus: AVAudioNodeBus {
        attachedEngine?.nextAvailableInputBus(of: self) ?? 0
    }
}
