import Foundation

/// The environment's reverb settings. The spatial mixer here has no reverb yet: the values are kept and
/// answered, and enabling it adds nothing to the mix.
open class AVAudioEnvironmentReverbParameters: NSObject, @unchecked Sendable {
    private let eq = AVAudioUnitEQ(numberOfBands: 1)

    override init() { super.init() }

    /// Whether the reverb is on (default false).
    public var enable = false
    /// The reverb's level in dB, -40...40 (default 0).
    public var level: Float = 0
    /// The filter applied to the reverb.
    public var filterParameters: AVAudioUnitEQFilterParameters { eq.bands[0] }
    /// The room the reverb models.
    public private(set) var preset = AVAudioUnitReverbPreset.mediumHall

    /// Chooses the room the reverb models.
    public func loadFactoryReverbPreset(_ preset: AVAudioUnitReverbPreset) { self.preset = preset }
}
