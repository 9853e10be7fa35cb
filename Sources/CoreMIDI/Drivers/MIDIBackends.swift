import Foundation

/// The hooks through which the API reaches the device backends (JACK MIDI, the ALSA sequencer). Each backend
/// connects lazily: the first call that lists or creates something (MIDIClientCreate, MIDIGetNumberOf...,
/// MIDIGetSource...) looks for its server, later calls notice a changed JACK_DEFAULT_SERVER, and a backend
/// that lost its server looks for it again by itself. Without a server or sequencer a backend stays off.
enum MIDIBackends {
    /// Connects, reconnects or stays as is (cheap when nothing changed).
    static func update() {
        JACKMIDIBackend.shared.update()
        ALSASequencerBackend.shared.update()
    }

    /// A virtual endpoint was created: publish it (called with no lock held).
    static func virtualEndpointCreated(_ ref: MIDIEndpointRef) {
        JACKMIDIBackend.shared.publish(ref)
        ALSASequencerBackend.shared.publish(ref)
    }

    /// A virtual endpoint is going away; may be called under MIDIServer's lock, so the backends only take note.
    static func virtualEndpointRemoved(_ ref: MIDIEndpointRef) {
        JACKMIDIBackend.shared.unpublish(ref)
        ALSASequencerBackend.shared.unpublish(ref)
    }

    /// Whether any backend publishes this virtual source (then MIDIReceived must reach it even with no input port connected).
    static func publishes(_ source: MIDIEndpointRef) -> Bool {
        JACKMIDIBackend.shared.publishes(source) || ALSASequencerBackend.shared.publishes(source)
    }

    /// What a virtual source sent (MIDIReceived), for the backends' ports that stand for it.
    static func sourceSent(_ source: MIDIEndpointRef, _ batch: MIDIMessageBatch) {
        JACKMIDIBackend.shared.sourceSent(source, batch)
        ALSASequencerBackend.shared.sourceSent(source, batch)
    }
}
