// Audio file components as a client reaches them: the WAVE type found as an 'afil' component, an instance opened
// with AudioComponentInstanceNew, a file opened, read and written through the AudioFileComponent calls, compared
// with what the AudioFile calls give for the same file. Apple's API only.
import AudioToolbox
import Foundation
import Testing

private let fileComponentType: OSType = 0x6166_696C  // 'afil'

private func fileComponent(_ type: AudioFileTypeID) -> AudioComponent? {
    var d = AudioComponentDescription(componentType: fileComponentType, componentSubType: type,
                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    return AudioComponentFindNext(nil, &d)
}

private func instance(_ type: AudioFileTypeID) throws -> AudioFileComponent {
    let component = try #require(fileComponent(type))
    var made: AudioComponentInstance?
    try #require(AudioComponentInstanceNew(component, &made) == noErr)
    return try #require(made)
}

private let stereo16 = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                   mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                   mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                                   mBitsPerChannel: 16, mReserved: 0)

/// 5,000 frames of a two-channel ramp-and-tone, interleaved.
private let samples: [Int16] = (0..<10_000).map { (i: Int) -> Int16 in
    if i % 2 == 0 { return Int16(truncatingIfNeeded: i * 7) }
    let tone: Double = 12_000 * sin(Double(i / 2) * 0.05)
    return Int16(tone)
}

private func tempURL(_ ext: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("afil-\(UUID().uuidString).\(ext)")
}

/// All packets of a file through AudioFileReadPacketData.
private func packetsViaAudioFile(_ url: URL) throws -> (AudioStreamBasicDescription, [Int16]) {
    var file: AudioFileID?
    try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
    defer { AudioFileClose(file!) }
    var format = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    try #require(AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &format) == noErr)
    var out = [Int16](repeating: 0, count: 20_000)
    var bytes = UInt32(out.count * 2), packets: UInt32 = 10_000
    try #require(AudioFileReadPacketData(file!, false, &bytes, nil, 0, &packets, &out) == noErr)
    return (format, Array(out.prefix(Int(bytes) / 2)))
}

@Suite struct AudioFileComponentClientTests {
    /// The WAVE component: found, named by its type's questions (readable, writable, "wav", the data's signature);
    /// a WAV made with AudioFile opens through AudioFileComponentOpenURL with AudioFileOpenURL's format, packet count
    /// and packets; calls before a file is open and after it is closed fail; the AIFF component refuses the WAV.
    @Test func waveComponentReadsWhatAudioFileReads() throws {
        let url = tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = stereo16
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file) == noErr)
        var n: UInt32 = 5_000
        try #require(AudioFileWritePackets(file!, false, 20_000, nil, 0, &n, samples) == noErr)
        try #require(AudioFileClose(file!) == noErr)
        let (fileFormat, filePackets) = try packetsViaAudioFile(url)
        #expect(filePackets == samples)

        let component = try #require(fileComponent(kAudioFileWAVEType))
        let wave = try instance(kAudioFileWAVEType)
        defer { AudioComponentInstanceDispose(wave) }
        #expect(AudioComponentInstanceGetComponent(wave) == component)

        var result: UInt32 = 9
        #expect(AudioFileComponentExtensionIsThisFormat(wave, "WAV" as CFString, &result) == noErr && result == 1)
        #expect(AudioFileComponentExtensionIsThisFormat(wave, "aiff" as CFString, &result) == noErr && result == 0)
        let head = [UInt8](try Data(contentsOf: url).prefix(64))
        #expect(AudioFileComponentFileDataIsThisFormat(wave, UInt32(head.count), head, &result) == noErr && result == 1)
        var canRead: UInt32 = 0, canWrite: UInt32 = 0, size: UInt32 = 4
        #expect(AudioFileComponentGetGlobalInfo(wave, kAudioFileComponent_CanRead, 0, nil, &size, &canRead) == noErr && canRead == 1)
        size = 4
        #expect(AudioFileComponentGetGlobalInfo(wave, kAudioFileComponent_CanWrite, 0, nil, &size, &canWrite) == noErr && canWrite == 1)
        var extensions: Unmanaged<CFArray>?
        size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        #expect(AudioFileComponentGetGlobalInfo(wave, kAudioFileComponent_ExtensionsForType, 0, nil, &size, &extensions) == noErr)
        #expect((extensions?.takeRetainedValue() as? [String])?.contains("wav") == true)

        var packetCount: UInt64 = 0
        size = 8
        #expect(AudioFileComponentGetProperty(wave, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount) != noErr, "no file yet")
        // The caller opens the file and hands its descriptor too, as Audio File Services does.
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        try #require(fd >= 0)
        try #require(AudioFileComponentOpenURL(wave, url as CFURL, AudioFilePermissions.readPermission.rawValue, fd) == noErr)
        var componentFormat = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileComponentGetProperty(wave, kAudioFilePropertyDataFormat, &size, &componentFormat) == noErr)
        #expect(componentFormat.mSampleRate == fileFormat.mSampleRate && componentFormat.mFormatFlags == fileFormat.mFormatFlags
                && componentFormat.mBytesPerFrame == fileFormat.mBytesPerFrame && componentFormat.mChannelsPerFrame == 2)
        size = 8
        #expect(AudioFileComponentGetProperty(wave, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount) == noErr && packetCount == 5_000)
        var out = [Int16](repeating: 0, count: 20_000)
        var bytes = UInt32(out.count * 2), packets: UInt32 = 10_000
        #expect(AudioFileComponentReadPacketData(wave, false, &bytes, nil, 0, &packets, &out) == noErr)
        #expect(packets == 5_000 && Array(out.prefix(Int(bytes) / 2)) == filePackets)
        // A middle run through ReadPackets.
        packets = 100
        #expect(AudioFileComponentReadPackets(wave, false, &bytes, nil, 1_234, &packets, &out) == noErr)
        #expect(packets == 100 && bytes == 400 && Array(out.prefix(200)) == Array(samples[2_468..<2_668]))
        #expect(AudioFileComponentCloseFile(wave) == noErr)
        #expect(AudioFileComponentCloseFile(wave) != noErr)

        let aiff = try instance(kAudioFileAIFFType)
        defer { AudioComponentInstanceDispose(aiff) }
        #expect(AudioFileComponentFileDataIsThisFormat(aiff, UInt32(head.count), head, &result) == noErr && result == 0)
        #expect(AudioFileComponentOpenURL(aiff, url as CFURL, AudioFilePermissions.readPermission.rawValue, fd) != noErr)
    }

    /// A WAV written through the component (CreateURL, WritePackets, CloseFile) reads back through AudioFile with
    /// the same format and samples.
    @Test func waveComponentWritesAFileAudioFileReads() throws {
        let url = tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let wave = try instance(kAudioFileWAVEType)
        defer { AudioComponentInstanceDispose(wave) }
        var format = stereo16
        try #require(AudioFileComponentCreateURL(wave, url as CFURL, &format, AudioFileFlags.eraseFile.rawValue) == noErr)
        var n: UInt32 = 5_000
        #expect(AudioFileComponentWritePackets(wave, false, 20_000, nil, 0, &n, samples) == noErr && n == 5_000)
        #expect(AudioFileComponentCloseFile(wave) == noErr)
        let (read, packets) = try packetsViaAudioFile(url)
        #expect(read.mSampleRate == 44100 && read.mChannelsPerFrame == 2 && read.mBitsPerChannel == 16)
        #expect(packets == samples)
    }
}
