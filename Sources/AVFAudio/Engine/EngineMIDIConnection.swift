import Foundation

/// A source node's MIDI connections: where its unit's MIDI output goes and the host's tap on it.
struct EngineMIDIConnection {
    let source: AVAudioNode
    var destinations: [AVAudioNode]
    var tap: AUMIDIOutputEventBlock?
}
