import Foundation

/// Receives a sink node's input: `frameCount` frames in `inputData` for the time `timestamp`. Runs on the
/// render thread: no allocation, locks or I/O.
public typealias AVAudioSinkNodeReceiverBlock = (_ timestamp: UnsafePointer<AudioTimeStamp>, _ frameCount: AVAudioFrameCount,
                                                 _ inputData: UnsafePointer<AudioBufferList>) -> OSStatus

/// A node that hands what reaches its input to a block, on the render thread, each render cycle (the engine
/// pulls it alongside its output).
open class AVAudioSinkNode: AVAudioNode, @unchecked Sendable {
    /// The receiver as the render thread reaches it.
    let box: EngineHead.SinkBox

    /// A sink calling `block` with each cycle's input.
    public init(receiverBlock block: @escaping AVAudioSinkNodeReceiverBlock) {
        box = EngineHead.SinkBox(block)
        super.init(unit: Self.instantiate(AVAudioPlayerNode.description))
    }

    /// One input.
    public override var numberOfInputs: Int { 1 }
    /// No outputs.
    public override var numberOfOutputs: Int { 0 }
    override var outputFollowsInput: Bool { true }
}
