import Foundation

/// Changes playback rate and pitch independently (AUNewTimePitch).
open class AVAudioUnitTimePitch: AVAudioUnitTimeEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_NewTimePitch,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A time-pitch node at rate 1 and no pitch shift.
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
    }

    /// Playback rate, 1/32...32 (2 plays twice as fast).
    public var rate: Float {
        get { parameter(kNewTimePitchParam_Rate) }
        set { setParameter(kNewTimePitchParam_Rate, newValue) }
    }
    /// Pitch shift in cents, -2400...2400.
    public var pitch: Float {
        get { parameter(kNewTimePitchParam_Pitch) }
        set { setParameter(kNewTimePitchParam_Pitch, newValue) }
    }
    /// Overlap of the analysis windows, 3...32.
    public var overlap: Float {
        get { parameter(kNewTimePitchParam_Overlap) }
        set { setParameter(kNewTimePitchParam_Overlap, newValue) }
    }
}
