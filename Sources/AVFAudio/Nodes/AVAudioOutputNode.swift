import Foundation

/// The engine's output: the device's output (input bus 0 is what the engine plays), or in manual rendering the
/// buffers the client renders into.
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    /// One input, no outputs a client can connect.
    public override var numberOfInputs: Int { 1 }
    /// One output (the device).
    public override var numberOfOutputs: Int { 1 }
}
