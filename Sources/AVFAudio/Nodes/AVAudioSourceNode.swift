import Foundation

/// Fills a source node's output: `frameCount` frames into `outputData` for the time `timestamp`; set
/// `isSilence` when the frames are all zero. Runs on the render thread: no allocation, locks or I/O.
public typealias AVAudioSourceNodeRenderBlock = (_ isSilence: UnsafeMutablePointer<ObjCBool>, _ timestamp: UnsafePointer<AudioTimeStamp>,
                                                 _ frameCount: AVAudioFrameCount, _ outputData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus

/// A node whose audio comes from a render block, converted (rate, channels) from the block's format to the
/// connection's when they differ.
open class AVAudioSourceNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    private final class Box {
        let block: AVAudioSourceNodeRenderBlock
        init(_ block: @escaping AVAudioSourceNodeRenderBlock) { self.block = block }
    }
    private let box: Box
    /// The block's own format, when one was given (else it renders in the output format).
    private let blockFormat: AVAudioFormat?

    /// A source whose block renders in the node's output format.
    public init(renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        box = Box(block)
        blockFormat = nil
        super.init(unit: Self.instantiate(AVAudioPlayerNode.description))
        installCallback()
    }

    /// A source whose block renders in `format` (converted to the node's output format).
    public init(format: AVAudioFormat, renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        box = Box(block)
        blockFormat = format
        super.init(unit: Self.instantiate(AVAudioPlayerNode.description))
        setFormat(format, kAudioUnitScope_Input, 0)
        setFormat(format, kAudioUnitScope_Output, 0)
        installCallback()
    }

    private func installCallback() {
        var callback = AURenderCallbackStruct(inputProc: Self.renderProc, inputProcRefCon: Unmanaged.passUnretained(box).toOpaque())
        AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    private static let renderProc: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
        let box = Unmanaged<Box>.fromOpaque(refCon).takeUnretainedValue()
        guard let ioData else { return kAudio_ParamError }
        var silence = ObjCBool(false)
        let status = box.block(&silence, timeStamp, frames, ioData)
        if silence.boolValue { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return status
    }

    /// Without a format of its own the block renders in the output format, so the converter's input follows it.
    @discardableResult
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus = 0) -> Bool {
        if blockFormat == nil, !setFormat(format, kAudioUnitScope_Input, 0) { return false }
        return super.setOutputFormat(format, bus: bus)
    }

    /// No inputs.
    public override var numberOfInputs: Int { 0 }
    /// One output.
    public override var numberOfOutputs: Int { 1 }
}
