// The AVAudioPCMBuffer / AVAudioFormat helpers apps keep in an extension file: buffers from [Float]
// arrays and back, deep copies with memcpy over floatChannelData, appending, formats from settings
// dictionaries and channel layouts, the stream description behind a format.
import AVFoundation
import Foundation
import Testing

extension AVAudioPCMBuffer {
    /// A mono (or multi-channel, one array per channel) buffer holding `channels`.
    convenience init?(channels: [[Float]], sampleRate: Double) {
        guard let first = channels.first,
              let format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: AVAudioChannelCount(channels.count)) else {
            return nil
        }
        self.init(pcmFormat: format, frameCapacity: AVAudioFrameCount(first.count))
        frameLength = AVAudioFrameCount(first.count)
        for (index, samples) in channels.enumerated() {
            samples.withUnsafeBufferPointer { source in
                floatChannelData![index].update(from: source.baseAddress!, count: samples.count)
            }
        }
    }

    /// The samples of one channel as an array.
    func toArray(channel: Int = 0) -> [Float] {
        guard let data = floatChannelData else { return [] }
        return Array(UnsafeBufferPointer(start: data[channel], count: Int(frameLength)))
    }

    /// A deep copy, as people write it with memcpy.
    func copy() -> AVAudioPCMBuffer? {
        guard let copy = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frameCapacity) else { return nil }
        copy.frameLength = frameLength
        let channels = Int(format.channelCount)
        if let src = floatChannelData, let dst = copy.floatChannelData {
            for channel in 0..<channels {
                memcpy(dst[channel], src[channel], Int(frameLength) * MemoryLayout<Float>.size)
            }
        }
        return copy
    }

    /// Appends `buffer` (same format) after this buffer's frames.
    func append(_ buffer: AVAudioPCMBuffer) {
        precondition(format == buffer.format, "Format mismatch")
        precondition(frameLength + buffer.frameLength <= frameCapacity, "Insufficient space in buffer")
        let dst = floatChannelData!
        let src = buffer.floatChannelData!
        for channel in 0..<Int(format.channelCount) {
            memcpy(dst[channel].advanced(by: stride * Int(frameLength)), src[channel],
                   Int(buffer.frameLength) * stride * MemoryLayout<Float>.size)
        }
        frameLength += buffer.frameLength
    }

    /// The copy of frames `range` into a new buffer.
    func slice(_ range: Range<Int>) -> AVAudioPCMBuffer? {
        guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(range.count)) else { return nil }
        let bytesPerFrame = Int(format.streamDescription.pointee.mBytesPerFrame)
        let src = UnsafeMutableAudioBufferListPointer(mutableAudioBufferList)
        let dst = UnsafeMutableAudioBufferListPointer(out.mutableAudioBufferList)
        for (s, d) in zip(src, dst) {
            memcpy(d.mData!, s.mData!.advanced(by: range.lowerBound * bytesPerFrame), range.count * bytesPerFrame)
        }
        out.frameLength = AVAudioFrameCount(range.count)
        return out
    }
}

@Suite struct PCMBufferUtilitiesClientTests {
    @Test func buffersFromArraysAndBack() throws {
        let left: [Float] = (0..<1000).map { Float($0) / 1000 }
        let right: [Float] = left.map { -$0 }
        let buffer = try #require(AVAudioPCMBuffer(channels: [left, right], sampleRate: 44100))
        #expect(buffer.frameLength == 1000 && buffer.frameCapacity == 1000)
        #expect(buffer.format.channelCount == 2)
        #expect(buffer.format.isStandard)
        #expect(!buffer.format.isInterleaved)
        #expect(buffer.stride == 1)
        #expect(buffer.toArray() == left)
        #expect(buffer.toArray(channel: 1) == right)
        #expect(buffer.int16ChannelData == nil && buffer.int32ChannelData == nil)

        let copy = try #require(buffer.copy())
        #expect(copy !== buffer)
        #expect(copy.toArray(channel: 1) == right)
        copy.floatChannelData![0][0] = 42
        #expect(buffer.floatChannelData![0][0] == 0, "a deep copy")

        let joined = try #require(AVAudioPCMBuffer(pcmFormat: buffer.format, frameCapacity: 2000))
        joined.append(buffer)
        joined.append(buffer)
        #expect(joined.frameLength == 2000)
        #expect(Array(joined.toArray()[1000...]) == left)

        let middle = try #require(joined.slice(500..<1500))
        #expect(middle.frameLength == 1000)
        #expect(middle.toArray()[0] == left[500] && middle.toArray()[999] == left[499])
        #expect(middle.toArray(channel: 1)[600] == right[100])
    }

