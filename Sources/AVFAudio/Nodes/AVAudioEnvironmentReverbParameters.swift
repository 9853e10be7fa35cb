import Foundation

/// The environment's reverb: the spatial mixer's internal reverb (kAudioUnitProperty_UsesInternalReverb), which each
/// source reaches by its `reverbBlend`. `enable`, `level`, the factory presets and `filterParameters` (one EQ band
/// on the reverb's return, bypassed until set) act on the mix.
open class AVAudioEnvironmentReverbParameters: NSObject, @unchecked Sendable {
    private let eq = AVAudioUnitEQ(numberOfBands: 1)
    private let unit: AudioUnit

    init(unit: AudioUnit) {
        self.unit = unit
        super.init()
        let band = eq.bands[0]
        band.bypass = true
        band.changed = { [weak self] in self?.applyFilter() }
        apply()
    }

    private func applyFilter() {
        let band = eq.bands[0]
        AUSpatialMixerSetReverbFilter(unit, type: band.filterType.rawValue, frequency: band.frequency, bandwidth: band.bandwidth,
                                      gain: band.gain, bypass: band.bypass)
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
