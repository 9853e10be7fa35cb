// Client code as most of it is written on Apple's platforms: `import AVFoundation` alone reaches Audio File
// Services, the CoreAudio types and Foundation.
import AVFoundation
import Testing

@Suite struct AVFoundationUmbrellaTests {
    @Test func avFoundationAloneReachesAudioToolbox() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-umbrella-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, .eraseFile, &file) == noErr)
        #expect(AudioFileClose(file!) == noErr)
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        AudioFileClose(file!)
        let device = kAudioObjectSystemObject  // CoreAudio through the umbrella
        #expect(device == 1)
    }
}
