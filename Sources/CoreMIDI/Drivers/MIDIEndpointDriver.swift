/// A backend that carries a device endpoint's MIDI outside the process (JACK MIDI, the ALSA sequencer).
/// Called with no MIDIServer lock held.
protocol MIDIEndpointDriver: AnyObject, Sendable {
    /// Sends to one of the driver's destinations (any thread, not real time); timestamps are host times, 0 = now.
    func send(_ batch: MIDIMessageBatch, to destination: MIDIObject)
    /// An input port was connected to one of the driver's sources: make sure what it sends reaches this process.
    func listen(to source: MIDIObject)
}
