import Foundation
import Testing
@testable import AudioToolbox

/// The Ogg page layer: pages built here (with libogg's checksum, checked against a known value) parse
/// into their fields and packet pieces; a wrong checksum, a wrong version or a short page is refused;
/// packets join across pages, and a lost page drops the packet it cut.
@Suite struct OggPageTests {
    /// A page of `serial`/`sequence` whose body is `packets` laced (the last one left open when `open`).
    static func page(flags: UInt8 = 0, granule: Int64 = 0, serial: UInt32 = 7, sequence: UInt32, packets: [[UInt8]], open: Bool = false) -> [UInt8] {
        var lacing: [UInt8] = []
        for (i, p) in packets.enumerated() {
            lacing += [UInt8](repeating: 255, count: p.count / 255)
            if !(open && i == packets.count - 1) { lacing.append(UInt8(p.count % 255)) }
        }
        var b = Array("OggS".utf8) + [0, flags]
        b += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * UInt64($0))) }
        b += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (8 * UInt32($0))) }
        b += (0..<4).map { UInt8(truncatingIfNeeded: sequence >> (8 * UInt32($0))) }
        b += [0, 0, 0, 0, UInt8(lacing.count)] + lacing + packets.flatMap { $0 }
        let crc = b.withUnsafeBytes { OggCRC.page($0) }
        b.replaceSubrange(22..<26, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) })
        return b
    }

    static func parse(_ b: [UInt8]) -> OggPage.ParseResult { b.withUnsafeBytes { OggPage.parse($0) } }

    @Test func checksumIsLiboggs() {
        // libogg's CRC-32 (polynomial 0x04C11DB7, not reflected, initial 0) of "123456789" is 0x89A1897F.
        #expect(Array("123456789".utf8).withUnsafeBytes { OggCRC.update(0, $0) } == 0x89A1_897F)
    }

    @Test func fieldsAndPieces() throws {
        let big = [UInt8](repeating: 9, count: 600)
        let b = Self.page(flags: 2, granule: 123_456, sequence: 3, packets: [[1, 2, 3], big, [], [4]])
        guard case .page(let p) = Self.parse(b) else { Issue.record("not parsed"); return }
        #expect(p.isFirst && !p.isContinuation && !p.isLast)
        #expect(p.granulePosition == 123_456 && p.serial == 7 && p.sequence == 3)
        #expect(p.length == b.count && p.bodyLength == 604)
        #expect(p.pieces.map(\.length) == [3, 600, 0, 1] && p.pieces.allSatisfy(\.ends))
        #expect(p.pieces.map(\.offset) == [0, 3, 603, 603])
        // A packet of exactly 255 bytes ends with a 0 lacing value; an open one with 255.
        guard case .page(let q) = Self.parse(Self.page(sequence: 0, packets: [[UInt8](repeating: 1, count: 255), [UInt8](repeating: 2, count: 510)], open: true)) else {
            Issue.record("not parsed"); return
        }
        #expect(q.pieces.map(\.length) == [255, 510] && q.pieces.map(\.ends) == [true, false])
    }

    @Test func badPagesAreRefused() {
        var b = Self.page(sequence: 0, packets: [[1, 2, 3, 4]])
        for cut in [0, 3, 26, b.count - 1] {
            if case .needMore(let n) = Self.parse(Array(b.prefix(cut))) { #expect(n > cut) } else if cut > 0 { Issue.record("cut \(cut)") }
        }
        b[b.count - 1] ^= 1
        guard case .invalid = Self.parse(b) else { Issue.record("bad checksum accepted"); return }
        var v = Self.page(sequence: 0, packets: [[1]])
        v[4] = 1
        guard case .invalid = Self.parse(v) else { Issue.record("version 1 accepted"); return }
        guard case .invalid = Self.parse(Array("OggX".utf8) + [UInt8](repeating: 0, count: 40)) else { Issue.record("no capture pattern accepted"); return }
    }

    /// Joins `pages` (given as built bytes) with one assembler; the packets' sizes and offsets in the de-paged space.
    static func join(_ pages: [[UInt8]]) -> [(Int64, Int)] {
        var a = OggPacketAssembler(serial: 7, keepBytes: true)
        var out: [(Int64, Int)] = []
        var virtual: Int64 = 0
        for b in pages {
            guard case .page(let p) = parse(b) else { continue }
            out += a.add(p, body: b[p.headerLength...], virtualStart: virtual).map { ($0.virtualOffset, $0.size) }
            if p.serial == 7 { virtual += Int64(p.bodyLength) }  // the de-paged space holds this stream's pages only
        }
        return out
    }

    @Test func packetsJoinAcrossPagesAndALostPageDropsOne() {
        let long = [UInt8](repeating: 5, count: 700)
        let p0 = Self.page(sequence: 0, packets: [[1, 1], Array(long[0..<255])], open: true)
        let p1 = Self.page(flags: 1, sequence: 1, packets: [Array(long[255..<700]), [2, 2, 2]])
        let other = Self.page(serial: 99, sequence: 1, packets: [[8]])
        let joined = Self.join([p0, other, p1])
        #expect(joined.map(\.1) == [2, 700, 3])
        #expect(joined.map(\.0) == [0, 2, 702])
        // The page that finished the long packet lost (sequence 1 missing): it is dropped, the next page's packets stay.
        let p2 = Self.page(sequence: 2, packets: [[3, 3, 3, 3]])
        #expect(Self.join([p0, p2]).map(\.1) == [2, 4])
        // A continued piece whose start was never seen is skipped.
        #expect(Self.join([p1]).map(\.1) == [3])
    }
}
