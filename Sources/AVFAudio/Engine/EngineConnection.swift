import Foundation

/// One output bus of one node (the key of a fan-out).
struct SourceKey: Hashable {
    let node: ObjectIdentifier
    let bus: Int
}

/// A connection as the client made it, with the converter the engine put in it when the destination cannot
/// take the source's format directly.
final class EngineConnection {
    let source: AVAudioNode
    let sourceBus: Int
    let dest: AVAudioNode
    let destBus: Int
    var format: AVAudioFormat
    var adapter: AVAudioNode?

    init(source: AVAudioNode, sourceBus: Int, dest: AVAudioNode, destBus: Int, format: AVAudioFormat) {
        self.source = source
        self.sourceBus = sourceBus
        self.dest = dest
        self.destBus = destBus
        self.format = format
    }

    var key: SourceKey { SourceKey(node: ObjectIdentifier(source), bus: sourceBus) }
}
