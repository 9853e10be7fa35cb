import CoreMIDI
import Testing

/// What the visitor saw (the visitor is a C function pointer, so it reaches this through the context).
final class Visited {
    var messages: [(MIDITimeStamp, MIDIUniversalMessage)] = []
}

@Suite struct MIDIEventListForEachEventTests {
    @Test func parsesMIDI1AndMIDI2Messages() {
        let builder = MIDIEventList.Builder(inProtocol: ._2_0, wordSize: 64)
        let on = MIDI2NoteOn(2, 5, 60, 0, 0, 0xC000)
        let cc = MIDI2ControlChange(0, 1, 74, 0x8000_0000)
        let pc = MIDI2ProgramChange(0, 3, true, 10, 1, 2)
        let sx = MIDI1UPSysEx(0, 0, 3, 0x7E, 0x7F, 0x09, 0, 0, 0)
        builder.append(timestamp: 11, words: [on.word0, on.word1, cc.word0, cc.word1])
        builder.append(timestamp: 12, words: [MIDI1UPPitchBend(0, 0, 0x00, 0x40), MIDI1UPSystemCommon(0, 0xF2, 0x10, 0x20), pc.word0, pc.word1, sx.word0, sx.word1])
        let visited = Visited()
        builder.withUnsafePointer { list in
            MIDIEventListForEachEvent(list, { context, time, message in
                Unmanaged<Visited>.fromOpaque(context!).takeUnretainedValue().messages.append((time, message))
            }, Unmanaged.passUnretained(visited).toOpaque())
        }
        let m = visited.messages
        #expect(m.count == 6)
        guard m.count == 6 else { return }
        #expect(m[0].0 == 11 && m[0].1.type == .channelVoice2 && m[0].1.group == 2)
        #expect(m[0].1.channelVoice2.status == .noteOn && m[0].1.channelVoice2.channel == 5)
        #expect(m[0].1.channelVoice2.note.number == 60 && m[0].1.channelVoice2.note.velocity == 0xC000)
        #expect(m[1].1.channelVoice2.controlChange.index == 74 && m[1].1.channelVoice2.controlChange.data == 0x8000_0000)
        #expect(m[2].0 == 12 && m[2].1.type == .channelVoice1 && m[2].1.channelVoice1.pitchBend == 0x2000)
        #expect(m[3].1.type == .system && m[3].1.system.songPositionPointer == 0x10 | 0x20 << 7)
        #expect(m[4].1.channelVoice2.programChange.program == 10 && m[4].1.channelVoice2.programChange.bank == 1 << 7 | 2)
        #expect(m[4].1.channelVoice2.programChange.options.contains(.bankValid))
        #expect(m[5].1.type == .sysEx && m[5].1.sysEx.data.0 == 0x7E && m[5].1.sysEx.data.2 == 0x09)
    }
}
