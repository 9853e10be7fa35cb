import AudioToolbox
import Foundation
import Testing

/// Listings of "Learning Core Audio" written in Swift against these modules.
@Suite struct BookChapterTests {
    /// Chapter 2: a square wave written sample by sample with AudioFileWriteBytes into a 16-bit
    /// big-endian mono AIFF.
    @Test func chapter2ToneGenerator() throws {
        let url = FileSupport.tempURL("aif")
        defer { try? FileManager.default.removeItem(at: url) }
        let sampleRate = 44100.0, duration = 5.0, hz = 441.0
        var asbd = AudioStreamBasicDescription()
        asbd.mSampleRate = sampleRate
        asbd.mFormatID = kAudioFormatLinearPCM
        asbd.mFormatFlags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        asbd.mBitsPerChannel = 16
        asbd.mChannelsPerFrame = 1
        asbd.mFramesPerPacket = 1
        asbd.mBytesPerFrame = 2
        asbd.mBytesPerPacket = 2
        var audioFile: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileAIFFType, &asbd, .eraseFile, &audioFile) == noErr)
        let maxSampleCount = Int(sampleRate * duration)
        var sampleCount = 0
        var bytesToWrite: UInt32 = 2
        let wavelengthInSamples = sampleRate / hz
        while sampleCount < maxSampleCount {
            for i in 0..<Int(wavelengthInSamples) where sampleCount < maxSampleCount {
                var sample: Int16 = i < Int(wavelengthInSamples) / 2 ? Int16.max.bigEndian : Int16.min.bigEndian
                #expect(AudioFileWriteBytes(audioFile!, false, Int64(sampleCount * 2), &bytesToWrite, &sample) == noErr)
                sampleCount += 1
            }
        }
        #expect(AudioFileClose(audioFile!) == noErr)
        // sox reads a 100 Hz... here 441 Hz square wave: 100 samples high, 100 low, 5 seconds.
        let sox = try #require(FileSupport.sox, "sox is required (scripts/setup.sh installs it)")
        let (_, info) = try FileSupport.run(sox, ["--i", url.path])
        #expect(info.contains("Sample Rate    : 44100"))
        #expect(info.contains("Channels       : 1"))
        #expect(info.contains("220500 samples"))
        let samples = try FileSupport.soxSamples(url)
        #expect(samples.count == 220_500)
        #expect(samples[0] == Int32(Int16.max) << 16 && samples[49] == Int32(Int16.max) << 16 && samples[50] == Int32(Int16.min) << 16)
    }

    static var chapter6Output: AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = 44100.0
        f.mFormatID = kAudioFormatLinearPCM
        f.mFormatFlags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        f.mBytesPerPacket = 4
        f.mFramesPerPacket = 1
        f.mBytesPerFrame = 4
        f.mChannelsPerFrame = 2
        f.mBitsPerChannel = 16
        return f
    }

    final class ConverterSettings {
        var inputFormat = AudioStreamBasicDescription()
        var outputFormat = chapter6Output
        var inputFile: AudioFileID?
        var outputFile: AudioFileID?
        var inputFilePacketIndex: Int64 = 0
        var inputFilePacketCount: UInt64 = 0
        var inputFilePacketMaxSize: UInt32 = 0
        var inputFilePacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
        var sourceBuffer: UnsafeMutableRawPointer?
    }

    /// Listings 6.17-6.21's input callback: packets (with descriptions for variable-bit-rate input).
    static let inputProc: AudioConverterComplexInputDataProc = { _, ioDataPacketCount, ioData, outDataPacketDescription, userData in
        let s = Unmanaged<ConverterSettings>.fromOpaque(userData!).takeUnretainedValue()
        ioData.pointee.mBuffers.mData = nil
        ioData.pointee.mBuffers.mDataByteSize = 0
        if s.inputFilePacketIndex + Int64(ioDataPacketCount.pointee) > Int64(s.inputFilePacketCount) {
            ioDataPacketCount.pointee = UInt32(Int64(s.inputFilePacketCount) - s.inputFilePacketIndex)
        }
        if ioDataPacketCount.pointee == 0 { return noErr }
        s.sourceBuffer?.deallocate()
        let size = Int(ioDataPacketCount.pointee * s.inputFilePacketMaxSize)
        s.sourceBuffer = .allocate(byteCount: size, alignment: 16)
        var outByteCount: UInt32 = 0
        var result = AudioFileReadPackets(s.inputFile!, true, &outByteCount, s.inputFilePacketDescriptions, s.inputFilePacketIndex,
                                          ioDataPacketCount, s.sourceBuffer)
        if result == kAudioFileEndOfFileError && ioDataPacketCount.pointee > 0 { result = noErr } else if result != noErr { return result }
        s.inputFilePacketIndex += Int64(ioDataPacketCount.pointee)
        ioData.pointee.mBuffers.mData = s.sourceBuffer
        ioData.pointee.mBuffers.mDataByteSize = outByteCount
        if let outDataPacketDescription { outDataPacketDescription.pointee = s.inputFilePacketDescriptions }
        return result
    }

    /// Makes the chapter 6 input: a 2 s stereo Float32 WAV of two sines.
    func makeInput() throws -> URL {
        let url = FileSupport.tempURL("wav")
        let f = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        let file = try FileSupport.createFile(url, kAudioFileWAVEType, f)
        let frames = 88200
        var samples = [Float32](repeating: 0, count: frames * 2)
        for n in 0..<frames {
            samples[2 * n] = Float32(0.6 * sin(2 * Double.pi * 330 * Double(n) / 44100))
            samples[2 * n + 1] = Float32(0.4 * sin(2 * Double.pi * 1210 * Double(n) / 44100))
        }
        var packets = UInt32(frames)
        AudioFileWritePackets(file, false, UInt32(frames * 8), nil, 0, &packets, samples)
        AudioFileClose(file)
        return url
    }

    /// Chapter 6, AudioConverter version: input proc reading packets, FillComplexBuffer, WritePackets.
    func convertWithAudioConverter(_ input: URL, _ output: URL) throws {
        let s = ConverterSettings()
        #expect(AudioFileOpenURL(input as CFURL, .readPermission, 0, &s.inputFile) == noErr)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(s.inputFile!, kAudioFilePropertyDataFormat, &size, &s.inputFormat)
        size = 8
        AudioFileGetProperty(s.inputFile!, kAudioFilePropertyAudioDataPacketCount, &size, &s.inputFilePacketCount)
        size = 4
        // Listing 6.5: the upper bound for compressed input, the packet size itself for PCM.
        if s.inputFormat.mBytesPerPacket == 0 {
            AudioFileGetProperty(s.inputFile!, kAudioFilePropertyPacketSizeUpperBound, &size, &s.inputFilePacketMaxSize)
        } else {
            s.inputFilePacketMaxSize = s.inputFormat.mBytesPerPacket
        }
        #expect(AudioFileCreateWithURL(output as CFURL, kAudioFileAIFFType, &s.outputFormat, .eraseFile, &s.outputFile) == noErr)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&s.inputFormat, &s.outputFormat, &converter) == noErr)
        // Listings 6.9-6.10.
        var packetsPerBuffer: UInt32 = 0
        var outputBufferSize: UInt32 = 32 * 1024
        var sizePerPacket = s.inputFormat.mBytesPerPacket
        if sizePerPacket == 0 {
            var size = UInt32(MemoryLayout<UInt32>.size)
            #expect(AudioConverterGetProperty(converter!, kAudioConverterPropertyMaximumOutputPacketSize, &size, &sizePerPacket) == noErr)
            if sizePerPacket > outputBufferSize { outputBufferSize = sizePerPacket }
            packetsPerBuffer = outputBufferSize / sizePerPacket
            s.inputFilePacketDescriptions = .allocate(capacity: Int(packetsPerBuffer))
        } else {
            packetsPerBuffer = outputBufferSize / sizePerPacket
        }
        let outputBuffer = UnsafeMutableRawPointer.allocate(byteCount: Int(outputBufferSize), alignment: 16)
        defer { outputBuffer.deallocate(); s.sourceBuffer?.deallocate(); s.inputFilePacketDescriptions?.deallocate() }
        var outputFilePacketPosition: UInt32 = 0
        while true {
            var convertedData = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                mNumberChannels: s.inputFormat.mChannelsPerFrame, mDataByteSize: outputBufferSize, mData: outputBuffer))
            var ioOutputDataPackets = packetsPerBuffer
            let error = AudioConverterFillComplexBuffer(converter!, Self.inputProc, Unmanaged.passUnretained(s).toOpaque(),
                                                        &ioOutputDataPackets, &convertedData, s.inputFilePacketDescriptions)
            if error != noErr || ioOutputDataPackets == 0 { break }
            // Listing 6.15, including its packet count passed as the byte count.
            #expect(AudioFileWritePackets(s.outputFile!, false, ioOutputDataPackets, nil,
                                          Int64(outputFilePacketPosition / s.outputFormat.mBytesPerPacket),
                                          &ioOutputDataPackets, convertedData.mBuffers.mData!) == noErr)
            outputFilePacketPosition += ioOutputDataPackets * s.outputFormat.mBytesPerPacket
        }
        AudioConverterDispose(converter!)
        AudioFileClose(s.inputFile!)
        AudioFileClose(s.outputFile!)
    }

    /// Chapter 6, ExtAudioFile version: the input opened with a client format, written with WritePackets.
    func convertWithExtAudioFile(_ input: URL, _ output: URL) throws {
        var outputFormat = Self.chapter6Output
        var inputFile: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(input as CFURL, &inputFile) == noErr)
        var outputFile: AudioFileID?
        #expect(AudioFileCreateWithURL(output as CFURL, kAudioFileAIFFType, &outputFormat, .eraseFile, &outputFile) == noErr)
        #expect(ExtAudioFileSetProperty(inputFile!, kExtAudioFileProperty_ClientDataFormat,
                                        UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &outputFormat) == noErr)
        let outputBufferSize: UInt32 = 32 * 1024
        let packetsPerBuffer = outputBufferSize / outputFormat.mBytesPerPacket
        let outputBuffer = UnsafeMutableRawPointer.allocate(byteCount: Int(outputBufferSize), alignment: 16)
        defer { outputBuffer.deallocate() }
        var outputFilePacketPosition: UInt32 = 0
        while true {
            var convertedData = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                mNumberChannels: outputFormat.mChannelsPerFrame, mDataByteSize: outputBufferSize, mData: outputBuffer))
            var frameCount = packetsPerBuffer
            #expect(ExtAudioFileRead(inputFile!, &frameCount, &convertedData) == noErr)
            if frameCount == 0 { break }
            #expect(AudioFileWritePackets(outputFile!, false, frameCount, nil,
                                          Int64(outputFilePacketPosition / outputFormat.mBytesPerPacket),
                                          &frameCount, convertedData.mBuffers.mData!) == noErr)
            outputFilePacketPosition += frameCount * outputFormat.mBytesPerPacket
        }
        ExtAudioFileDispose(inputFile!)
        AudioFileClose(outputFile!)
    }

    @Test func chapter6BothPathsWriteByteIdenticalFiles() throws {
        let input = try makeInput()
        let viaConverter = FileSupport.tempURL("aif"), viaExt = FileSupport.tempURL("aif")
        defer { [input, viaConverter, viaExt].forEach { try? FileManager.default.removeItem(at: $0) } }
        try convertWithAudioConverter(input, viaConverter)
        try convertWithExtAudioFile(input, viaExt)
        let a = try Data(contentsOf: viaConverter), b = try Data(contentsOf: viaExt)
        #expect(a.count == 54 + 88200 * 4)
        #expect(a == b)
        if FileSupport.sox != nil {
            let samples = try FileSupport.soxSamples(viaConverter)
            // Left channel: 0.6 sin at 330 Hz, in 16 bits (within one 16-bit step of the ideal).
            let n = 1000
            let ideal = 0.6 * sin(2 * Double.pi * 330 * Double(n) / 44100)
            #expect(abs(Double(samples[2 * n]) / 2_147_483_648 - ideal) < 1.0 / 32768)
        }
    }

    /// Chapter 6 on an MP3 (the book's own example): both programs run unchanged. The AudioConverter one
    /// decodes every packet, as Apple's does (a converter knows nothing of the file's priming); the
    /// ExtAudioFile one gives the playable frames only, which are the same bytes from the priming on.
    @Test func chapter6ConvertsAnMP3BothWays() throws {
        let input = try MP3FileTests.makeMP3(seconds: 2)
        let viaConverter = FileSupport.tempURL("aif"), viaExt = FileSupport.tempURL("aif")
        defer { [input, viaConverter, viaExt].forEach { try? FileManager.default.removeItem(at: $0) } }
        try convertWithAudioConverter(input, viaConverter)
        try convertWithExtAudioFile(input, viaExt)
        let all = try FileSupport.soxSamples(viaConverter), playable = try FileSupport.soxSamples(viaExt)
        #expect(playable.count == 2 * 88200)
        let priming = 576 + 529
        #expect(all.count >= playable.count + 2 * priming)
        #expect(Array(all[(2 * priming)..<(2 * priming + playable.count)]) == playable)
    }

    /// Chapter 1: an MP3's metadata through kAudioFilePropertyInfoDictionary (ID3 title, artist, album and
    /// the approximate duration), as the book's first program prints it with CFShow.
    @Test func chapter1PrintsAnMP3sMetadata() throws {
        let url = try MP3FileTests.makeMP3(seconds: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        var audioFile: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &audioFile) == noErr)
        var dictionarySize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(audioFile!, kAudioFilePropertyInfoDictionary, &dictionarySize, nil) == noErr)
        var dictionary: CFDictionary?
        #expect(AudioFileGetProperty(audioFile!, kAudioFilePropertyInfoDictionary, &dictionarySize, &dictionary) == noErr)
        let info = try #require(dictionary as? [String: Any])
        #expect(info["title"] as? String == "Chapter One" && info["artist"] as? String == "The Book" && info["album"] as? String == "Learning Core Audio")
        #expect((info["approximate duration in seconds"] as? String).flatMap(Double.init).map { abs($0 - 2) < 0.001 } == true)
        #expect(AudioFileClose(audioFile!) == noErr)
    }
}
