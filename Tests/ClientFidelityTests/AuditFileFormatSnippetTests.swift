// Audit snippets: AVAudioFile + AVAudioPCMBuffer + AVAudioFormat + AVAudioConverter, as app code writes
// them (settings dictionaries, int16 files read as float, resampling with the input block). Apple's API only.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditFileFormatSnippetTests {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).\(ext)")
    }

    /// A 16-bit WAV written from Int16 samples with a settings dictionary, read back as float.
    @Test func writeInt16WavReadFloat() throws {
        let url = Self.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: 22050.0,
            AVNumberOfChannelsKey: 1,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
            AVLinearPCMIsNonInterleaved: false,
        ]
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatInt16, interleaved: true)
            #expect(file.fileFormat.sampleRate == 22050)
            #expect(file.processingFormat.commonFormat == .pcmFormatInt16)
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 1000)!
            buffer.frameLength = 1000
            let samples = buffer.int16ChannelData![0]
            for i in 0..<1000 { samples[i] = Int16(i * 16) }
            try file.write(from: buffer)
            #expect(file.length == 1000)
            #expect(file.framePosition == 1000)
        }
        let file = try AVAudioFile(forReading: url)
        #expect(file.length == 1000)
        #expect(file.fileFormat.settings[AVLinearPCMBitDepthKey] as? Int == 16)
        #expect(file.processingFormat.commonFormat == .pcmFormatFloat32)
        #expect(file.processingFormat.isStandard)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)) else {
            Issue.record("no buffer"); return
        }
        try file.read(into: buffer)
        #expect(buffer.frameLength == 1000)
        #expect(buffer.floatChannelData![0][100] == Float(1600) / 32768)
        file.framePosition = 990
        try file.read(into: buffer, frameCount: 100)
        #expect(buffer.frameLength == 10)
        #expect(file.framePosition == 1000)
    }

    /// Format initialisers and what they report.
    @Test func formatInitialisers() throws {
        let standard = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        #expect(standard.isStandard && !standard.isInterleaved)
        #expect(standard.commonFormat == .pcmFormatFloat32)
        #expect(standard.streamDescription.pointee.mBytesPerFrame == 4)
        #expect(standard.streamDescription.pointee.mFormatFlags == kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved)
        let interleaved = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44100, channels: 2, interleaved: true)!
        #expect(interleaved.streamDescription.pointee.mBytesPerFrame == 4)
        #expect(interleaved.settings[AVLinearPCMIsNonInterleaved] as? Bool == false)
        #expect(AVAudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 8000, channels: 1, interleaved: false)?.streamDescription.pointee.mBitsPerChannel == 64)
        // settings: round trip.
        let fromSettings = AVAudioFormat(settings: interleaved.settings)!
        #expect(fromSettings == interleaved)
        // ASBD.
        var asbd = AudioStreamBasicDescription(mSampleRate: 16000, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                               mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                               mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        let fromASBD = AVAudioFormat(streamDescription: &asbd)!
        #expect(fromASBD.commonFormat == .pcmFormatInt16)
        #expect(fromASBD.sampleRate == 16000)
        // A layout.
        let layout = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A)!
        let surround = AVAudioFormat(standardFormatWithSampleRate: 48000, channelLayout: layout)
        #expect(surround.channelCount == 6)
        #expect(surround.channelLayout?.layoutTag == kAudioChannelLayoutTag_MPEG_5_1_A)
        // An AAC format from settings.
        let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100, AVNumberOfChannelsKey: 2])
        #expect(aac?.streamDescription.pointee.mFormatID == kAudioFormatMPEG4AAC)
        #expect(aac?.commonFormat == .otherFormat)
        #expect(aac?.streamDescription.pointee.mFramesPerPacket == 1024)
    }

    /// Resampling 44.1 kHz stereo to 16 kHz mono Int16 for a speech API, with the input block.
    @Test func converterResampleWithInputBlock() throws {
        let input = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let output = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16000, channels: 1, interleaved: true)!
        guard let converter = AVAudioConverter(from: input, to: output) else { Issue.record("no converter"); return }
        converter.sampleRateConverterQuality = AVAudioQuality.max.rawValue
        converter.sampleRateConverterAlgorithm = AVSampleRateConverterAlgorithm_Mastering
        converter.downmix = true
        #expect(converter.inputFormat == input)
        #expect(converter.outputFormat == output)

        let source = AVAudioPCMBuffer(pcmFormat: input, frameCapacity: 44100)!
        source.frameLength = 44100
        for c in 0..<2 { for i in 0..<44100 { source.floatChannelData![c][i] = 0.25 * Float(sin(2 * .pi * 200 * Double(i) / 44100)) } }

        var consumed = false
        var total: AVAudioFrameCount = 0
        var peak: Int16 = 0
        let out = AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 4096)!
        while true {
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { inNumPackets, outStatus in
                if consumed {
                    outStatus.pointee = .endOfStream
                    return nil
                }
                consumed = true
                outStatus.pointee = .haveData
                return source
            }
            #expect(error == nil)
            total += out.frameLength
            for i in 0..<Int(out.frameLength) { peak = max(peak, abs(out.int16ChannelData![0][i])) }
            if status == .endOfStream || status == .error { #expect(status == .endOfStream); break }
            #expect(status == .haveData || status == .inputRanDry)
        }
        #expect(abs(Int(total) - 16000) <= 32, "total \(total)")
        // 0.25 + 0.25 downmixed or averaged: between 0.25 and 0.5 of full scale.
        #expect(peak > 8000 && peak < 16500, "peak \(peak)")
    }

    /// The simple convert(to:from:) for a format change without a rate change.
    @Test func converterSimpleFormatChange() throws {
        let input = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48000, channels: 1, interleaved: false)!
        let output = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48000, channels: 1, interleaved: false)!
        let converter = AVAudioConverter(from: input, to: output)!
        let source = AVAudioPCMBuffer(pcmFormat: input, frameCapacity: 4)!
        source.frameLength = 4
        let values: [Float] = [0, 0.5, -0.5, 1.0]
        for (i, v) in values.enumerated() { source.floatChannelData![0][i] = v }
        let destination = AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 4)!
        try converter.convert(to: destination, from: source)
        #expect(destination.frameLength == 4)
        #expect(Array(UnsafeBufferPointer(start: destination.int16ChannelData![0], count: 4)) == [0, 16384, -16384, 32767])
        converter.reset()
        #expect(converter.primeMethod == .normal || converter.primeMethod == .pre || converter.primeMethod == .none)
    }

    /// An AAC file written with an encoder settings dictionary and read back; a compressed buffer.
    @Test func aacFileAndCompressedBuffer() throws {
        let url = Self.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: 44100,
            AVNumberOfChannelsKey: 1,
            AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
            AVEncoderBitRateKey: 64000,
        ]
        let frames: AVAudioFrameCount = 44100
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings)
            #expect(file.fileFormat.streamDescription.pointee.mFormatID == kAudioFormatMPEG4AAC)
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames)!
            buffer.frameLength = frames
            for i in 0..<Int(frames) { buffer.floatChannelData![0][i] = 0.3 * Float(sin(2 * .pi * 1000 * Double(i) / 44100)) }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url)
        #expect(abs(file.length - AVAudioFramePosition(frames)) <= 2048, "length \(file.length)")
        let pcm = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: pcm)
        // The middle half's RMS: a 0.3 sine's is 0.3 / sqrt(2).
        let middle = Int(pcm.frameLength) / 4..<3 * Int(pcm.frameLength) / 4
        let rms = sqrt(middle.map { pcm.floatChannelData![0][$0] * pcm.floatChannelData![0][$0] }.reduce(0, +) / Float(middle.count))
        #expect(abs(rms - Float(0.3 / 2.0.squareRoot())) < 0.02, "rms \(rms)")

        let compressed = AVAudioCompressedBuffer(format: file.fileFormat, packetCapacity: 8, maximumPacketSize: 1536)
        #expect(compressed.packetCapacity == 8)
        #expect(compressed.maximumPacketSize == 1536)
        #expect(compressed.packetCount == 0)
        #expect(compressed.packetDescriptions != nil)
        #expect(compressed.byteCapacity == 8 * 1536)
        compressed.packetCount = 0
        compressed.byteLength = 0
        _ = compressed.data
    }

    /// A buffer wrapping memory the app owns (bufferListNoCopy) and the AudioBufferList views.
    @Test func bufferListNoCopyAndAudioBufferList() throws {
        let format = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 44100, channels: 2, interleaved: false)!
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        for i in 0..<2 {
            let data = UnsafeMutablePointer<Float>.allocate(capacity: 256)
            data.initialize(repeating: Float(i + 1), count: 256)
            abl[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256 * 4, mData: data)
        }
        let freed = Shared(false)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, bufferListNoCopy: abl.unsafePointer) { list in
            for b in UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list)) { b.mData?.deallocate() }
            freed.value = true
        }
        #expect(buffer != nil)
        #expect(buffer?.frameLength == 256)
        #expect(buffer?.frameCapacity == 256)
        #expect(buffer?.floatChannelData?[1][10] == 2)
        #expect(buffer?.stride == 1)
        let list = UnsafeMutableAudioBufferListPointer(buffer!.mutableAudioBufferList)
        #expect(list.count == 2)
        #expect(list[0].mDataByteSize == 1024)
        #expect(buffer!.audioBufferList.pointee.mNumberBuffers == 2)
        _ = consume buffer
        #expect(freed.value)
        abl.unsafeMutablePointer.deallocate()
    }

    /// An AAC .m4a opened for writing and released unwritten (a recorder cancelled at once) closes cleanly.
    @Test func unwrittenAACFileCloses() throws {
        let url = Self.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100.0,
                                                                  AVNumberOfChannelsKey: 2])
            #expect(file.length == 0)
        }
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    /// A float file read as interleaved Int16 (commonFormat:interleaved:), and Int32 buffers.
    @Test func readFloatFileAsInt16Interleaved() throws {
        let url = Self.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 32000, channels: 2)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: stereo.settings)
            let buffer = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 64)!
            buffer.frameLength = 64
            for i in 0..<64 {
                buffer.floatChannelData![0][i] = 0.5
                buffer.floatChannelData![1][i] = -0.25
            }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        #expect(file.processingFormat.isInterleaved)
        #expect(file.processingFormat.commonFormat == .pcmFormatInt16)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 64)!
        try file.read(into: buffer)
        #expect(buffer.frameLength == 64)
        #expect(buffer.stride == 2)
        let samples = buffer.int16ChannelData![0]
        #expect(samples[0] == 16384 && samples[1] == -8192)
        #expect(samples[126] == 16384 && samples[127] == -8192)

        let int32 = AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 32000, channels: 1, interleaved: false)!
        let i32 = AVAudioPCMBuffer(pcmFormat: int32, frameCapacity: 8)!
        i32.frameLength = 8
        i32.int32ChannelData![0][7] = .max
        #expect(i32.floatChannelData == nil && i32.int16ChannelData == nil)
        #expect(i32.audioBufferList.pointee.mBuffers.mDataByteSize == 32)
    }

    /// Channel layouts: a stereo layout tag, formats made with it, equality.
    @Test func channelLayoutFormats() throws {
        let stereo = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)!
        #expect(stereo.channelCount == 2)
        #expect(stereo.layoutTag == kAudioChannelLayoutTag_Stereo)
        let format = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 44100, interleaved: false, channelLayout: stereo)
        #expect(format.channelCount == 2)
        #expect(format == AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2))
        #expect(stereo == AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo))
        let quad = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Quadraphonic)!
        #expect(AVAudioFormat(standardFormatWithSampleRate: 44100, channelLayout: quad).channelLayout == quad)
        #expect(stereo.layout.pointee.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo)
    }
}
