import AudioToolbox
import Foundation
import Testing

/// AudioFileSetUserData on WAVE and AIFF files, checked from outside: sox reads the audio back unchanged, and the
/// file's chunks walked here by hand sit where RIFF and AIFF put them (the user chunk after the audio, each padded
/// to an even length, the RIFF or FORM size covering them all).
@Suite struct UserDataChunkLayoutTests {
    private static let appChunk: UInt32 = 0x6170_7044  // 'appD'

    /// The chunks after the 12-byte RIFF/FORM header: (ID, body size, body offset); fails on a size field that
    /// does not fit the file.
    private static func chunks(_ bytes: [UInt8], littleEndian: Bool) throws -> [(String, Int, Int)] {
        func u32(_ at: Int) -> Int {
            let b = bytes[at..<at + 4].map { Int($0) }
            return littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }
        try #require(u32(4) == bytes.count - 8, "the RIFF/FORM size covers the whole file")
        var result: [(String, Int, Int)] = []
        var at = 12
        while at < bytes.count {
            try #require(at + 8 <= bytes.count)
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = u32(at + 4)
            try #require(at + 8 + size <= bytes.count, "chunk \(id) fits")
            result.append((id, size, at + 8))
            at += 8 + size + (size & 1)
        }
        try #require(at == bytes.count, "the last chunk ends the file")
        return result
    }

    @Test(arguments: [kAudioFileWAVEType, kAudioFileAIFFType])
    func aUserChunkFollowsTheAudioPaddedAndSoxReadsTheAudio(_ type: AudioFileTypeID) throws {
        let wave = type == kAudioFileWAVEType
        let url = FileSupport.tempURL(wave ? "wav" : "aiff")
        defer { try? FileManager.default.removeItem(at: url) }
        // 8-bit mono and an odd frame count: the audio data needs a pad byte, and so does the 17-byte chunk.
        var format = AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: wave ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 1, mFramesPerPacket: 1, mBytesPerFrame: 1, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 8, mReserved: 0)
        let samples = (0..<1512).map { UInt8(truncatingIfNeeded: $0 * 29 + 3) }
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, type, &format, .eraseFile, &file) == noErr)
        var count: UInt32 = 1001
        #expect(AudioFileWritePackets(file!, false, count, nil, 0, &count, samples) == noErr)
        let tag = Array("odd-sized tag!!!!".utf8)
        #expect(tag.count == 17)
        #expect(AudioFileSetUserData(file!, Self.appChunk, 0, UInt32(tag.count), tag) == noErr)
        // The chunks the format's own properties manage are refused.
        let owned: UInt32 = wave ? 0x666D_7420 : 0x434F_4D4D  // 'fmt ' / 'COMM'
        #expect(AudioFileSetUserData(file!, owned, 0, 4, [1, 2, 3, 4] as [UInt8]) == kAudioFileInvalidChunkError)
        count = 500
        samples[1001...].withUnsafeBytes { _ = AudioFileWritePackets(file!, false, count, nil, 1001, &count, $0.baseAddress!) }
        #expect(count == 500)
        #expect(AudioFileClose(file!) == noErr)

        // Reopened for writing: the chunk after the audio does not stop more audio (it moves behind it).
        try #require(AudioFileOpenURL(url as CFURL, .readWritePermission, type, &file) == noErr)
        count = 11
        samples[1501...].withUnsafeBytes { _ = AudioFileWritePackets(file!, false, count, nil, 1501, &count, $0.baseAddress!) }
        #expect(count == 11)
        #expect(AudioFileClose(file!) == noErr)

        let bytes = Array(try Data(contentsOf: url))
        let list = try Self.chunks(bytes, littleEndian: wave)
        let names = list.map(\.0)
        let data = try #require(list.firstIndex { $0.0 == (wave ? "data" : "SSND") })
        #expect(names.last == "appD", "\(names)")
        #expect(data < names.count - 1)
        let app = list.last!
        #expect(app.1 == 17 && Array(bytes[app.2..<app.2 + 17]) == tag)
        #expect(bytes[app.2 + 17] == 0, "pad byte")

        // sox reads 1512 samples, the ones written (8-bit: the top byte of its 32-bit samples; WAVE's are offset binary).
        let read = try FileSupport.soxSamples(url)
        #expect(read.count == 1512)
        let expected = samples.map { wave ? Int32(Int8(bitPattern: $0 &- 128)) : Int32(Int8(bitPattern: $0)) }
        #expect(read.map { $0 >> 24 } == expected)
    }
}
