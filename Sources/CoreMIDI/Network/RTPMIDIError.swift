/// Why bytes from the network are not a well-formed AppleMIDI or RTP-MIDI packet. Hostile packets end here,
/// never in a crash: every read is bounds-checked against the bytes received.
enum RTPMIDIError: Error, Equatable {
    /// The packet ends before a field it announces.
    case truncated
    /// A field holds a value the format does not allow (version, length, status byte).
    case malformed
    /// An AppleMIDI command this implementation does not know.
    case unknownCommand
}
