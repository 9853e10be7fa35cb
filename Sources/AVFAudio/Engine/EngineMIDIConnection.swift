import Foundation

/// A source node's MIDI connections: where its unit's MIDI output goes, the host's tap on it, and what renders
/// a source that has no audio connection.
struct EngineMIDIConnection {
    let source: AVAudioNode
    var destinations: [AVAudioNode]
    var tap: AUMIDIOutputEventBlock?
    /// Renders the source from its first destination's render while its audio goes nowhere.
    var pull: EngineMIDISourcePull?
}
