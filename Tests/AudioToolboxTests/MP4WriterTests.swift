@testable import AudioToolbox
import Foundation
import Testing

/// The 'moov' builder alone: chunk offsets past 4 GiB take co64, below stco; the boxes parse back.
@Suite struct MP4WriterTests {
    static func layout(packets: Int) -> AudioFileLayout {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = 44100
        f.mFormatID = kAudioFormatFLAC
        f.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
        f.mChannelsPerFrame = 2
        f.mFramesPerPacket = 4096
        let info = FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 44100, channels: 2, bitsPerSample: 16)
        var layout = AudioFileLayout(fileType: kAudioFileM4AType, format: f, dataOffset: 0, dataByteCount: 0, magicCookie: FLACCookie.bytes(info))
        var index = PacketIndex(variableFrames: false)
        for i in 0..<packets { index.append(offset: Int64(i) * 1000, size: 1000, frames: 0) }
        layout.packetIndex = index
        layout.dataByteCount = index.dataEnd
        return layout
    }

    static func contains(_ bytes: [UInt8], _ type: String) -> Bool {
        let t = Array(type.utf8)
        return bytes.indices.dropLast(3).contains { Array(bytes[$0..<$0 + 4]) == t }
    }

    @Test func chunkOffsetsPast4GiBUseCo64() throws {
        let small = try #require(MP4Writer.movie(Self.layout(packets: 100), dataOffset: 1000))
        #expect(Self.contains(small, "stco") && !Self.contains(small, "co64"))
        let large = try #require(MP4Writer.movie(Self.layout(packets: 100), dataOffset: 5_000_000_000))
        #expect(Self.contains(large, "co64") && !Self.contains(large, "stco"))
        // The offsets read back: the first chunk at the data offset, 64-bit.
        let at = try #require(large.indices.dropLast(3).first { Array(large[$0..<$0 + 4]) == Array("co64".utf8) })
        let first = large[(at + 12)..<(at + 20)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(first == 5_000_000_000)
    }
}
