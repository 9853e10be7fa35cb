import Foundation

/// A node on a unit that changes time (varispeed, time-pitch): it pulls its input at a different rate than it
/// renders its output.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// A time effect on the registered unit `audioComponentDescription` finds.
    public convenience init(audioComponentDescription: AudioComponentDescription) {
        self.init(description: audioComponentDescription, unit: Self.instantiate(audioComponentDescription))
    }

    /// Whether the unit passes its input through unchanged.
    public var bypass: Bool {
        get { bypassed }
        set { bypassed = newValue }
    }

    override var outputFollowsInput: Bool { true }
}
