import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// MP3 files as AudioFile and ExtAudioFile see them: packets, the LAME packet table, ID3 metadata in the
/// info dictionary, and libmpg123's decode against ffmpeg's, gapless and exact to the frame after seeks.
@Suite struct MP3FileTests {
    /// An MP3 made by ffmpeg's LAME from a stereo (or mono) tone, with ID3 metadata.
    static func makeMP3(seconds: Double = 3, rate: Int = 44100, channels: Int = 2, extra: [String] = []) throws -> URL {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing: run scripts/setup.sh")
        let url = FileSupport.tempURL("mp3")
        let source = "sine=f=440:d=\(seconds):sample_rate=\(rate)"
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-f", "lavfi", "-i",
                                                          "anoisesrc=d=\(seconds):c=pink:a=0.1:sample_rate=\(rate)",
                                                          "-filter_complex", "amix=inputs=2", "-ac", "\(channels)", "-c:a", "libmp3lame", "-b:a", "128k",
                                                          "-metadata", "title=Chapter One", "-metadata", "artist=The Book",
                                                          "-metadata", "album=Learning Core Audio"] + extra + [url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return url
    }

    static let floatStereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)

    static func readFloats(_ url: URL, channels: UInt32 = 2, rate: Double = 44100) throws -> [Float] {
        let client = OCAFormat.linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 32, isFloat: true, interleaved: true)
        return try ExtFileIO.read(url, client: client, chunk: 1000).samples
    }

    static func ffmpegFloats(_ url: URL) throws -> [Float] {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg)
        let raw = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", url.path, "-f", "f32le", raw.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func snr(_ reference: [Float], _ test: [Float]) -> Double {
        var s = 0.0, n = 0.0
        for i in 0..<min(reference.count, test.count) { s += Double(reference[i] * reference[i]); n += pow(Double(test[i] - reference[i]), 2) }
        return 10 * log10(s / max(n, 1e-30))
    }

    /// The file's description, packets and packet table as Apple's AudioFile gives them, and the ID3 tags.
    @Test func propertiesAndMetadata() throws {
        let url = try Self.makeMP3()
        defer { try? FileManager.default.removeItem(at: url) }
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var type: AudioFileTypeID = 0
        var size: UInt32 = 4
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyFileFormat, &size, &type) == noErr && type == kAudioFileMP3Type)
        var f = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &f) == noErr)
        #expect(f.mFormatID == kAudioFormatMPEGLayer3 && f.mSampleRate == 44100 && f.mChannelsPerFrame == 2 && f.mFramesPerPacket == 1152)
        #expect(f.mBytesPerPacket == 0 && f.mBitsPerChannel == 0)
        // LAME's delay and padding: exactly the source's 3 s are valid.
        var table = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr)
        #expect(table.mNumberValidFrames == 132300 && table.mPrimingFrames == 576 + 529)
        var packets: UInt64 = 0
        size = 8
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(Int64(packets) * 1152 == table.mNumberValidFrames + Int64(table.mPrimingFrames) + Int64(table.mRemainderFrames))
        var duration = 0.0
        size = 8
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyEstimatedDuration, &size, &duration) == noErr && abs(duration - 3) < 0.001)
        var dictionary: Unmanaged<CFDictionary>?
        size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &dictionary) == noErr)
        let info = try #require(dictionary?.takeRetainedValue() as? [String: Any])
        #expect(info[kAFInfoDictionary_Title] as? String == "Chapter One")
        #expect(info[kAFInfoDictionary_Artist] as? String == "The Book")
        #expect(info[kAFInfoDictionary_Album] as? String == "Learning Core Audio")
        // ffprobe counts the same audio packets.
        let ffprobe = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let (_, out) = try FileSupport.run(ffprobe, ["-v", "quiet", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
        #expect(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) == Int(packets))
    }

    /// Gapless: ExtAudioFile gives exactly ffmpeg's samples count (the source's), and libmpg123's samples
    /// agree with ffmpeg's decoder to better than 60 dB.
    @Test(arguments: [(44100, 2), (22050, 1), (48000, 2)])
    func decodeMatchesFFmpeg(_ spec: (Int, Int)) throws {
        let url = try Self.makeMP3(seconds: 2.5, rate: spec.0, channels: spec.1)
        defer { try? FileManager.default.removeItem(at: url) }
        let ours = try Self.readFloats(url, channels: UInt32(spec.1), rate: Double(spec.0))
        let theirs = try Self.ffmpegFloats(url)
        #expect(ours.count == theirs.count, "ours \(ours.count / spec.1) frames, ffmpeg \(theirs.count / spec.1)")
        #expect(ours.count == Int(2.5 * Double(spec.0)) * spec.1)
        let quality = Self.snr(theirs, ours)
        print(String(format: "MP3 %d Hz %d ch: libmpg123 against ffmpeg's decoder %.1f dB SNR", spec.0, spec.1, quality))
        #expect(quality >= 60, "SNR against ffmpeg: \(quality) dB")
    }

    /// ExtAudioFileSeek lands on the samples of a linear decode (preroll settles the bit reservoir).
    @Test func seeksMatchTheLinearDecode() throws {
        let url = try Self.makeMP3(seconds: 4)
        defer { try? FileManager.default.removeItem(at: url) }
        let linear = try Self.readFloats(url)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        defer { ExtAudioFileDispose(x!) }
        var client = Self.floatStereo
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var mismatches = 0
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let frame = Int.random(in: 0..<(linear.count / 2 - 64), using: &rng)
            ExtAudioFileSeek(x!, Int64(frame))
            var buffer = [Float](repeating: 0, count: 128)
            var frames: UInt32 = 64
            buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 512, mData: raw.baseAddress))
                _ = ExtAudioFileRead(x!, &frames, &list)
            }
            if frames != 64 || buffer != Array(linear[(2 * frame)..<(2 * frame + 128)]) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of 200 seeks differ from the linear decode")
    }

    /// MP3 is decode-only, as on Apple's systems: no encoder, and no MP3 file can be created.
    @Test func thereIsNoMP3Encoder() {
        var pcm = Self.floatStereo
        var mp3 = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatMPEGLayer3, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1152, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var c: AudioConverterRef?
        #expect(AudioConverterNew(&pcm, &mp3, &c) == kAudioConverterErr_FormatNotSupported)
        #expect(AudioConverterNew(&mp3, &pcm, &c) == noErr)
        if let c { AudioConverterDispose(c) }
    }

    final class StreamCollector {
        var packets: [[UInt8]] = []
        var format = AudioStreamBasicDescription()
        var ready = false
    }

    /// AudioFileStream on an MP3 fed in pieces of every size (the way a web radio client receives it)
    /// hands out exactly the packets AudioFile reads from the file, each with its description.
    @Test func audioFileStreamSplitsTheSameFrames() throws {
        let url = try Self.makeMP3(seconds: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Array(try Data(contentsOf: url))
        let expected = try TestSupport.packetsAudioFileReads(url, maxPacketBytes: 1441)
        let collector = StreamCollector()
        let listener: AudioFileStream_PropertyListenerProc = { user, stream, id, _ in
            let c = Unmanaged<StreamCollector>.fromOpaque(user).takeUnretainedValue()
            if id == kAudioFileStreamProperty_DataFormat {
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                AudioFileStreamGetProperty(stream, id, &size, &c.format)
            }
            if id == kAudioFileStreamProperty_ReadyToProducePackets { c.ready = true }
        }
        let packets: AudioFileStream_PacketsProc = { user, byteCount, count, data, descriptions in
            let c = Unmanaged<StreamCollector>.fromOpaque(user).takeUnretainedValue()
            for i in 0..<Int(count) {
                let d = descriptions![i]
                c.packets.append(Array(UnsafeRawBufferPointer(start: data + Int(d.mStartOffset), count: Int(d.mDataByteSize))))
            }
        }
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), listener, packets, kAudioFileMP3Type, &stream) == noErr)
        var offset = 0, piece = 1
        while offset < bytes.count {
            let n = min(piece, bytes.count - offset)
            let status = bytes[offset..<(offset + n)].withUnsafeBytes { AudioFileStreamParseBytes(stream!, UInt32(n), $0.baseAddress, []) }
            #expect(status == noErr)
            offset += n
            piece = piece * 3 % 2999 + 1
        }
        AudioFileStreamClose(stream!)
        #expect(collector.ready && collector.format.mFormatID == kAudioFormatMPEGLayer3 && collector.format.mFramesPerPacket == 1152)
        #expect(collector.packets.count == expected.count)
        #expect(collector.packets == expected)
    }

    /// The book's chapter 5 player state: the file, the next packet, and the packet descriptions.
    final class QueuePlayer {
        var file: AudioFileID?
        var packetPosition: Int64 = 0
        var numPacketsToRead: UInt32 = 0
        var packetDescs: UnsafeMutablePointer<AudioStreamPacketDescription>?
        var isDone = false
    }

    /// Listing 5.16's callback: read packets with their descriptions, enqueue them; stop at the end.
    static let playerCallback: AudioQueueOutputCallback = { user, queue, buffer in
        let p = Unmanaged<QueuePlayer>.fromOpaque(user!).takeUnretainedValue()
        if p.isDone { return }
        var numBytes = buffer.pointee.mAudioDataBytesCapacity
        var nPackets = p.numPacketsToRead
        AudioFileReadPacketData(p.file!, false, &numBytes, p.packetDescs, p.packetPosition, &nPackets, buffer.pointee.mAudioData)
        if nPackets > 0 {
            buffer.pointee.mAudioDataByteSize = numBytes
            AudioQueueEnqueueBuffer(queue, buffer, p.packetDescs != nil ? nPackets : 0, p.packetDescs)
            p.packetPosition += Int64(nPackets)
        } else {
            AudioQueueStop(queue, false)
            p.isDone = true
        }
    }

    /// An MP3 through an output queue (the book's chapter 5 player, rendered offline): the queue decodes
    /// the packets as they are enqueued and plays every decoded frame; from the priming on they are
    /// exactly ExtAudioFile's samples.
    @Test func outputQueuePlaysAnMP3() throws {
        // Long enough that the three priming callbacks do not reach the end (whose Stop would come before Start).
        let url = try Self.makeMP3(seconds: 4)
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.expectQueuePlays(url, priming: 576 + 529)
    }

    /// The book's chapter 5 player rendered offline on `url`: what it plays equals ExtAudioFile's decode from the
    /// `priming` frames on (the queue, like Apple's, does not trim priming).
    static func expectQueuePlays(_ url: URL, priming: Int) throws {
        let reference = try MP3FileTests.readFloats(url)
        let player = QueuePlayer()
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &player.file) == noErr)
        defer { AudioFileClose(player.file!) }
        var dataFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(player.file!, kAudioFilePropertyDataFormat, &size, &dataFormat)
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&dataFormat, MP3FileTests.playerCallback, Unmanaged.passUnretained(player).toOpaque(), nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        // Listing 5.13's CalculateBytesForTime with the packet size upper bound, 0.5 s buffers.
        var maxPacketSize: UInt32 = 0
        size = 4
        AudioFileGetProperty(player.file!, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize)
        let bufferByteSize = max(UInt32(0.5 * dataFormat.mSampleRate / Double(dataFormat.mFramesPerPacket)) * maxPacketSize, 0x4000)
        player.numPacketsToRead = bufferByteSize / maxPacketSize
        player.packetDescs = .allocate(capacity: Int(player.numPacketsToRead))
        defer { player.packetDescs?.deallocate() }
        var capture = MP3FileTests.floatStereo
        try #require(AudioQueueSetOfflineRenderFormat(queue!, &capture, nil) == noErr)
        var buffers: [AudioQueueBufferRef?] = [nil, nil, nil]
        for i in 0..<3 {
            try #require(AudioQueueAllocateBuffer(queue!, bufferByteSize, &buffers[i]) == noErr)
            MP3FileTests.playerCallback(Unmanaged.passUnretained(player).toOpaque(), queue!, buffers[i]!)
        }
        var captureBuffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4096 * 8, &captureBuffer) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 0) == noErr)
        var packets: UInt64 = 0
        size = 8
        AudioFileGetProperty(player.file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets)
        var rendered: [Float] = []
        // Until the queue has played every packet (a render short of the request marks the end).
        for _ in 0..<400 {
            try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 4096) == noErr)
            let got = Int(captureBuffer!.pointee.mAudioDataByteSize) / 4
            rendered += UnsafeBufferPointer(start: captureBuffer!.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: got)
            ts.mSampleTime += Double(got / 2)
            if got < 2 * 4096 || rendered.count >= 2 * Int(packets) * Int(dataFormat.mFramesPerPacket) { break }
        }
                #expect(rendered.count >= 2 * Int(packets) * Int(dataFormat.mFramesPerPacket) - 2 * 4096)
        #expect(rendered.count >= 2 * priming + reference.count)
        let firstSound = rendered.firstIndex { $0 != 0 }.map { $0 / 2 } ?? -1
        let referenceFirst = reference.firstIndex { $0 != 0 }.map { $0 / 2 } ?? -1
        let matches = rendered.count >= 2 * priming + reference.count && Array(rendered[(2 * priming)..<(2 * priming + reference.count)]) == reference
        #expect(matches, "first sound at frame \(firstSound) (reference \(referenceFirst) + priming \(priming)), \(rendered.count / 2) frames rendered")
    }
}
