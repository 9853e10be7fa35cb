// An app that tags its recordings with a chunk of its own: AudioFileSetUserData on a CAF, WAVE or AIFF file it writes,
// then the chunk and the audio read back after reopening, the chunk read in parts, replaced and removed.
import AudioToolbox
import Foundation
import Testing

@Suite struct UserDataClientTests {
    private static let appChunk: UInt32 = 0x6170_7044  // 'appD'

    /// 16-bit mono, big-endian except in WAVE.
    private static func mono16(_ type: AudioFileTypeID) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
                                        | (type == kAudioFileWAVEType ? 0 : kAudioFormatFlagIsBigEndian),
                                    mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                    mBitsPerChannel: 16, mReserved: 0)
    }

    private static func readAll(_ file: AudioFileID, _ type: AudioFileTypeID) -> [Int16] {
        var packets: UInt64 = 0
        var size = UInt32(8)
        AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packets)
        var samples = [Int16](repeating: 0, count: Int(packets))
        var bytes = UInt32(packets * 2), count = UInt32(packets)
        samples.withUnsafeMutableBytes { _ = AudioFileReadPacketData(file, false, &bytes, nil, 0, &count, $0.baseAddress!) }
        return samples.map { type == kAudioFileWAVEType ? Int16(littleEndian: $0) : Int16(bigEndian: $0) }
    }

    static let fileTypes: [(AudioFileTypeID, String)] = [(kAudioFileCAFType, "caf"), (kAudioFileWAVEType, "wav"), (kAudioFileAIFFType, "aiff")]

    @Test(arguments: Self.fileTypes) func aChunkSetSurvivesReopeningAndMoreAudio(_ type: AudioFileTypeID, _ ext: String) throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("userdata-\(getpid()).\(ext)")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = Self.mono16(type)
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, type, &format, .eraseFile, &file) == noErr)
        let first = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 37) }
        let stored: (Int16) -> Int16 = { type == kAudioFileWAVEType ? $0.littleEndian : $0.bigEndian }
        var big = first.map(stored)
        var count = UInt32(first.count)
        #expect(AudioFileWritePackets(file!, false, count * 2, nil, 0, &count, &big) == noErr)
        let tag = Array("take 7, room B".utf8) + [0, 1, 2, 255]
        #expect(AudioFileSetUserData(file!, Self.appChunk, 0, UInt32(tag.count), tag) == noErr)
        // Index 2 skips one: there is no chunk 1 yet.
        #expect(AudioFileSetUserData(file!, Self.appChunk, 2, UInt32(tag.count), tag) != noErr)
        // More audio after the chunk: the chunk moves behind it.
        let second = (0..<500).map { Int16(truncatingIfNeeded: 20000 - $0 * 11) }
        big = second.map(stored)
        count = UInt32(second.count)
        #expect(AudioFileWritePackets(file!, false, count * 2, nil, 1000, &count, &big) == noErr)
        #expect(AudioFileClose(file!) == noErr)

        #expect(AudioFileOpenURL(url as CFURL, .readWritePermission, type, &file) == noErr)
        #expect(Self.readAll(file!, type) == first + second)
        var items: UInt32 = 0
        #expect(AudioFileCountUserData(file!, Self.appChunk, &items) == noErr)
        #expect(items == 1)
        var size64: UInt64 = 0
        #expect(AudioFileGetUserDataSize64(file!, Self.appChunk, 0, &size64) == noErr)
        #expect(size64 == UInt64(tag.count))
        var part = [UInt8](repeating: 0, count: 6)
        var partSize = UInt32(part.count)
        #expect(AudioFileGetUserDataAtOffset(file!, Self.appChunk, 0, 5, &partSize, &part) == noErr)
        #expect(partSize == 6 && part == Array(tag[5..<11]))
        partSize = 100
        part = [UInt8](repeating: 0, count: 100)
        #expect(AudioFileGetUserDataAtOffset(file!, Self.appChunk, 0, Int64(tag.count - 3), &partSize, &part) == noErr)
        #expect(partSize == 3 && Array(part[0..<3]) == [1, 2, 255])

        // Replace it with a longer chunk, then add a second one.
        let longer = [UInt8](repeating: 0x5A, count: 301)
        #expect(AudioFileSetUserData(file!, Self.appChunk, 0, UInt32(longer.count), longer) == noErr)
        #expect(AudioFileSetUserData(file!, Self.appChunk, 1, 4, [9, 8, 7, 6] as [UInt8]) == noErr)
        #expect(AudioFileClose(file!) == noErr)

        #expect(AudioFileOpenURL(url as CFURL, .readWritePermission, type, &file) == noErr)
        #expect(Self.readAll(file!, type) == first + second)
        #expect(AudioFileCountUserData(file!, Self.appChunk, &items) == noErr)
        #expect(items == 2)
        var whole = [UInt8](repeating: 0, count: 400)
        var wholeSize = UInt32(whole.count)
        #expect(AudioFileGetUserData(file!, Self.appChunk, 0, &wholeSize, &whole) == noErr)
        #expect(Array(whole[0..<Int(wholeSize)]) == longer)
        wholeSize = UInt32(whole.count)
        #expect(AudioFileGetUserData(file!, Self.appChunk, 1, &wholeSize, &whole) == noErr)
        #expect(Array(whole[0..<Int(wholeSize)]) == [9, 8, 7, 6])

        // Remove both: the file ends with its audio again.
        #expect(AudioFileRemoveUserData(file!, Self.appChunk, 0) == noErr)
        #expect(AudioFileRemoveUserData(file!, Self.appChunk, 0) == noErr)
        #expect(AudioFileRemoveUserData(file!, Self.appChunk, 0) != noErr)
        #expect(AudioFileClose(file!) == noErr)
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, type, &file) == noErr)
        defer { AudioFileClose(file!) }
        #expect(AudioFileCountUserData(file!, Self.appChunk, &items) == noErr)
        #expect(items == 0)
        #expect(Self.readAll(file!, type) == first + second)
    }
}
