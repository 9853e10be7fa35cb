import AudioToolbox
import AudioToolboxAAC
import Foundation
import Testing

/// A compressed input queue takes its encoder's settings as AudioConverter does (kAudioConverterEncodeBitRate,
/// kAudioConverterCodecQuality, kAudioCodecPropertyBitRateControlMode), while stopped; a linear PCM queue has none.
@Suite struct AudioQueueEncoderSettingsTests {
    static let callback: AudioQueueInputCallback = { _, _, _, _, _, _ in }

    func newInput(_ format: AudioStreamBasicDescription) throws -> AudioQueueRef {
        var f = format
        var queue: AudioQueueRef?
        try #require(AudioQueueNewInput(&f, Self.callback, nil, nil, nil, 0, &queue) == noErr)
        return try #require(queue)
    }

    func get(_ queue: AudioQueueRef, _ id: AudioQueuePropertyID) -> (OSStatus, UInt32) {
        var value: UInt32 = 0
        var size: UInt32 = 4
        let status = AudioQueueGetProperty(queue, id, &value, &size)
        return (status, value)
    }

    func set(_ queue: AudioQueueRef, _ id: AudioQueuePropertyID, _ value: UInt32) -> OSStatus {
        var v = value
        return AudioQueueSetProperty(queue, id, &v, 4)
    }

    @Test func aacQueueTakesBitRateQualityAndMode() throws {
        let aac = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let queue = try newInput(aac)
        defer { AudioQueueDispose(queue, true) }
        #expect(get(queue, kAudioConverterEncodeBitRate) == (noErr, 128_000))
        #expect(set(queue, kAudioConverterEncodeBitRate, 96_000) == noErr)
        #expect(get(queue, kAudioConverterEncodeBitRate) == (noErr, 96_000))
        #expect(set(queue, kAudioConverterEncodeBitRate, 1_000) == kAudioQueueErr_InvalidPropertyValue)
        #expect(get(queue, kAudioConverterEncodeBitRate) == (noErr, 96_000))
        #expect(set(queue, kAudioConverterCodecQuality, kAudioConverterQuality_Max) == noErr)
        #expect(get(queue, kAudioConverterCodecQuality) == (noErr, kAudioConverterQuality_Max))
        #expect(set(queue, kAudioConverterCodecQuality, 200) == kAudioQueueErr_InvalidPropertyValue)
        #expect(set(queue, kAudioCodecPropertyBitRateControlMode, kAudioCodecBitRateControlMode_Constant) == noErr)
        #expect(get(queue, kAudioCodecPropertyBitRateControlMode) == (noErr, kAudioCodecBitRateControlMode_Constant))
        #expect(set(queue, kAudioCodecPropertyBitRateControlMode, 99) == kAudioQueueErr_InvalidPropertyValue)
    }

    @Test func linearPCMQueueHasNoEncoderSettings() throws {
        let pcm = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                              mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
                                              mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        let queue = try newInput(pcm)
        defer { AudioQueueDispose(queue, true) }
        #expect(get(queue, kAudioConverterEncodeBitRate).0 == kAudioQueueErr_InvalidProperty)
        #expect(set(queue, kAudioConverterEncodeBitRate, 96_000) == kAudioQueueErr_InvalidProperty)
    }
}
