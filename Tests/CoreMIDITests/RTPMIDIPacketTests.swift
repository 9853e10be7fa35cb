@testable import CoreMIDI
import Foundation
import Testing

/// The RTP-MIDI and AppleMIDI wire formats: packets written by hand from RFC 6295 and Apple's session protocol,
/// round trips, and hostile input (every truncation and corruption of valid packets gives an error, not a crash).
@Suite struct RTPMIDIPacketTests {
    /// RTP header (seq 0x1234, ts 0x01020304, ssrc 0xAABBCCDD), a MIDI list with running status and a delta
    /// time, and a journal: checkpoint 0x1230, channel 2 with chapter C (7 = 99) and chapter N (note 60 at
    /// velocity 100 played; note 62 off: LOW 7 HIGH 7, offbits 0x20).
    static let handWritten: [UInt8] = [0x80, 0x61, 0x12, 0x34, 0x01, 0x02, 0x03, 0x04, 0xAA, 0xBB, 0xCC, 0xDD,
                                       0x47, 0x92, 0x3C, 0x64, 0x81, 0x00, 0x3E, 0x00,
                                       0x20, 0x12, 0x30,
                                       0x10, 0x0B, 0x48, 0x00, 0x07, 0x63, 0x01, 0x77, 0x3C, 0xE4, 0x02]

    @Test func parsesAHandWrittenPacket() throws {
        let p = try RTPMIDIPacket.parse(Self.handWritten)
        #expect(p.sequence == 0x1234 && p.timestamp == 0x0102_0304 && p.ssrc == 0xAABB_CCDD)
        #expect(p.commands == [.init(delta: 0, bytes: [0x92, 0x3C, 0x64]), .init(delta: 128, bytes: [0x92, 0x3E, 0x00])])
        let j = try #require(p.journal)
        #expect(j.checkpoint == 0x1230 && j.channels.count == 1)
        let c = j.channels[0]
        #expect(c.channel == 2 && c.controllers.map { [$0.number, $0.value] } == [[7, 99]])
        #expect(c.noteOns == [.init(note: 60, velocity: 100, play: true)] && c.noteOffs == [62])
    }

    @Test func journalAndCommandsRoundTrip() throws {
        var history = RTPMIDIJournalHistory(first: 10)
        for (seq, cmd) in [(10, [0x90, 60, 100]), (11, [0xB3, 7, 99]), (12, [0x80, 60, 0]), (12, [0x91, 61, 1]), (13, [0xC2, 5]),
                           (13, [0xE0, 1, 2]), (14, [0xB3, 0, 3])] as [(Int64, [UInt8])] {
            history.record(cmd, sequence: seq)
        }
        let journal = try #require(history.journal())
        let packet = RTPMIDIPacket(sequence: 15, timestamp: 7, ssrc: 9,
                                   commands: [.init(delta: 0, bytes: [0x90, 1, 2]), .init(delta: 300, bytes: [0xF0, 1, 2, 0xF7])], journal: journal)
        let back = try RTPMIDIPacket.parse(packet.serialized())
        #expect(back == packet)
        #expect(journal.channels.map(\.channel) == [0, 1, 2, 3])
        history.acknowledge(13, latest: 14)
        #expect(history.journal()?.channels.map(\.channel) == [0, 2, 3], "the checkpoint moved to 13: only changes since")
        #expect(history.journal()?.checkpoint == 13)
        history.acknowledge(14, latest: 14)
        #expect(history.journal()?.channels.map(\.channel) == [3])
        history.acknowledge(2, latest: 14)
        #expect(history.journal()?.checkpoint == 14, "an older acknowledgement does not move it back")
        history.advance(to: 15)
        #expect(history.journal() == nil, "nothing changed since packet 15")
    }

