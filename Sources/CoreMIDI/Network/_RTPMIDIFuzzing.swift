/// Not API: runs the network MIDI parsers on hostile bytes, for the libFuzzer target in FuzzTesting/ and the
/// corpus replay test. Any crash, hang or failed invariant is a bug; malformed input only gives errors.
public enum _RTPMIDIFuzzing {
    /// Parses `bytes` as an AppleMIDI command and as an RTP-MIDI packet, and runs what a session does with
    /// a packet (journal recovery, re-serialisation, journal history); traps only if an invariant breaks.
    public static func exercise(_ bytes: UnsafeRawBufferPointer) {
        let data = [UInt8](bytes)
        if let command = try? AppleMIDICommand.parse(data) {
            // What we write, we read back the same (names lose a NUL and anything after it).
            precondition((try? AppleMIDICommand.parse(command.bytes)) == command, "AppleMIDI command round trip")
        }
        _ = RTPMIDIPacket.commands(fromStream: data)
        guard let packet = try? RTPMIDIPacket.parse(data) else { return }
        var receiver = RTPMIDIReceiverState()
        var history = RTPMIDIJournalHistory(first: Int64(packet.sequence))
        _ = receiver.accept(packet)
        var later = packet
        later.sequence &+= 3  // as if two packets were lost: the journal is applied
        _ = receiver.accept(later)
        for c in packet.commands { history.record(c.bytes, sequence: Int64(packet.sequence)) }
        history.acknowledge(packet.sequence &- 1, latest: Int64(packet.sequence))
        // A packet we build (from the stream delivered) parses back to the same commands and journal; an
        // unterminated SysEx goes out as a first segment (closing F0) and comes back without it.
        let stream = RTPMIDIPacket.commands(fromStream: packet.commands.flatMap(\.bytes))
        guard stream.reduce(0, { $0 + $1.count + 1 }) <= RTPMIDIPacket.maximumListLength else { return }
        let rebuilt = RTPMIDIPacket(sequence: packet.sequence, timestamp: 0, ssrc: 1, commands: stream.map { .init(delta: 0, bytes: $0) },
                                    journal: history.journal())
        let again = try? RTPMIDIPacket.parse(rebuilt.serialized())
        precondition(again?.commands.map(\.bytes) == stream.map { $0.first == 0xF0 && $0.last == 0xF0 ? Array($0.dropLast()) : $0 },
                     "RTP-MIDI command list round trip")
        precondition(again?.journal == rebuilt.journal, "recovery journal round trip")
    }
}
