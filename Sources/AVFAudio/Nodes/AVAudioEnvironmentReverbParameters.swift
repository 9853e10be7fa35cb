import Foundation

/// The environment's reverb: the spatial mixer's internal reverb (kAudioUnitProperty_UsesInternalReverb), which each
/// source reaches by its `reverbBlend`. `enable`, `level` and the factory presets act on the mix; `filterParameters`
/// are kept and answered but not applied (the spatial mixer has no filter on its reverb return yet).
open class AVAudioEnvironmentReverbParameters: NSObject, @unchecked Sendable {
    private let eq = AVAudioUnitEQ(numberOfBands: 1)
    private let unit: AudioUnit

    init(unit: AudioUnit) {
        self.unit = unit
        super.init()
        apply()
    }

    /// Whether the reverb is on (default false).
    public var enable = false { didSet { apply() } }
    /// The reverb's level in dB, -40...40 (default 0).
    public var level: Float = 0 { didSet { apply() } }
    /// The filter applied to the reverb.
    public var filterParameters: AVAudioUnitEQFilterParameters { eq.bands[0] }
    /// The room the reverb models (default medium hall).
    private var preset = AVAudioUnitReverbPreset.mediumHall

    /// Chooses the room the reverb models.
    public func loadFactoryReverbPreset(_ preset: AVAudioUnitReverbPreset) {
        self.preset = preset
        apply()
    }

    private func apply() {
        var on: UInt32 = enable ? 1 : 0
        AudioUnitSetProperty(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0, &on, 4)
        // The presets are numbered as the reverb's room types.
        var room = UInt32(preset.rawValue)
        AudioUnitSetProperty(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, &room, 4)
        AudioUnitSetParameter(unit, kSpatialMixerParam_GlobalReverbGain, kAudioUnitScope_Global, 0, min(max(level, -40), 40), 0)
    }
}
