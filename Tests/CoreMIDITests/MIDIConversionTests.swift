@testable import CoreMIDI
import Testing

@Suite struct MIDIConversionTests {
    /// MIDI 1.0 bytes -> UMP (protocol) -> bytes gives the bytes back.
    func roundTrip(_ bytes: [UInt8], _ protocolID: MIDIProtocolID) -> [UInt8] {
        MIDIConversion.bytes(fromUMP: MIDIConversion.words(fromBytes: bytes, protocolID))
    }

    @Test(arguments: [
        [0x90, 60, 100], [0x80, 60, 64], [0xB3, 7, 127], [0xC4, 12], [0xE5, 0x00, 0x40], [0xD6, 90], [0xA0, 60, 10],
        [0xF8], [0xFA], [0xFC], [0xFE], [0xF2, 0x10, 0x20], [0xF3, 5], [0xF1, 0x31],
        [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xF7], [0xF0, 1, 2, 0xF7],
    ] as [[UInt8]])
    func midi1RoundTripsThroughMIDI1UMP(bytes: [UInt8]) {
        #expect(roundTrip(bytes, ._1_0) == bytes)
    }

    @Test(arguments: [
        [0x90, 60, 100], [0x80, 60, 64], [0xB3, 7, 127], [0xB3, 7, 0], [0xC4, 12], [0xE5, 0x00, 0x40], [0xE5, 0x7F, 0x7F],
        [0xD6, 90], [0xA0, 60, 10], [0xF8],
    ] as [[UInt8]])
    func midi1RoundTripsThroughMIDI2UMP(bytes: [UInt8]) {
        #expect(roundTrip(bytes, ._2_0) == bytes)
    }

    @Test func sysExBecomesSevenBitPackets() {
        let words = MIDIConversion.words(fromBytes: [0xF0, 1, 2, 3, 4, 5, 6, 7, 8, 0xF7], ._1_0)
        #expect(words == [0x3016_0102, 0x0304_0506, 0x3032_0708, 0])
    }

    @Test func midi2RegisteredControllerBecomesRPNControlChanges() {
        let rpn = MIDI2RegisteredControl(0, 1, 0, 2, 0x8000_0000)
        #expect(MIDIConversion.bytes(fromUMP: [rpn.word0, rpn.word1]) == [0xB1, 101, 0, 0xB1, 100, 2, 0xB1, 6, 0x40, 0xB1, 38, 0])
    }

    @Test func runningStatusExpands() {
        #expect(MIDIConversion.words(fromBytes: [0x90, 60, 1, 62, 2], ._1_0) == [0x2090_3C01, 0x2090_3E02])
    }

    @Test func midi2ScalingIsMinCenterMax() {
        #expect(MIDIConversion.scaleUp(0x40, from: 7, to: 16) == 0x8000)
        #expect(MIDIConversion.scaleUp(0x7F, from: 7, to: 16) == 0xFFFF)
        #expect(MIDIConversion.scaleUp(0, from: 7, to: 16) == 0)
        #expect(MIDIConversion.scaleUp(0x7F, from: 7, to: 32) == 0xFFFF_FFFF)
        #expect(MIDIConversion.scaleUp(0x2000, from: 14, to: 32) == 0x8000_0000)
        #expect(MIDIConversion.scaleUp(0x3FFF, from: 14, to: 32) == 0xFFFF_FFFF)
        let on = MIDIConversion.words(fromBytes: [0x90, 60, 0x40], ._2_0)
        #expect(on == [0x4090_3C00, 0x8000_0000])
    }
}

@Suite struct MIDISysExAcrossPacketsTests {
    @Test func sysExSplitOverPacketsBecomesOneUMPSysEx() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreate(client, "s" as CFString, &src)
        let inbox = Inbox<[UInt32]>()
        _ = MIDIInputPortCreateWithProtocol(client, "in" as CFString, ._2_0, &port) { list, _ in
            for p in list.unsafeSequence() { inbox.add(Array(p.sequence())) }
        }
        _ = MIDIPortConnectSource(port, src, nil)
        let builder = MIDIPacketList.Builder(byteSize: 256)
        builder.append(timestamp: 1, data: [0xF0, 1, 2, 3, 4, 5, 6, 7, 8])
        builder.append(timestamp: 2, data: [9, 10, 0xF7])
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        let got = try await inbox.wait(for: 2)
        #expect(got == [[0x3016_0102, 0x0304_0506], [0x3034_0708, 0x090A_0000]])
        _ = MIDIClientDispose(client)
    }
}

@Suite struct MIDIProtocolBridgeTests {
    @Test func midi2EventListReachesMIDI1ProtocolPortDownscaled() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreateWithProtocol(client, "s" as CFString, ._2_0, &src)
        let inbox = Inbox<[UInt32]>()
        _ = MIDIInputPortCreateWithProtocol(client, "in" as CFString, ._1_0, &port) { list, _ in
            for p in list.unsafeSequence() { inbox.add(Array(p.sequence())) }
        }
        _ = MIDIPortConnectSource(port, src, nil)
        let builder = MIDIEventList.Builder(inProtocol: ._2_0, wordSize: 64)
        let on = MIDI2NoteOn(3, 4, 62, 0, 0, 0x8000)
        builder.append(timestamp: 0, words: [on.word0, on.word1, MIDI1UPSystemCommon(3, 0xF8, 0, 0)])
        builder.withUnsafePointer { _ = MIDIReceivedEventList(src, $0) }
        #expect(try await inbox.wait(for: 1) == [[MIDI1UPNoteOn(3, 4, 62, 0x40), MIDI1UPSystemCommon(3, 0xF8, 0, 0)]])
        _ = MIDIClientDispose(client)
    }
}
