import Foundation

/// A node on an effect unit (one input, one output, the output in the input's format).
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// An effect on the registered unit `audioComponentDescription` finds.
    public convenience init(audioComponentDescription: AudioComponentDescription) {
        self.init(description: audioComponentDescription, unit: Self.instantiate(audioComponentDescription))
    }

    /// Whether the effect passes its input through unprocessed.
    public var bypass: Bool {
        get { bypassed }
        set { bypassed = newValue }
    }

    override var outputFollowsInput: Bool { true }
}
