// Clients that import Clang submodules of AudioToolbox, as some do on Apple's platforms: the submodule
// brings its header's declarations and the Swift overlay's functions with it.
import AudioToolbox.AudioFile
import AudioToolbox.ExtendedAudioFile
import Foundation
import Testing

@Suite struct SubmoduleImportTests {
    @Test func audioFileThroughItsSubmodule() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-submodule-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        var ext: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &ext) == noErr)
        #expect(ExtAudioFileDispose(ext!) == noErr)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileWAVEType, &file) == noErr)
        AudioFileClose(file!)
    }
}
