import CoreMIDI
import Testing

@Suite struct MIDIPacketListTests {
    @Test func layoutIsApplesPacked() {
        #expect(MemoryLayout<MIDIPacket>.offset(of: \MIDIPacket.length) == 8)
        #expect(MemoryLayout<MIDIPacket>.offset(of: \MIDIPacket.data) == 10)
        #expect(MemoryLayout<MIDIPacket>.size == 268)
        #expect(MemoryLayout<MIDIPacketList>.offset(of: \MIDIPacketList.packet) == 4)
        #expect(MemoryLayout<MIDIEventPacket>.size == 268)
        #expect(MemoryLayout<MIDIEventList>.offset(of: \MIDIEventList.packet) == 8)
    }

    @Test func sameTimestampMergesSysExDoesNotAndFullListIsNil() {
        let builder = MIDIPacketList.Builder(byteSize: 64)
        builder.append(timestamp: 7, data: [0x90, 60, 100])
        builder.append(timestamp: 7, data: [0x90, 64, 100])
        #expect(builder.count == 1)
        builder.append(timestamp: 8, data: [0xF0, 1, 2, 0xF7])
        builder.append(timestamp: 8, data: [0xB0, 7, 1])
        #expect(builder.count == 3)
        #expect(builder.append(timestamp: 9, data: [UInt8](repeating: 1, count: 40)) == nil)
        builder.withUnsafePointer { list in
            let packets = list.unsafeSequence().map { p in (p.pointee.timeStamp, withUnsafeBytes(of: p.pointee.data) { Array($0.prefix(Int(p.pointee.length))) }) }
            #expect(packets.map(\.0) == [7, 8, 8])
            #expect(packets[0].1 == [0x90, 60, 100, 0x90, 64, 100])
            #expect(packets[1].1 == [0xF0, 1, 2, 0xF7])
            #expect(packets[2].1 == [0xB0, 7, 1])
            // Packed: the second packet starts right after the first's 6 data bytes (Intel; ARM aligns to 4).
            let first = list.unsafeSequence().map { UnsafeRawPointer($0) }
            #if arch(x86_64)
            #expect(first[1] - first[0] == 16)
            #endif
        }
        builder.clear()
        #expect(builder.count == 0)
    }

    @Test func eventListMergesSameTimestampAndWalks() {
        let builder = MIDIEventList.Builder(inProtocol: ._2_0, wordSize: 40)
        let on = MIDI2NoteOn(0, 0, 60, 0, 0, 0x8000)
        builder.append(timestamp: 1, words: [on.word0, on.word1])
        builder.append(timestamp: 1, words: [MIDI1UPControlChange(0, 1, 7, 100)])
        builder.append(timestamp: 2, words: [MIDI1UPNoteOff(0, 0, 60, 0)])
        #expect(builder.count == 2)
        #expect(builder.append(timestamp: 3, words: [UInt32](repeating: 0, count: 30)) == nil)
        builder.withUnsafePointer { list in
            #expect(list.pointee.protocol == ._2_0)
            let packets = list.unsafeSequence().map { (Array($0.sequence()), $0.pointee.timeStamp) }
            #expect(packets.count == 2)
            #expect(packets[0].0 == [on.word0, on.word1, 0x20B1_0764])
            #expect(packets[1].0 == [0x2080_3C00] && packets[1].1 == 2)
        }
    }

    @Test func umpHelpersMatchTheSpec() {
        #expect(MIDI1UPNoteOn(1, 2, 60, 100) == 0x2192_3C64)
        let m = MIDI2NoteOn(0, 3, 60, 0, 0, 0xFFFF)
        #expect(m.word0 == 0x4093_3C00 && m.word1 == 0xFFFF_0000)
        #expect(MIDIMessageTypeForUPWord(m.word0) == .channelVoice2)
    }
}
