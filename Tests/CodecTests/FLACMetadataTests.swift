import Foundation
import Testing
@testable import AudioToolbox

/// STREAMINFO, the metadata block list, Vorbis comments, ID3v2 skipping and MD5.
@Suite struct FLACMetadataTests {
    @Test func streamInfoRoundTrips() throws {
        let info = FLACStreamInfo(minBlockSize: 16, maxBlockSize: 65535, minFrameSize: 1, maxFrameSize: 0xFF_FFFF, sampleRate: 1_048_575,
                                  channels: 8, bitsPerSample: 32, totalSamples: (1 << 36) - 1, md5: Array(0..<16))
        let bytes = info.bytes
        #expect(bytes.count == 34)
        #expect(try FLACStreamInfo(parsing: bytes) == info)
        let small = FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 8000, channels: 1, bitsPerSample: 4)
        #expect(try FLACStreamInfo(parsing: small.bytes[...]) == small)
        #expect(throws: FLACError.needMoreData(atLeast: 34)) { try FLACStreamInfo(parsing: bytes.prefix(33)) }
        var zeroRate = bytes
        zeroRate[10] = 0; zeroRate[11] = 0; zeroRate[12] &= 0x0F
        #expect(throws: FLACError.invalid) { try FLACStreamInfo(parsing: zeroRate) }
    }

    /// A `flac` file's blocks, tags and frame offset, also behind an ID3v2 tag.
    @Test func readsReferenceFileMetadata() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("a.wav").path, flac = dir.appendingPathComponent("a.flac").path
        try TestSupport.sox(wav, rate: 48000, bits: 24, channels: 2, synth: ["1"] + TestSupport.musicSynth)
        try TestSupport.run("flac", ["-s", "-f", "-5", "-T", "ARTIST=Somebody", "-T", "title=Ça va = oui", "-o", flac, wav])
        let bytes = try TestSupport.bytes(flac)
        let m = try bytes.withUnsafeBytes { try FLACMetadata.parse($0).get() }
        #expect(m.streamInfo.sampleRate == 48000 && m.streamInfo.bitsPerSample == 24 && m.streamInfo.totalSamples == 48000)
        #expect(m.vorbisComments.contains { $0 == ("ARTIST", "Somebody") })
        #expect(m.vorbisComments.contains { $0 == ("TITLE", "Ça va = oui") })
        #expect(m.vendor.hasPrefix("reference libFLAC"))
        #expect(m.rawBlocks.map(\.type) == [0, 3, 4, 1])
        #expect(m.firstFrameOffset == 4 + m.rawBlocks.reduce(0) { $0 + 4 + $1.body.count })
        #expect(m.rawBlocks[0].body == m.streamInfo.bytes)

        // The same file behind an ID3v2 tag (with and without footer) parses to the same blocks, shifted.
        for footer in [false, true] {
            var id3: [UInt8] = [0x49, 0x44, 0x33, 4, 0, footer ? 0x10 : 0, 0, 0, 0x01, 0x7F]  // 255 bytes
            id3 += [UInt8](repeating: 0, count: 255 + (footer ? 10 : 0))
            let tagged = try (id3 + bytes).withUnsafeBytes { try FLACMetadata.parse($0).get() }
            #expect(tagged.firstFrameOffset == m.firstFrameOffset + id3.count)
            #expect(tagged.streamInfo == m.streamInfo)
            let decoded = try TestSupport.decodeFile(bytes)
            #expect(decoded.md5 == m.streamInfo.md5)
        }
    }

    /// Metadata we serialize parses back and `metaflac` reads it (last-block flag right).
    @Test func serializedMetadataIsReadByMetaflac() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let info = FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 44100, channels: 2, bitsPerSample: 16)
        let comments = [("ARTIST", "Ünïcode"), ("GENRE", "")]
        for padding in [0, 100] {
            let bytes = FLACMetadata.serialize(streamInfo: info, vorbisComments: comments, vendor: "us", padding: padding)
            let m = try bytes.withUnsafeBytes { try FLACMetadata.parse($0).get() }
            #expect(m.streamInfo == info && m.vendor == "us" && m.firstFrameOffset == bytes.count)
            #expect(m.vorbisComments.elementsEqual(comments) { $0 == $1 })
            #expect(m.rawBlocks.map(\.type) == (padding > 0 ? [0, 4, 1] : [0, 4]))
            let path = dir.appendingPathComponent("m\(padding).flac").path
            try TestSupport.write(bytes, to: path)
            let listing = String(decoding: try TestSupport.run("metaflac", ["--list", path]), as: UTF8.self)
            #expect(listing.contains("comment[0]: ARTIST=Ünïcode"))
            #expect(listing.contains("is last: true"))
            #expect(listing.contains("type: 1 (PADDING)") == (padding > 0))
        }
    }

    /// MD5 against RFC 1321 digests, across uneven updates, and the sample byte convention.
    @Test func md5MatchesKnownDigests() {
        func hex(_ d: [UInt8]) -> String { d.map { String(format: "%02x", $0) }.joined() }
        var empty = FLACMD5()
        #expect(hex(empty.finish()) == "d41d8cd98f00b204e9800998ecf8427e")
        empty.update(Array("abc".utf8))
        #expect(hex(empty.finish()) == "900150983cd24fb0d6963f7d28e17f72")
        // One million 'a' in uneven pieces exercises the carried partial block.
        var m = FLACMD5()
        let piece = [UInt8](repeating: 0x61, count: 997)
        var left = 1_000_000
        while left > 0 {
            let n = min(left, piece.count - left % 7)
            m.update(Array(piece[0..<n]))
            left -= n
        }
        #expect(hex(m.finish()) == "7707d6ae4e027c70eea2a935c2296f21")
        // Samples: 24-bit little-endian, 3 bytes each.
        var s = FLACMD5(), b = FLACMD5()
        let samples: [Int32] = [1, -1, 0x7FFFFF, -0x800000]
        samples.withUnsafeBufferPointer { s.updateSamples($0.baseAddress!, count: 4, bitsPerSample: 24) }
        b.update([1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0x80])
        #expect(s.finish() == b.finish())
    }
}
