import AudioToolbox
import Foundation
import Testing

@Suite struct AudioFileStreamTests {
    final class Collector {
        var properties: [AudioFileStreamPropertyID] = []
        var audio: [UInt8] = []
        var packets = 0
    }

    static let listener: AudioFileStream_PropertyListenerProc = { refCon, _, id, _ in
        Unmanaged<Collector>.fromOpaque(refCon).takeUnretainedValue().properties.append(id)
    }
    static let packetsProc: AudioFileStream_PacketsProc = { refCon, bytes, packets, data, _ in
        let c = Unmanaged<Collector>.fromOpaque(refCon).takeUnretainedValue()
        c.audio += UnsafeRawBufferPointer(start: data, count: Int(bytes))
        c.packets += Int(packets)
    }

    @Test(arguments: [(kAudioFileWAVEType, "wav", false), (kAudioFileAIFFType, "aiff", true), (kAudioFileCAFType, "caf", true)])
    func bytesInRandomPiecesGiveEveryPacket(_ spec: (AudioFileTypeID, String, Bool)) throws {
        let url = FileSupport.tempURL(spec.1)
        defer { try? FileManager.default.removeItem(at: url) }
        let format = OCAFormat.linearPCM(sampleRate: 32000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true, bigEndian: spec.2)
        let file = try FileSupport.createFile(url, spec.0, format)
        let frames = 3001
        let samples = (0..<frames * 2).map { Int16(truncatingIfNeeded: $0 &* 977) }
        var packets = UInt32(frames)
        AudioFileWritePackets(file, false, UInt32(frames * 4), nil, 0, &packets, samples)
        AudioFileClose(file)
        var bytes = [UInt8](try Data(contentsOf: url))
        if spec.0 == kAudioFileWAVEType {
            // A chunk after the audio must not be taken for audio.
            bytes += Array("LIST".utf8) + [4, 0, 0, 0] + Array("INFO".utf8)
        }
        // The same file cut many ways (a seeded sequence of piece sizes, including single bytes).
        for seed in 1...12 {
            let c = Collector()
            var st: AudioFileStreamID?
            AudioFileStreamOpen(Unmanaged.passUnretained(c).toOpaque(), Self.listener, Self.packetsProc, 0, &st)
            var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
            var offset = 0
            while offset < bytes.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let n = min(seed == 1 ? 1 : Int(state >> 33) % 997 + 1, bytes.count - offset)
                _ = bytes.withUnsafeBytes { AudioFileStreamParseBytes(st!, UInt32(n), $0.baseAddress! + offset, []) }
                offset += n
            }
            #expect(c.packets == frames, "seed \(seed)")
            #expect(c.audio == samples.withUnsafeBytes { Array($0) }, "seed \(seed)")
            AudioFileStreamClose(st!)
        }
        let collector = Collector()
        var stream: AudioFileStreamID?
        #expect(AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), Self.listener, Self.packetsProc, 0, &stream) == noErr)
        let s = try #require(stream)
        defer { AudioFileStreamClose(s) }
        #expect(bytes.withUnsafeBytes { AudioFileStreamParseBytes(s, UInt32(bytes.count), $0.baseAddress!, []) } == noErr)
        #expect(collector.properties.last == kAudioFileStreamProperty_ReadyToProducePackets)
        #expect(collector.properties.contains(kAudioFileStreamProperty_DataFormat))
        #expect(collector.packets == frames)
        // The packets are the file's audio bytes exactly as written.
        let expected = samples.withUnsafeBytes { Array($0) }
        #expect(collector.audio == expected)
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_DataFormat, &size, &f) == noErr)
        #expect(f.mSampleRate == 32000 && f.mChannelsPerFrame == 2)
        var dataOffset: Int64 = 0
        size = 8
        AudioFileStreamGetProperty(s, kAudioFileStreamProperty_DataOffset, &size, &dataOffset)
        var byteOffset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = [.offsetIsEstimated]
        #expect(AudioFileStreamSeek(s, 100, &byteOffset, &flags) == noErr)
        #expect(byteOffset == dataOffset + 400 && flags.isEmpty)
    }

    @Test func propertiesBeforeTheHeaderAreUnavailable() throws {
        let collector = Collector()
        var stream: AudioFileStreamID?
        AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), Self.listener, Self.packetsProc, kAudioFileWAVEType, &stream)
        defer { AudioFileStreamClose(stream!) }
        let start = Array("RIFF".utf8) + [0, 0, 0, 0]
        #expect(start.withUnsafeBytes { AudioFileStreamParseBytes(stream!, 8, $0.baseAddress!, []) } == noErr)
        var size: UInt32 = 0
        #expect(AudioFileStreamGetPropertyInfo(stream!, kAudioFileStreamProperty_DataFormat, &size, nil) == kAudioFileStreamError_DataUnavailable)
        var offset: Int64 = 0
        var flags: AudioFileStreamSeekFlags = []
        #expect(AudioFileStreamSeek(stream!, 0, &offset, &flags) == kAudioFileStreamError_IllegalOperation)
    }
}
