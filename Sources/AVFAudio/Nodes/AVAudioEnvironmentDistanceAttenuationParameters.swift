import Foundation

/// The environment node's distance attenuation (applied to every source it mixes).
open class AVAudioEnvironmentDistanceAttenuationParameters: NSObject, @unchecked Sendable {
    weak var environment: AVAudioEnvironmentNode?

    init(environment: AVAudioEnvironmentNode) {
        self.environment = environment
        super.init()
    }

    /// The attenuation curve (default inverse).
    public var distanceAttenuationModel = AVAudioEnvironmentDistanceAttenuationModel.inverse { didSet { environment?.applyToAllInputs() } }
    /// Distance in meters within which there is no attenuation (default 1).
    public var referenceDistance: Float = 1 { didSet { environment?.applyToAllInputs() } }
    /// Distance beyond which attenuation stops growing (default 100,000).
    public var maximumDistance: Float = 100_000 { didSet { environment?.applyToAllInputs() } }
    /// How fast the sound fades (default 1).
    public var rolloffFactor: Float = 1 { didSet { environment?.applyToAllInputs() } }
}
