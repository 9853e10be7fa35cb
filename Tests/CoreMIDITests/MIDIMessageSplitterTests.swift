@testable import CoreMIDI
import Testing

/// Byte streams cut into the one-message-per-event form JACK and the ALSA sequencer carry.
@Suite struct MIDIMessageSplitterTests {
    @Test func runningStatusRealTimeAndSysExAcrossPackets() {
        var s = MIDIMessageSplitter()
        #expect(s.messages([0x90, 60, 100, 62, 90, 0xF8, 64]) == [[0x90, 60, 100], [0x90, 62, 90], [0xF8]])
        #expect(s.messages([80]) == [[0x90, 64, 80]])  // running status carries over packets
        #expect(s.messages([0xF0, 1, 2]) == [])
        #expect(s.messages([3, 0xFE, 4]) == [[0xFE]])  // real-time inside SysEx goes out on its own, at once
        #expect(s.messages([0xF7, 0xC1, 5, 0xF6]) == [[0xF0, 1, 2, 3, 4, 0xF7], [0xC1, 5], [0xF6]])
        #expect(s.messages([7, 0xF7, 0xB0, 7]) == [])  // SysEx cleared running status; stray F7 dropped; CC incomplete
        #expect(s.messages([127]) == [[0xB0, 7, 127]])
        // A status byte ends an open SysEx.
        #expect(s.messages([0xF0, 9, 0x80, 1, 2]) == [[0xF0, 9, 0xF7], [0x80, 1, 2]])
    }

    @Test func oversizedSysExIsDropped() {
        var s = MIDIMessageSplitter()
        #expect(s.messages([0xF0] + [UInt8](repeating: 1, count: MIDIMessageSplitter.maxSysEx) + [0xF7, 0xC0, 1]) == [[0xC0, 1]])
    }
}
