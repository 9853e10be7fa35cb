import Foundation

/// Changes playback rate and pitch together (AUVarispeed).
open class AVAudioUnitVarispeed: AVAudioUnitTimeEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Varispeed,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A varispeed node at rate 1.
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
    }

    /// Playback rate, 0.25...4.
    public var rate: Float {
        get { parameter(kVarispeedParam_PlaybackRate) }
        set { setParameter(kVarispeedParam_PlaybackRate, newValue) }
    }
}
