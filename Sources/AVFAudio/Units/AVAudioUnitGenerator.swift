import Foundation

/// A node on a generator unit (no inputs).
open class AVAudioUnitGenerator: AVAudioUnit, AVAudioMixing, @unchecked Sendable {
    /// A generator on the registered unit `audioComponentDescription` finds.
    public convenience init(audioComponentDescription: AudioComponentDescription) {
        self.init(description: audioComponentDescription, unit: Self.instantiate(audioComponentDescription))
    }

    /// Whether the generator is bypassed.
    public var bypass: Bool {
        get { bypassed }
        set { bypassed = newValue }
    }
}
