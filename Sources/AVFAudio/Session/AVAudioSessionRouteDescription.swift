import Foundation

/// A route: the ports audio comes in through and goes out to.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The input ports (none when the category does not record).
    public let inputs: [AVAudioSessionPortDescription]
    /// The output ports (none for the record category).
    public let outputs: [AVAudioSessionPortDescription]

    init(inputs: [AVAudioSessionPortDescription], outputs: [AVAudioSessionPortDescription]) {
        self.inputs = inputs
        self.outputs = outputs
        super.init()
    }

    /// Equal when the inputs and outputs are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionRouteDescription else { return false }
        return inputs == other.inputs && outputs == other.outputs
    }

    open override var hash: Int { inputs.count ^ outputs.count << 8 }

    open override var description: String { "<AVAudioSessionRouteDescription: inputs = \(inputs); outputs = \(outputs)>" }
}
