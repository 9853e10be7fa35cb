// libFuzzer target (FuzzRTPMIDI): the network MIDI parsers (AppleMIDI session commands, RTP-MIDI packets with
// their recovery journals) and what a session does with a packet; any crash, hang or sanitizer report is a bug.
import CoreMIDI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _RTPMIDIFuzzing.exercise(UnsafeRawBufferPointer(start: bytes, count: size))
    return 0
}
