import AudioToolbox
import Foundation
import Testing

/// A CAF 'pakt' chunk on linear PCM: AudioFile reports it, ExtAudioFile plays only the valid frames
/// (priming skipped, remainder cut), AudioFileStream announces it.
@Suite struct CAFPacketTableTests {
    /// Mono 16-bit little-endian, samples 0...99; the table says 4 priming, 90 valid, 6 remainder frames.
    static var file: [UInt8] {
        let be = FileSupport.be
        var out = Array("caff".utf8) + be(1, 2) + be(0, 2)
        out += Array("desc".utf8) + be(32, 8) + be(Double(8000).bitPattern, 8) + Array("lpcm".utf8) + be(2, 4) + be(2, 4) + be(1, 4) + be(1, 4) + be(16, 4)
        out += Array("pakt".utf8) + be(24, 8) + be(100, 8) + be(90, 8) + be(4, 4) + be(6, 4)
        out += Array("data".utf8) + be(204, 8) + be(0, 4)
        for i in 0..<100 { out += [UInt8(i), 0] }
        return out
    }

    func withFile(_ body: (URL) throws -> Void) throws {
        let url = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Self.file).write(to: url)
        try body(url)
    }

    @Test func audioFileReportsThePacketTable() throws {
        try withFile { url in
            var id: AudioFileID?
            #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &id) == noErr)
            let f = try #require(id)
            defer { AudioFileClose(f) }
            var table = AudioFilePacketTableInfo()
            var size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
            #expect(AudioFileGetProperty(f, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr)
            #expect(table.mNumberValidFrames == 90 && table.mPrimingFrames == 4 && table.mRemainderFrames == 6)
            var packets: UInt64 = 0
            size = 8
            #expect(AudioFileGetProperty(f, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
            #expect(packets == 100)  // AudioFile itself hands out every packet
            var duration = 0.0
            size = 8
            #expect(AudioFileGetProperty(f, kAudioFilePropertyEstimatedDuration, &size, &duration) == noErr)
            #expect(duration == 90.0 / 8000)
        }
    }

    @Test func extAudioFilePlaysOnlyTheValidFrames() throws {
        try withFile { url in
            var ext: ExtAudioFileRef?
            #expect(ExtAudioFileOpenURL(url as CFURL, &ext) == noErr)
            let x = try #require(ext)
            defer { ExtAudioFileDispose(x) }
            var length: Int64 = 0
            var size: UInt32 = 8
            #expect(ExtAudioFileGetProperty(x, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr)
            #expect(length == 90)
            var table = AudioFilePacketTableInfo()
            size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
            #expect(ExtAudioFileGetProperty(x, kExtAudioFileProperty_PacketTable, &size, &table) == noErr)
            #expect(table.mPrimingFrames == 4)

            func read(_ max: Int) -> [Int16] {
                var samples = [Int16](repeating: -1, count: max)
                return samples.withUnsafeMutableBytes { raw in
                    var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                    var frames = UInt32(max)
                    #expect(ExtAudioFileRead(x, &frames, &list) == noErr)
                    return Array(raw.bindMemory(to: Int16.self).prefix(Int(frames)))
                }
            }
            #expect(read(200) == (4..<94).map { Int16($0) })
            #expect(read(10).isEmpty)
            #expect(ExtAudioFileSeek(x, 10) == noErr)
            #expect(read(3) == [14, 15, 16])

            // Through a Float32 client format (the converter path) the same frames arrive.
            var client = OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: true)
            #expect(ExtAudioFileSetProperty(x, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
            #expect(ExtAudioFileSeek(x, 0) == noErr)
            var floats = [Float](repeating: -1, count: 200)
            let got = floats.withUnsafeMutableBytes { raw -> UInt32 in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                var frames: UInt32 = 200
                #expect(ExtAudioFileRead(x, &frames, &list) == noErr)
                return frames
            }
            #expect(got == 90)
            #expect(floats.prefix(90).map { Int(($0 * 32768).rounded()) } == Array(4..<94))
        }
    }

    @Test func growingAFileWithAPacketTableIsRefused() throws {
        try withFile { url in
            var id: AudioFileID?
            #expect(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &id) == noErr)
            let f = try #require(id)
            defer { AudioFileClose(f) }
            var sample: Int16 = 7
            var bytes: UInt32 = 2
            #expect(AudioFileWriteBytes(f, false, 200, &bytes, &sample) == kAudioFileOperationNotSupportedError)
            #expect(AudioFileWriteBytes(f, false, 0, &bytes, &sample) == noErr)  // in place is fine
        }
    }

    static let listener: AudioFileStream_PropertyListenerProc = { _, _, _, _ in }
    static let packets: AudioFileStream_PacketsProc = { _, _, _, _, _ in }

    @Test func audioFileStreamAnnouncesThePacketTable() throws {
        var stream: AudioFileStreamID?
        #expect(AudioFileStreamOpen(nil, Self.listener, Self.packets, kAudioFileCAFType, &stream) == noErr)
        let s = try #require(stream)
        defer { AudioFileStreamClose(s) }
        var bytes = Self.file
        #expect(AudioFileStreamParseBytes(s, UInt32(bytes.count), &bytes, []) == noErr)
        var table = AudioFilePacketTableInfo()
        var size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        #expect(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_PacketTableInfo, &size, &table) == noErr)
        #expect(table.mNumberValidFrames == 90 && table.mRemainderFrames == 6)
    }
}
