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