    @Test func audioBufferListsBehindTheBuffer() throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512))
        #expect(buffer.frameLength == 0)
        buffer.frameLength = 256
        let abl = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        #expect(abl.count == 2)
        #expect(abl[0].mNumberChannels == 1)
        #expect(abl[0].mDataByteSize == 256 * 4, "frameLength sets mDataByteSize")
        #expect(buffer.audioBufferList.pointee.mNumberBuffers == 2)
        #expect(UnsafeMutableRawPointer(buffer.floatChannelData![1]) == abl[1].mData)
        for buf in abl {
            let samples = UnsafeMutableBufferPointer<Float>(buf)
            #expect(samples.count == 256)
            samples.update(repeating: 0.125)
        }
        #expect(buffer.floatChannelData![1][255] == 0.125)

        let interleaved = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48000, channels: 2, interleaved: true)!
        let ibuf = try #require(AVAudioPCMBuffer(pcmFormat: interleaved, frameCapacity: 100))
        ibuf.frameLength = 100
        #expect(ibuf.stride == 2)
        #expect(ibuf.audioBufferList.pointee.mNumberBuffers == 1)
        #expect(ibuf.audioBufferList.pointee.mBuffers.mNumberChannels == 2)
        #expect(ibuf.audioBufferList.pointee.mBuffers.mDataByteSize == 800)
    }

    @Test func formatsFromSettingsAndStreamDescriptions() throws {
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: 22050,
            AVNumberOfChannelsKey: 1,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
            AVLinearPCMIsNonInterleaved: false,
        ]
        let format = try #require(AVAudioFormat(settings: settings))
        #expect(format.commonFormat == .pcmFormatInt16)
        #expect(format.sampleRate == 22050)
        #expect(format.channelCount == 1)
        let asbd = format.streamDescription.pointee
        #expect(asbd.mFormatID == kAudioFormatLinearPCM)
        #expect(asbd.mBitsPerChannel == 16)
        #expect(asbd.mBytesPerFrame == 2 && asbd.mBytesPerPacket == 2 && asbd.mFramesPerPacket == 1)
        #expect(asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
        #expect(asbd.mFormatFlags & kAudioFormatFlagIsFloat == 0)

        let back = format.settings
        #expect(back[AVSampleRateKey] as? Double == 22050)
        #expect(back[AVNumberOfChannelsKey] as? Int == 1)
        #expect(back[AVLinearPCMBitDepthKey] as? Int == 16)
        #expect(back[AVLinearPCMIsFloatKey] as? Bool == false)
        #expect((back[AVFormatIDKey] as? NSNumber)?.uint32Value == kAudioFormatLinearPCM)

        var desc = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
                                               mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                               mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let fromASBD = try #require(AVAudioFormat(streamDescription: &desc))
        #expect(fromASBD.isStandard)
        #expect(fromASBD == AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2))
        #expect(fromASBD != AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2))
    }

    @Test func channelLayouts() throws {
        let stereo = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo))
        #expect(stereo.channelCount == 2)
        #expect(stereo.layoutTag == kAudioChannelLayoutTag_Stereo)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channelLayout: stereo)
        #expect(format.channelCount == 2)
        #expect(format.channelLayout?.layoutTag == kAudioChannelLayoutTag_Stereo || format.channelLayout == nil)

        let surround = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A))
        #expect(surround.channelCount == 6)
        let surroundFormat = AVAudioFormat(standardFormatWithSampleRate: 48000, channelLayout: surround)
        #expect(surroundFormat.channelCount == 6)
        #expect(surroundFormat.channelLayout?.layoutTag == kAudioChannelLayoutTag_MPEG_5_1_A)
        #expect(surroundFormat.channelLayout == surround)
        #expect(surround.layout.pointee.mChannelLayoutTag == kAudioChannelLayoutTag_MPEG_5_1_A)

        let quad = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Quadraphonic)!
        let quadFormat = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 44100, interleaved: false, channelLayout: quad)
        #expect(quadFormat.channelCount == 4)
        let settings = quadFormat.settings
        #expect(settings[AVChannelLayoutKey] is Data)
    }
}
