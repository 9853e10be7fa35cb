import AVFoundation
import Testing

/// AVAudioFormat, AVAudioChannelLayout and AVAudioPCMBuffer against the AudioStreamBasicDescriptions and buffer
/// lists they stand for.
@Suite struct AVAudioFormatTests {
    @Test func standardFormatIsDeinterleavedFloat32() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2))
        let f = format.streamDescription.pointee
        #expect(format.isStandard && !format.isInterleaved && format.commonFormat == .pcmFormatFloat32)
        #expect(f.mFormatID == kAudioFormatLinearPCM && f.mBitsPerChannel == 32 && f.mBytesPerFrame == 4 && f.mChannelsPerFrame == 2)
        #expect(f.mFormatFlags == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved)
        let int16 = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44100, channels: 2, interleaved: true))
        #expect(int16.streamDescription.pointee.mBytesPerFrame == 4 && int16.isInterleaved && !int16.isStandard)
        #expect(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 44100, channels: 2, interleaved: true) == nil)
        #expect(format == AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2))
        #expect(format != AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2))
    }

    @Test func settingsRoundTrip() throws {
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 22050, AVNumberOfChannelsKey: 1,
                                       AVLinearPCMBitDepthKey: 24, AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: true]
        let format = try #require(AVAudioFormat(settings: settings))
        let f = format.streamDescription.pointee
        #expect(f.mSampleRate == 22050 && f.mChannelsPerFrame == 1 && f.mBitsPerChannel == 24 && f.mBytesPerFrame == 3)
        #expect(f.mFormatFlags & kAudioFormatFlagIsBigEndian != 0 && f.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
        #expect(AVAudioFormat(settings: format.settings) == format)
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100.0, AVNumberOfChannelsKey: 2]))
        #expect(aac.commonFormat == .otherFormat && aac.streamDescription.pointee.mFramesPerPacket == 1024)
    }

    @Test func channelLayoutsCountTheirChannels() throws {
        let surround = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A))
        #expect(surround.channelCount == 6)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channelLayout: surround)
        #expect(format.channelCount == 6 && format.channelLayout == surround)
        #expect(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_UseChannelDescriptions) == nil)
    }

    @Test func pcmBufferListFollowsFrameLength() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512))
        #expect(buffer.frameLength == 0 && buffer.stride == 1)
        buffer.frameLength = 100
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        #expect(list.count == 2 && list.allSatisfy { $0.mDataByteSize == 400 })
        let data = try #require(buffer.floatChannelData)
        #expect(UnsafeMutableRawPointer(data[1]) == list[1].mData)
        #expect(buffer.int16ChannelData == nil)
        buffer.frameLength = 1000
        #expect(buffer.frameLength == 512)

        let interleaved = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 8000, channels: 2, interleaved: true))
        let ib = try #require(AVAudioPCMBuffer(pcmFormat: interleaved, frameCapacity: 4))
        let samples = try #require(ib.int16ChannelData)
        samples[0][0] = 1; samples[1][0] = 2; samples[0][ib.stride] = 3
        let raw = UnsafeMutableAudioBufferListPointer(ib.mutableAudioBufferList)[0].mData!.assumingMemoryBound(to: Int16.self)
        #expect(ib.stride == 2 && raw[0] == 1 && raw[1] == 2 && raw[2] == 3)
    }
}
