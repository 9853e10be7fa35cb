@testable import AudioToolbox
import Foundation
import Testing
import SharedTestSupport

/// The property tables' promise, walked over every ID each table names: where GetPropertyInfo answers, a
/// GetProperty given exactly Info's size succeeds, reports exactly that size and writes nothing past it, and
/// one byte less is refused with the object's own bad-size status. Files (WAVE, CAF with an AAC cookie, MPEG-4
/// AAC), their ExtAudioFiles, a PCM converter and codec converters (an AAC encoder and decoder).
@Suite struct PropertySizeInvariantTests {
    static let guardByte: UInt8 = 0xA5
    static let guardCount = 16

    /// What one Get with Info's size did: the status, the size it reported, and whether bytes past Info's size changed.
    struct Outcome {
        let status: OSStatus
        let size: UInt32
        let wroteBeyond: Bool
        let shortStatus: OSStatus?
    }

    /// Info's size, then Get with exactly that (and with one byte less); `get` is the object's GetProperty.
    static func probe(_ infoSize: UInt32, _ id: UInt32, _ get: (UInt32, UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer) -> OSStatus) -> Outcome {
        let total = Int(infoSize) + guardCount
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        defer { buffer.deallocate() }
        // Zero input for the translations (frame 0, byte 0, 0 bytes), guard bytes after it.
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Int(infoSize))
        (buffer + Int(infoSize)).initializeMemory(as: UInt8.self, repeating: guardByte, count: guardCount)
        var size = infoSize
        let status = get(id, &size, buffer)
        let beyond = UnsafeRawBufferPointer(start: buffer + Int(infoSize), count: guardCount).contains { $0 != guardByte }
        if status == noErr, [kAudioFilePropertyInfoDictionary].contains(id), infoSize == 8 {
            Unmanaged<AnyObject>.fromOpaque(buffer.load(as: UnsafeRawPointer.self)).release()
        }
        var shortStatus: OSStatus?
        if infoSize > 0 {
            var short = infoSize - 1
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: Int(infoSize), alignment: 16)
            defer { scratch.deallocate() }
            scratch.initializeMemory(as: UInt8.self, repeating: 0, count: Int(infoSize))
            shortStatus = get(id, &short, scratch)
        }
        return Outcome(status: status, size: size, wroteBeyond: beyond, shortStatus: shortStatus)
    }

    /// Walks `ids`: each one `info` answers is read by `get` with exactly Info's size, which must succeed, report that
    /// size and write nothing past it; one byte less must get `badSize`. Answers the IDs Info answered.
    static func walk(_ ids: [UInt32], badSize: OSStatus, info: (UInt32, UnsafeMutablePointer<UInt32>) -> OSStatus,
                     get: (UInt32, UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer) -> OSStatus) -> [UInt32] {
        var answered: [UInt32] = []
        for id in ids {
            var infoSize: UInt32 = 0
            guard info(id, &infoSize) == noErr else { continue }
            answered.append(id)
            let o = probe(infoSize, id, get)
            #expect(o.status == noErr, "\(OCAFormat.string(fromFourCharCode: id)): Get \(o.status)")
            #expect(o.size == infoSize, "\(OCAFormat.string(fromFourCharCode: id)): Info \(infoSize), Get \(o.size)")
            #expect(!o.wroteBeyond, "\(OCAFormat.string(fromFourCharCode: id)) wrote past Info's size")
            if let st = o.shortStatus { #expect(st == badSize, "\(OCAFormat.string(fromFourCharCode: id)): short buffer \(st)") }
        }
        return answered
    }

    static func tone(frames: Int) -> [Float] {
        (0..<frames * 2).map { i in Float(0.4 * sin(2 * Double.pi * 440 * Double(i / 2) / 44100)) }
    }

    /// A file of `type` holding `format`, written from a stereo tone through ExtAudioFile.
    static func write(_ type: AudioFileTypeID, _ ext: String, _ format: AudioStreamBasicDescription) throws -> URL {
        let url = FileSupport.tempURL(ext)
        let x = try ExtFileIO.create(url, type: type, format: format, client: MP3FileTests.floatStereo)
        try ExtFileIO.write(x, tone(frames: 22050), channels: 2)
        #expect(ExtAudioFileDispose(x) == noErr)
        return url
    }

    static var aac: AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = 44100
        f.mFormatID = kAudioFormatMPEG4AAC
        f.mChannelsPerFrame = 2
        return f
    }

    static let int16Stereo = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)

    /// Every AudioFile property of `url` (and of an ExtAudioFile on it): Get writes exactly Info's size.
    @Test(arguments: [(kAudioFileWAVEType, "wav"), (kAudioFileCAFType, "caf"), (kAudioFileM4AType, "m4a")])
    func fileGetWritesInfoSize(_ spec: (AudioFileTypeID, String)) throws {
        let url = try Self.write(spec.0, spec.1, spec.0 == kAudioFileWAVEType ? Self.int16Stereo : Self.aac)
        defer { try? FileManager.default.removeItem(at: url) }
        var opened: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &opened) == noErr)
        let f = try #require(opened)
        defer { AudioFileClose(f) }
        let answered = Self.walk(AudioFileObject.propertyTable.ids, badSize: kAudioFileBadPropertySizeError,
                                 info: { AudioFileGetPropertyInfo(f, $0, $1, nil) }, get: { AudioFileGetProperty(f, $0, $1, $2) })
        // The walk covered what every file has, and the compressed files' cookies.
        #expect(answered.contains(kAudioFilePropertyDataFormat) && answered.contains(kAudioFilePropertyFrameToPacket))
        if spec.0 != kAudioFileWAVEType { #expect(answered.contains(kAudioFilePropertyMagicCookieData) && answered.contains(kAudioFilePropertyPacketTableInfo)) }
        if spec.0 == kAudioFileCAFType { #expect(answered.contains(kAudioFilePropertyMarkerList)) }

        var ext: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &ext) == noErr)
        let x = try #require(ext)
        defer { ExtAudioFileDispose(x) }
        var client = MP3FileTests.floatStereo
        try #require(ExtAudioFileSetProperty(x, kExtAudioFileProperty_ClientDataFormat, ExtFileIO.descriptionSize, &client) == noErr)
        let extAnswered = Self.walk(ExtAudioFileObject.propertyTable.ids, badSize: kExtAudioFileError_InvalidPropertySize,
                                    info: { ExtAudioFileGetPropertyInfo(x, $0, $1, nil) }, get: { ExtAudioFileGetProperty(x, $0, $1, $2) })
        #expect(extAnswered.count >= 10)
    }

    /// Every converter property a PCM converter (rate and sample type change) and AAC's encoder and decoder answer.
    @Test(arguments: ["pcm", "encoder", "decoder"])
    func converterGetWritesInfoSize(_ kind: String) throws {
        var from = MP3FileTests.floatStereo
        var to = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        if kind == "encoder" { to = Self.aac }
        if kind == "decoder" { from = Self.aac; to = MP3FileTests.floatStereo }
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&from, &to, &converter) == noErr)
        let c = try #require(converter)
        defer { AudioConverterDispose(c) }
        let answered = Self.walk(AudioConverterObject.propertyTable.ids, badSize: kAudioConverterErr_BadPropertySizeError,
                                 info: { AudioConverterGetPropertyInfo(c, $0, $1, nil) }, get: { AudioConverterGetProperty(c, $0, $1, $2) })
        #expect(answered.contains(kAudioConverterCurrentInputStreamDescription) && answered.contains(kAudioConverterChannelMap))
        if kind == "encoder" { #expect(answered.contains(kAudioConverterCompressionMagicCookie) && answered.contains(kAudioConverterAvailableEncodeBitRates)) }
        if kind == "decoder" { #expect(answered.contains(kAudioConverterDecompressionMagicCookie)) }
        if kind == "pcm" { #expect(answered.contains(kAudioConverterPropertyCalculateInputBufferSize)) }
    }

    /// A CAF without markers: Info's size is the list's 8-byte header, the size Get writes (Info once reported
    /// room for one marker, 8 + 40 bytes, while Get wrote and reported 8).
    @Test func emptyMarkerListInfoIsItsHeader() throws {
        let url = try Self.write(kAudioFileCAFType, "caf", Self.int16Stereo)
        defer { try? FileManager.default.removeItem(at: url) }
        var opened: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &opened) == noErr)
        let f = try #require(opened)
        defer { AudioFileClose(f) }
        var infoSize: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(f, kAudioFilePropertyMarkerList, &infoSize, nil) == noErr)
        #expect(infoSize == 8)
        var list = [UInt32](repeating: 0xFFFF_FFFF, count: 4)
        var size: UInt32 = 16
        #expect(AudioFileGetProperty(f, kAudioFilePropertyMarkerList, &size, &list) == noErr)
        #expect(size == 8 && list[1] == 0 && list[2] == 0xFFFF_FFFF)
    }

    /// Every property a stream parser announced for a WAVE and a CAF holding AAC (cookie included).
    @Test(arguments: [(kAudioFileWAVEType, "wav"), (kAudioFileCAFType, "caf")])
    func streamGetWritesInfoSize(_ spec: (AudioFileTypeID, String)) throws {
        let url = try Self.write(spec.0, spec.1, spec.0 == kAudioFileWAVEType ? Self.int16Stereo : Self.aac)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = try [UInt8](Data(contentsOf: url))
        let listener: AudioFileStream_PropertyListenerProc = { _, _, _, _ in }
        let packets: AudioFileStream_PacketsProc = { _, _, _, _, _ in }
        var stream: AudioFileStreamID?
        try #require(AudioFileStreamOpen(nil, listener, packets, 0, &stream) == noErr)
        let s = try #require(stream)
        defer { AudioFileStreamClose(s) }
        var infoSize: UInt32 = 0
        // Nothing parsed yet: every ID is data not yet available.
        #expect(AudioFileStreamGetPropertyInfo(s, kAudioFileStreamProperty_DataFormat, &infoSize, nil) == kAudioFileStreamError_DataUnavailable)
        #expect(bytes.withUnsafeBytes { AudioFileStreamParseBytes(s, UInt32(bytes.count), $0.baseAddress!, []) } == noErr)
        let answered = Self.walk(AudioFileStreamObject.propertyTable.ids, badSize: kAudioFileStreamError_BadPropertySize,
                                 info: { AudioFileStreamGetPropertyInfo(s, $0, $1, nil) }, get: { AudioFileStreamGetProperty(s, $0, $1, $2) })
        #expect(answered.contains(kAudioFileStreamProperty_DataFormat) && answered.contains(kAudioFileStreamProperty_ReadyToProducePackets))
        if spec.0 == kAudioFileCAFType { #expect(answered.contains(kAudioFileStreamProperty_MagicCookieData)) }
        // Parsed: an ID that is no stream property is unsupported.
        #expect(AudioFileStreamGetPropertyInfo(s, 0x7A7A_7A7A, &infoSize, nil) == kAudioFileStreamError_UnsupportedProperty)
    }

    /// An output queue's table (the device properties skipped where no device answers), then the rows with rules of
    /// their own: the meters answer kAudioQueueErr_InvalidPropertyValue until metering is on, then fill a smaller
    /// buffer with the first channels; a read-only property refuses a set; the write-only ChannelAssignments is not read.
    @Test func queueGetWritesInfoSize() throws {
        var format = Self.int16Stereo
        let callback: AudioQueueOutputCallback = { _, _, _ in }
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, callback, nil, nil, nil, 0, &queue) == noErr)
        let q = try #require(queue)
        defer { AudioQueueDispose(q, true) }
        let answered = Self.walk(AudioQueueObject.propertyTable.ids, badSize: kAudioQueueErr_InvalidPropertySize,
                                 info: { AudioQueueGetPropertySize(q, $0, $1) }, get: { AudioQueueGetProperty(q, $0, $2, $1) })
        #expect(answered.contains(kAudioQueueProperty_StreamDescription) && answered.contains(kAudioQueueProperty_IsRunning))
        #expect(!answered.contains(kAudioQueueProperty_CurrentLevelMeter) && !answered.contains(kAudioQueueProperty_ChannelAssignments))

        var size: UInt32 = 0
        #expect(AudioQueueGetPropertySize(q, kAudioQueueProperty_CurrentLevelMeterDB, &size) == kAudioQueueErr_InvalidPropertyValue)
        #expect(AudioQueueGetPropertySize(q, kAudioQueueProperty_ChannelAssignments, &size) == kAudioQueueErr_InvalidProperty)
        var on: UInt32 = 1
        #expect(AudioQueueSetProperty(q, kAudioQueueProperty_IsRunning, &on, 4) == kAudioQueueErr_InvalidProperty)
        #expect(AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 2) == kAudioQueueErr_InvalidPropertySize)
        #expect(AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
        #expect(AudioQueueGetPropertySize(q, kAudioQueueProperty_CurrentLevelMeterDB, &size) == noErr)
        #expect(size == 2 * UInt32(MemoryLayout<AudioQueueLevelMeterState>.size))
        var states = [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(mAveragePower: 7, mPeakPower: 7), count: 2)
        size = UInt32(MemoryLayout<AudioQueueLevelMeterState>.size)
        #expect(AudioQueueGetProperty(q, kAudioQueueProperty_CurrentLevelMeterDB, &states, &size) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioQueueLevelMeterState>.size))
        // Nothing played yet: silence, -120 dB; the second channel's state was not touched.
        #expect(states[0].mPeakPower == -120 && states[1].mPeakPower == 7)
        size = 0
        #expect(AudioQueueGetProperty(q, kAudioQueueProperty_CurrentLevelMeterDB, &states, &size) == kAudioQueueErr_InvalidPropertySize)
    }
}
