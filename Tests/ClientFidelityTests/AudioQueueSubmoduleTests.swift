// A client that imports only the Audio Queue submodule, as `import AudioToolbox.AudioQueue` clients do:
// the header's types and constants and the overlay's functions come with it.
import AudioToolbox.AudioQueue
import Testing

@Suite struct AudioQueueSubmoduleTests {
    static let callback: AudioQueueOutputCallback = { _, _, _ in }

    @Test func audioQueueThroughItsSubmodule() throws {
        var format = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8,
                                                 mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var queue: AudioQueueRef?
        #expect(AudioQueueNewOutput(&format, Self.callback, nil, nil, nil, 0, &queue) == noErr)
        var running: UInt32 = 7
        var size = UInt32(MemoryLayout<UInt32>.size)
        #expect(AudioQueueGetProperty(queue!, kAudioQueueProperty_IsRunning, &running, &size) == noErr)
        #expect(running == 0)
        var volume: AudioQueueParameterValue = 0
        #expect(AudioQueueGetParameter(queue!, kAudioQueueParam_Volume, &volume) == noErr)
        #expect(volume == 1)
        #expect(AudioQueueDispose(queue!, true) == noErr)
    }
}
