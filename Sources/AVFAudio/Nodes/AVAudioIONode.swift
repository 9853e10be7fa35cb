import Foundation

/// The engine's connection to the audio device (or, in manual rendering, to the client): the output node
/// and the input node share the engine's I/O unit.
open class AVAudioIONode: AVAudioNode, @unchecked Sendable {
    init(engineUnit: AudioUnit) {
        super.init(unit: engineUnit)
        ownsUnit = false
    }

    /// The device's latency plus its buffering, in seconds.
    public var presentationLatency: TimeInterval { attachedEngine?.deviceLatency(input: self is AVAudioInputNode) ?? 0 }

    /// The I/O unit (nil in manual rendering mode, where there is no device).
    public var audioUnit: AudioUnit? { attachedEngine?.isInManualRenderingMode == true ? nil : unit }

    /// Whether voice processing (echo cancellation, AGC) runs on the I/O unit.
    public var isVoiceProcessingEnabled: Bool { attachedEngine?.voiceProcessing ?? false }

    /// Switches voice processing (AUVoiceProcessingIO) on or off; the engine must be stopped.
    public func setVoiceProcessingEnabled(_ enabled: Bool) throws {
        guard let engine = attachedEngine else { throw AVAudioError.make(kAudioUnitErr_Uninitialized) }
        try engine.setVoiceProcessing(enabled)
    }
}
