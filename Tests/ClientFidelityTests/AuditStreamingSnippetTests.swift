// Audit snippets, fifth round: streaming code as apps write it: PCM encoded to AAC packets with AVAudioConverter
// into AVAudioCompressedBuffers and decoded back; an AudioFileStream parser fed a file's bytes in chunks with
// global-function callbacks. Apple's API only.
import AVFoundation
import Foundation
import Testing

/// The parser's client state.
final class AuditStreamState {
    var format = AudioStreamBasicDescription()
    var readyToProducePackets = false
    var packets = 0
    var bytes = 0
    var descriptionsSeen = 0
}

func auditStreamPropertyListener(_ clientData: UnsafeMutableRawPointer, _ stream: AudioFileStreamID,
                                 _ propertyID: AudioFileStreamPropertyID, _ flags: UnsafeMutablePointer<AudioFileStreamPropertyFlags>) {
    let state = Unmanaged<AuditStreamState>.fromOpaque(clientData).takeUnretainedValue()
    switch propertyID {
    case kAudioFileStreamProperty_DataFormat:
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileStreamGetProperty(stream, propertyID, &size, &state.format)
    case kAudioFileStreamProperty_ReadyToProducePackets:
        state.readyToProducePackets = true
    default:
        break
    }
}

func auditStreamPackets(_ clientData: UnsafeMutableRawPointer, _ numberBytes: UInt32, _ numberPackets: UInt32,
                        _ inputData: UnsafeRawPointer, _ packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) {
    let state = Unmanaged<AuditStreamState>.fromOpaque(clientData).takeUnretainedValue()
    state.packets += Int(numberPackets)
    state.bytes += Int(numberBytes)
    if let packetDescriptions {
        for i in 0..<Int(numberPackets) where packetDescriptions[i].mDataByteSize > 0 { state.descriptionsSeen += 1 }
    }
}

@Suite struct AuditStreamingSnippetTests {
    /// One second of 44.1 kHz mono encoded to AAC packet by packet, then decoded back to PCM.
    @Test func aacEncodeDecodeWithCompressedBuffers() throws {
        let pcmFormat = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
        var aacDescription = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0,
                                                         mBytesPerPacket: 0, mFramesPerPacket: 1024, mBytesPerFrame: 0,
                                                         mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        let aacFormat = try #require(AVAudioFormat(streamDescription: &aacDescription))
        let encoder = try #require(AVAudioConverter(from: pcmFormat, to: aacFormat))
        encoder.bitRate = 64000
        #expect(encoder.maximumOutputPacketSize > 0)

        let source = AVAudioPCMBuffer(pcmFormat: pcmFormat, frameCapacity: 44100)!
        source.frameLength = 44100
        for i in 0..<44100 { source.floatChannelData![0][i] = 0.3 * Float(sin(2 * Double.pi * 440 * Double(i) / 44100)) }

        var packets: [Data] = []
        var fed = false
        var finished = false
        while !finished {
            let compressed = AVAudioCompressedBuffer(format: aacFormat, packetCapacity: 8, maximumPacketSize: encoder.maximumOutputPacketSize)
            var error: NSError?
            let status = encoder.convert(to: compressed, error: &error) { _, outStatus in
                if fed {
                    outStatus.pointee = .endOfStream
                    return nil
                }
                fed = true
                outStatus.pointee = .haveData
                return source
            }
            #expect(status != .error, "\(String(describing: error))")
            for i in 0..<Int(compressed.packetCount) {
                let description = compressed.packetDescriptions![i]
                packets.append(Data(bytes: compressed.data + Int(description.mStartOffset), count: Int(description.mDataByteSize)))
            }
            finished = status == .endOfStream || status == .error
        }
        // 44100 frames plus the encoder's priming and flush: 44 to 46 packets of 1024.
        #expect(packets.count >= 43 && packets.count <= 47, "\(packets.count) packets")
        let magicCookie = encoder.magicCookie
        #expect(magicCookie != nil)

        // Decode.
        let decodeFormat = AVAudioFormat(streamDescription: &aacDescription)!
        decodeFormat.magicCookie = magicCookie
        let decoder = try #require(AVAudioConverter(from: decodeFormat, to: pcmFormat))
        var next = 0
        var decoded: [Float] = []
        let output = AVAudioPCMBuffer(pcmFormat: pcmFormat, frameCapacity: 4096)!
        while true {
            var error: NSError?
            let status = decoder.convert(to: output, error: &error) { packetCount, outStatus in
                guard next < packets.count else {
                    outStatus.pointee = .endOfStream
                    return nil
                }
                let packet = packets[next]
                next += 1
                let buffer = AVAudioCompressedBuffer(format: decodeFormat, packetCapacity: 1, maximumPacketSize: packet.count)
                packet.withUnsafeBytes { buffer.data.copyMemory(from: $0.baseAddress!, byteCount: packet.count) }
                buffer.packetDescriptions![0] = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0,
                                                                             mDataByteSize: UInt32(packet.count))
                buffer.packetCount = 1
                buffer.byteLength = UInt32(packet.count)
                outStatus.pointee = .haveData
                return buffer
            }
            decoded += UnsafeBufferPointer(start: output.floatChannelData![0], count: Int(output.frameLength))
            if status != .haveData { #expect(status == .endOfStream); break }
        }
        #expect(decoded.count >= 44100, "\(decoded.count) frames")
        let middle = decoded[11025..<33075]
        let rms = sqrt(middle.map { $0 * $0 }.reduce(0, +) / Float(middle.count))
        #expect(abs(rms - 0.3 / Float(2).squareRoot()) < 0.02, "rms \(rms)")
    }

