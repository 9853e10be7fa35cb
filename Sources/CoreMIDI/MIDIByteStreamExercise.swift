// Not API: what the MIDI fuzz target (FuzzTesting/Sources/FuzzMIDIBytes) and its corpus replay test run on hostile
// bytes, behind an SPI so that clients never see it.

/// Runs hostile bytes through the MIDI 1.0 parsers and converters: as a byte stream cut into packets (the cut
/// points come from the first byte, so that running status and SysEx spanning packets are exercised) into UMPs
/// of both protocols and back, through the message splitter the JACK and ALSA backends use, and as raw UMP
/// words converted between protocols and to bytes. Returns how many UMP words and messages came out (so
/// that nothing is optimised away). Any trap is a bug.
@_spi(Exercises) @discardableResult public func MIDIExerciseByteStream(_ data: UnsafeRawBufferPointer) -> Int {
    let bytes = Array(data)
    var total = 0
    let step = max(1, Int(bytes.first ?? 1) % 17)
    for protocolID in [MIDIProtocolID._1_0, ._2_0] {
        var parser = MIDIByteParser()
        var splitter = MIDIMessageSplitter()
        var words: [UInt32] = []
        var start = 0
        while start < bytes.count {
            let chunk = Array(bytes[start..<min(start + step, bytes.count)])
            words += parser.words(chunk, protocolID)
            total += splitter.messages(chunk).count
            start += step
        }
        let back = MIDIConversion.bytes(fromUMP: words)
        total += words.count + MIDIConversion.words(fromBytes: back, protocolID).count
        // The words of one protocol as a packet received by a receiver of the other.
        let packet = MIDIMessageBatch.Packet(time: 0, words: words, protocolID: protocolID)
        var other = MIDIByteParser()
        total += MIDIConversion.words(of: packet, in: protocolID == ._1_0 ? ._2_0 : ._1_0, parser: &other).count
    }
    // The bytes as raw UMP words (truncated UMPs included).
    var raw: [UInt32] = []
    for i in stride(from: 0, to: bytes.count - bytes.count % 4, by: 4) {
        var w = UInt32(bytes[i]) << 24
        w |= UInt32(bytes[i + 1]) << 16
        w |= UInt32(bytes[i + 2]) << 8
        w |= UInt32(bytes[i + 3])
        raw.append(w)
    }
    total += MIDIConversion.bytes(fromUMP: raw).count
    for (from, to) in [(MIDIProtocolID._1_0, MIDIProtocolID._2_0), (._2_0, ._1_0)] {
        var p = MIDIByteParser()
        total += MIDIConversion.words(of: MIDIMessageBatch.Packet(time: 0, words: raw, protocolID: from), in: to, parser: &p).count
    }
    return total
}
