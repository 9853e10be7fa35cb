import Foundation

/// Supplies the input node's audio in manual rendering mode: a buffer list of `inNumberOfFrames` frames in the
/// format given with it, or nil when there is none.
public typealias AVAudioIONodeInputBlock = (AVAudioFrameCount) -> UnsafePointer<AudioBufferList>?

/// The engine's input: the device's input (output bus 0), or in manual rendering what the client's input block
/// supplies.
open class AVAudioInputNode: AVAudioIONode, AVAudioMixing, @unchecked Sendable {
    var manualInputBlock: AVAudioIONodeInputBlock?
    var manualInputFormat: AVAudioFormat?

    /// No inputs.
    public override var numberOfInputs: Int { 0 }
    /// One output.
    public override var numberOfOutputs: Int { 1 }

    override func unitOutputBus(_ bus: AVAudioNodeBus) -> UInt32 {
        attachedEngine?.isInManualRenderingMode == true ? 0 : 1
    }

    /// The device's input format (in manual rendering, the format given with the input block).
    override func format(_ scope: AudioUnitScope, _ element: UInt32) -> AVAudioFormat {
        if scope == kAudioUnitScope_Input { return super.format(kAudioUnitScope_Input, 99) }  // no inputs: the empty format
        return super.format(scope, element)
    }

    /// In manual rendering mode, makes the input node pull its audio from `block` in `format`.
    @discardableResult
    public func setManualRenderingInputPCMFormat(_ format: AVAudioFormat, inputBlock block: @escaping AVAudioIONodeInputBlock) -> Bool {
        guard let engine = attachedEngine, engine.isInManualRenderingMode else { return false }
        manualInputFormat = format
        manualInputBlock = block
        return engine.setManualInput(format: format)
    }

    /// Whether voice processing's processing is bypassed.
    public var isVoiceProcessingBypassed: Bool {
        get { voiceProcessingProperty(kAUVoiceIOProperty_BypassVoiceProcessing) != 0 }
        set { setVoiceProcessingProperty(kAUVoiceIOProperty_BypassVoiceProcessing, newValue ? 1 : 0) }
    }
    /// Whether voice processing's gain control is on.
    public var isVoiceProcessingAGCEnabled: Bool {
        get { voiceProcessingProperty(kAUVoiceIOProperty_VoiceProcessingEnableAGC) != 0 }
        set { setVoiceProcessingProperty(kAUVoiceIOProperty_VoiceProcessingEnableAGC, newValue ? 1 : 0) }
    }
    /// Whether the processed input is muted.
    public var isVoiceProcessingInputMuted: Bool {
        get { voiceProcessingProperty(kAUVoiceIOProperty_MuteOutput) != 0 }
        set { setVoiceProcessingProperty(kAUVoiceIOProperty_MuteOutput, newValue ? 1 : 0) }
    }

    private func voiceProcessingProperty(_ id: AudioUnitPropertyID) -> UInt32 {
        var value: UInt32 = 0
        var size: UInt32 = 4
        AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 1, &value, &size)
        return value
    }

    private func setVoiceProcessingProperty(_ id: AudioUnitPropertyID, _ value: UInt32) {
        var v = value
        AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 1, &v, 4)
    }
}