    /// A CAF of 16-bit PCM read as a network stream: bytes in 1000-byte chunks to AudioFileStreamParseBytes; constant
    /// bit rate packets come without descriptions.
    @Test func fileStreamParsesChunks() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 22050,
                                                                  AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 22050)!
            buffer.frameLength = 22050
            for i in 0..<22050 { buffer.floatChannelData![0][i] = 0.2 * Float(sin(Double(i) / 10)) }
            try file.write(from: buffer)
        }
        let state = AuditStreamState()
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(state).toOpaque(), auditStreamPropertyListener, auditStreamPackets,
                                         kAudioFileCAFType, &stream) == noErr)
        defer { AudioFileStreamClose(stream!) }
        let bytes = try Data(contentsOf: url)
        var offset = 0
        while offset < bytes.count {
            let chunk = bytes[offset..<min(offset + 1000, bytes.count)]
            let status = chunk.withUnsafeBytes { raw in
                AudioFileStreamParseBytes(stream!, UInt32(raw.count), raw.baseAddress, [])
            }
            #expect(status == noErr)
            offset += chunk.count
        }
        #expect(state.readyToProducePackets)
        #expect(state.format.mFormatID == kAudioFormatLinearPCM)
        #expect(state.format.mSampleRate == 22050)
        #expect(state.format.mBytesPerPacket == 2)
        #expect(state.packets == 22050)
        #expect(state.bytes == 44100)
        #expect(state.descriptionsSeen == 0)
    }

    /// An .m4a of AAC (its 'moov' ahead of the data) streamed in chunks: every packet comes with a description.
    @Test func fileStreamParsesM4AWithDescriptions() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 22050,
                                                                  AVNumberOfChannelsKey: 1])
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 22050)!
            buffer.frameLength = 22050
            for i in 0..<22050 { buffer.floatChannelData![0][i] = 0.2 * Float(sin(Double(i) / 10)) }
            try file.write(from: buffer)
        }
        var audioFile: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileM4AType, &audioFile) == noErr)
        var packetCount: UInt64 = 0
        var byteCount: UInt64 = 0
        var size = UInt32(MemoryLayout<UInt64>.size)
        #expect(AudioFileGetProperty(audioFile!, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount) == noErr)
        #expect(AudioFileGetProperty(audioFile!, kAudioFilePropertyAudioDataByteCount, &size, &byteCount) == noErr)
        AudioFileClose(audioFile!)

        let state = AuditStreamState()
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(state).toOpaque(), auditStreamPropertyListener, auditStreamPackets,
                                         kAudioFileM4AType, &stream) == noErr)
        defer { AudioFileStreamClose(stream!) }
        let bytes = try Data(contentsOf: url)
        var offset = 0
        while offset < bytes.count {
            let chunk = bytes[offset..<min(offset + 500, bytes.count)]
            #expect(chunk.withUnsafeBytes { AudioFileStreamParseBytes(stream!, UInt32($0.count), $0.baseAddress, []) } == noErr)
            offset += chunk.count
        }
        #expect(state.readyToProducePackets)
        #expect(state.format.mFormatID == kAudioFormatMPEG4AAC)
        #expect(packetCount > 20)
        #expect(state.packets == Int(packetCount))
        #expect(state.descriptionsSeen == Int(packetCount))
        #expect(state.bytes == Int(byteCount))
    }
}
