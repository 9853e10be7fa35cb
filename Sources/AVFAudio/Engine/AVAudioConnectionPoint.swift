import Foundation

/// One end of a connection: a node and one of its buses.
open class AVAudioConnectionPoint: NSObject, @unchecked Sendable {
    /// The node (held weakly, as Apple's is).
    public private(set) weak var node: AVAudioNode?
    /// The bus.
    public let bus: AVAudioNodeBus

    /// The point at `bus` of `node`.
    public init(node: AVAudioNode, bus: AVAudioNodeBus) {
        self.node = node
        self.bus = bus
        super.init()
    }

    /// Equal when the node and bus are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioConnectionPoint else { return false }
        return other.node === node && other.bus == bus
    }

    open override var hash: Int { bus ^ (node.map { ObjectIdentifier($0).hashValue } ?? 0) }
}