    @Test func appleMIDICommandsRoundTrip() throws {
        let all: [AppleMIDICommand] = [.invitation(token: 1, ssrc: 2, name: "Mac"), .accepted(token: 3, ssrc: 4, name: ""),
                                       .rejected(token: 5, ssrc: 6), .bye(token: 7, ssrc: 8),
                                       .clock(ssrc: 9, count: 2, t1: 10, t2: .max, t3: 12), .feedback(ssrc: 13, sequence: 0xFFFF)]
        for c in all { #expect(try AppleMIDICommand.parse(c.bytes) == c) }
        // Apple's IN as on the wire: FFFF "IN", version 2, token, SSRC, name and NUL.
        #expect(AppleMIDICommand.invitation(token: 0x0102_0304, ssrc: 0x0A0B_0C0D, name: "A").bytes
                == [0xFF, 0xFF, 0x49, 0x4E, 0, 0, 0, 2, 1, 2, 3, 4, 0x0A, 0x0B, 0x0C, 0x0D, 0x41, 0])
        #expect(AppleMIDICommand.clock(ssrc: 1, count: 0, t1: 2, t2: 0, t3: 0).bytes.count == 36)
        #expect(throws: RTPMIDIError.unknownCommand) { try AppleMIDICommand.parse([0xFF, 0xFF, 0x58, 0x58]) }
    }

    @Test func sysExIsSegmentedAndReassembled() throws {
        let sysex: [UInt8] = [0xF0] + (0..<2500).map { UInt8($0 % 128) } + [0xF7]
        let segments = RTPMIDIPacket.segments(sysex)
        #expect(segments.count == 3 && segments.allSatisfy { $0.count <= RTPMIDIPacket.maximumListLength })
        var delivered: [UInt8] = []
        for (i, s) in segments.enumerated() {
            let p = RTPMIDIPacket(sequence: UInt16(i), timestamp: 0, ssrc: 1, commands: [.init(delta: 0, bytes: s)], journal: nil)
            delivered += try RTPMIDIPacket.parse(p.serialized()).commands.flatMap(\.bytes)
        }
        #expect(delivered == sysex)
    }

    @Test func hostileInputGivesErrors() throws {
        let bytes = Self.handWritten
        // Every truncation: an error or a shorter packet, never a crash.
        for n in 0..<bytes.count { _ = try? RTPMIDIPacket.parse(Array(bytes[0..<n])) }
        #expect(throws: RTPMIDIError.self) { try RTPMIDIPacket.parse(Array(bytes[0..<20])) }
        // Every single-byte corruption, and a length field pointing past the end.
        for i in 0..<bytes.count {
            for v: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
                var b = bytes
                b[i] = v
                b.withUnsafeBytes { _RTPMIDIFuzzing.exercise($0) }
            }
        }
        #expect(throws: RTPMIDIError.self) { try RTPMIDIPacket.parse([0x80, 0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x8F, 0xFF]) }
        // Running status with nothing to run, and a delta time longer than four bytes.
        #expect(throws: RTPMIDIError.malformed) { try RTPMIDIPacket.parse([0x80, 0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x3C, 0x40]) }
        #expect(throws: RTPMIDIError.malformed) {
            try RTPMIDIPacket.parse([0x80, 0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x28, 0x81, 0x81, 0x81, 0x81, 0x01, 0x90, 1, 2])
        }
        // Padding that claims more than the packet.
        #expect(throws: RTPMIDIError.malformed) { try RTPMIDIPacket.parse([0xA0, 0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x40]) }
    }

    /// The seeds and regressions of the FuzzRTPMIDI target, replayed.
    @Test func fuzzCorpusReplays() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus/rtpmidi")
        let files = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
        #expect(files.count >= 5, "the RTP-MIDI seeds are missing")
        var parsed = 0
        for f in files {
            let data = try Data(contentsOf: f)
            data.withUnsafeBytes { _RTPMIDIFuzzing.exercise($0) }
            if (try? RTPMIDIPacket.parse([UInt8](data))) != nil || (try? AppleMIDICommand.parse([UInt8](data))) != nil { parsed += 1 }
        }
        #expect(parsed >= 5)
    }
}
