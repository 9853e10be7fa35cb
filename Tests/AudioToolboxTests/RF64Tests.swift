import AudioToolbox
import Foundation
import Testing

/// RF64: WAVE with 64-bit sizes. A sparse file puts audio past 4 GiB without writing 4 GiB.
@Suite struct RF64Tests {
    @Test func audioBeyondFourGiBRoundTrips() throws {
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let file = try FileSupport.createFile(url, kAudioFileRF64Type, format)
        let start = Int64(1) << 30 + 1000  // packets of 4 bytes: the data reaches past 4 GiB
        let samples: [Int16] = [1, -2, 3, -4, 5, -6, 7, -8]
        var packets: UInt32 = 4
        #expect(AudioFileWritePackets(file, false, 16, nil, start, &packets, samples) == noErr)
        #expect(AudioFileClose(file) == noErr)

        var id: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &id) == noErr)
        let f = try #require(id)
        defer { AudioFileClose(f) }
        var type: AudioFileTypeID = 0
        var size: UInt32 = 4
        AudioFileGetProperty(f, kAudioFilePropertyFileFormat, &size, &type)
        #expect(type == kAudioFileRF64Type)
        var count: UInt64 = 0
        size = 8
        AudioFileGetProperty(f, kAudioFilePropertyAudioDataPacketCount, &size, &count)
        #expect(count == UInt64(start) + 4)
        var back = [Int16](repeating: 0, count: 8)
        var bytes: UInt32 = 16, n: UInt32 = 4
        #expect(AudioFileReadPacketData(f, false, &bytes, nil, start, &n, &back) == noErr)
        #expect(n == 4 && back == samples)
    }

    @Test func plainWaveRefusesDataPastFourGiB() throws {
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let file = try FileSupport.createFile(url, kAudioFileWAVEType, format)
        defer { AudioFileClose(file) }
        var packets: UInt32 = 1
        let sample: [Int16] = [1, 1]
        #expect(AudioFileWritePackets(file, false, 4, nil, Int64(1) << 30, &packets, sample) == kAudioFileDoesNotAllow64BitDataSizeError)
    }

    @Test func smallRF64IsReadBySox() throws {
        guard FileSupport.sox != nil else { return }
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try FileSupport.createFile(url, kAudioFileRF64Type,
                                              OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true))
        let samples: [Int16] = (0..<800).map { Int16($0 * 40 - 16000) }
        var packets: UInt32 = 800
        AudioFileWritePackets(file, false, 1600, nil, 0, &packets, samples)
        AudioFileClose(file)
        let read = try FileSupport.soxSamples(url)
        #expect(read == samples.map { Int32($0) << 16 })
    }
}
