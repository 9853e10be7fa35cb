import CALSA
import Foundation

/// The ALSA sequencer as Core MIDI devices (placeholder until the backend proper: stays off).
final class ALSASequencerBackend: @unchecked Sendable {
    static let shared = ALSASequencerBackend()
    func update() {}
    func publish(_ ref: MIDIEndpointRef) {}
    func unpublish(_ ref: MIDIEndpointRef) {}
    func publishes(_ source: MIDIEndpointRef) -> Bool { false }
    func sourceSent(_ source: MIDIEndpointRef, _ batch: MIDIMessageBatch) {}
}
