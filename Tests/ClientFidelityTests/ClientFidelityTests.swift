// What real client code, compiled against our modules, found missing or different (issue 12). Apple's
// API only: this file builds unchanged against Apple's frameworks.
import AudioToolbox
import CoreAudio
import Foundation
import Testing

@Suite struct ClientFidelityTests {
    static func pcm16(channels: UInt32 = 1, flags: AudioFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                    mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    }

    static func makeFile(_ url: URL) throws {
        var format = pcm16(flags: kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileAIFFType, &format, .eraseFile, &file) == noErr)
        var bytes: UInt32 = 200
        var samples = [Int16](repeating: 0x1234, count: 100)
        #expect(AudioFileWriteBytes(file!, false, 0, &bytes, &samples) == noErr)
        AudioFileClose(file!)
    }

    /// A URL without a scheme (`URL(string: "./x.aif")`) names a path relative to the working directory,
    /// as Apple's file-system representation of it does.
    @Test func openURLWithoutScheme() throws {
        let name = "oca-relative-\(UUID().uuidString).aif"
        let absolute = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: absolute) }
        try Self.makeFile(absolute)
        let relative = try #require(URL(string: "./" + name))
        var file: AudioFileID?
        #expect(AudioFileOpenURL(relative as CFURL, .readPermission, 0, &file) == noErr)
        var packets: UInt64 = 0
        var size = UInt32(8)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 100)
        AudioFileClose(file!)
        var ext: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(relative as CFURL, &ext) == noErr)
        ExtAudioFileDispose(ext!)
        // Another scheme is no file path.
        #expect(AudioFileOpenURL(URL(string: "http://example.com/" + name)! as CFURL, .readPermission, 0, &file) == kAudio_BadFilePathError)
    }

    /// Empty paths are errors, never traps.
    @Test func emptyPathsAreErrors() throws {
        var file: AudioFileID?
        #expect(AudioFileOpenURL(NSURL(fileURLWithPath: "") as CFURL, .readPermission, 0, &file) != noErr)
        #expect(AudioFileOpenURL(URL(fileURLWithPath: "") as CFURL, .readPermission, 0, &file) != noErr)
        if let cf = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, "" as CFString, .cfurlposixPathStyle, false) {
            #expect(AudioFileOpenURL(cf, .readPermission, 0, &file) != noErr)
        }
        var format = Self.pcm16()
        #expect(AudioFileCreateWithURL(NSURL(fileURLWithPath: "") as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file) != noErr)
        #expect(file == nil)
    }

    /// A FIFO with no writer, a device and a directory are refused at once instead of hanging the caller.
    @Test func specialFilesDoNotHang() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("oca-fifo-\(UUID().uuidString)")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        for path in [fifo.path, "/dev/null", FileManager.default.temporaryDirectory.path] {
            let done = DispatchSemaphore(value: 0)
            let result = LockedStatus()
            Thread.detachNewThread {
                var file: AudioFileID?
                result.set(AudioFileOpenURL(URL(fileURLWithPath: path) as CFURL, .readPermission, 0, &file))
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success, "AudioFileOpenURL(\(path)) hangs")
            #expect(result.get() == kAudioFileInvalidFileError, "\(path): \(result.get())")
        }
    }

    final class LockedStatus: @unchecked Sendable {
        private let lock = NSLock()
        private var status: OSStatus = 1
        func set(_ s: OSStatus) { lock.lock(); status = s; lock.unlock() }
        func get() -> OSStatus { lock.lock(); defer { lock.unlock() }; return status }
    }

    /// The format is checked before the file is made: a refused one leaves no file, and no emptied one.
    @Test func createValidatesBeforeTouchingTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-create-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var bigEndian = Self.pcm16(flags: kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &bigEndian, .eraseFile, &file) == kAudioFileUnsupportedDataFormatError)
        #expect(!FileManager.default.fileExists(atPath: url.path), "a refused format left a file")
        try Data("keep me".utf8).write(to: url)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &bigEndian, .eraseFile, &file) == kAudioFileUnsupportedDataFormatError)
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
        var ext: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &bigEndian, nil, AudioFileFlags.eraseFile.rawValue, &ext)
                == kAudioFileUnsupportedDataFormatError)
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
    }

    /// AIFF holds signed big-endian integers; flags its writer has no use for (signedness of an 8-bit
    /// format, non-mixable) are ignored as Apple's writer ignores them.
    @Test func aiffCreateIgnoresFlagsItHasNoUseFor() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aiff-\(UUID().uuidString).aif")
        defer { try? FileManager.default.removeItem(at: url) }
        var file: AudioFileID?
        var eightBit = AudioStreamBasicDescription(mSampleRate: 22050, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsPacked,
                                                   mBytesPerPacket: 1, mFramesPerPacket: 1, mBytesPerFrame: 1,
                                                   mChannelsPerFrame: 1, mBitsPerChannel: 8, mReserved: 0)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileAIFFType, &eightBit, .eraseFile, &file) == noErr)
        AudioFileClose(file!)
        var nonMixable = Self.pcm16(channels: 2, flags: kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger
                                    | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonMixable)
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileAIFFType, &nonMixable, .eraseFile, &file) == noErr)
        var stored = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &stored) == noErr)
        #expect(stored.mFormatFlags & kAudioFormatFlagIsNonMixable == 0 && stored.mChannelsPerFrame == 2)
        AudioFileClose(file!)
    }

    /// Names and shapes clients use: the plug-in interface's Lookup is a non-optional function pointer,
    /// MPEG4ObjectID, AudioFormatListItem and the deprecated HAL names exist with Apple's values.
    @Test func namesAndShapes() {
        let lookup: @convention(c) (Int16) -> AudioComponentMethod? = { _ in nil }
        let open: @convention(c) (UnsafeMutableRawPointer, AudioComponentInstance) -> OSStatus = { _, _ in noErr }
        let close: @convention(c) (UnsafeMutableRawPointer) -> OSStatus = { _ in noErr }
        let interface = AudioComponentPlugInInterface(Open: open, Close: close, Lookup: lookup, reserved: nil)
        #expect(interface.Lookup(0) == nil)
        #expect(MPEG4ObjectID.AAC_LC.rawValue == 2 && MPEG4ObjectID.AAC_SBR.rawValue == 5 && MPEG4ObjectID.HVXC.rawValue == 9)
        let item = AudioFormatListItem(mASBD: Self.pcm16(), mChannelLayoutTag: kAudioChannelLayoutTag_Mono)
        #expect(item.mChannelLayoutTag == kAudioChannelLayoutTag_Mono && item.mASBD.mBitsPerChannel == 16)
        #expect(kAudioDevicePropertyScopeOutput == kAudioObjectPropertyScopeOutput)
        #expect(kAudioDevicePropertyScopeInput == kAudioObjectPropertyScopeInput)
        #expect(kAudioDevicePropertyDeviceNameCFString == kAudioObjectPropertyName)
        #expect(kAudioDevicePropertyDeviceManufacturerCFString == kAudioObjectPropertyManufacturer)
        #expect(kAudioDevicePropertyDeviceName == 0x6E616D65)  // 'name'
    }
}
