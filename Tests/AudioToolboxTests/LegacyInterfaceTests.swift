import AudioToolbox
import Foundation
import Testing

/// The deprecated calls added for source compatibility: the answers that are ours rather than checked against
/// Apple (error codes for what they cannot do), and files they write checked by an outside reader.
@Suite struct LegacyInterfaceTests {
    private static func pcm(_ flags: AudioFormatFlags, channels: UInt32, bytes: UInt32, interleaved: Bool = true) -> AudioStreamBasicDescription {
        let perFrame = interleaved ? bytes * channels : bytes
        return AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                           mFormatFlags: flags | (interleaved ? 0 : kAudioFormatFlagIsNonInterleaved),
                                           mBytesPerPacket: perFrame, mFramesPerPacket: 1, mBytesPerFrame: perFrame,
                                           mChannelsPerFrame: channels, mBitsPerChannel: bytes * 8, mReserved: 0)
    }

    private static let noInput: AudioConverterInputDataProc = { _, size, _, _ in size.pointee = 0; return noErr }

    @Test func fillBufferRefusesWhatOneByteBufferCannotCarry() {
        // Non-interleaved stereo output: two buffers, which FillBuffer's single buffer cannot be.
        var input = Self.pcm(kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, channels: 2, bytes: 2)
        var output = Self.pcm(kAudioFormatFlagsNativeFloatPacked, channels: 2, bytes: 4, interleaved: false)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&input, &output, &converter) == noErr)
        var out = [UInt8](repeating: 0, count: 64)
        var size = UInt32(out.count)
        #expect(AudioConverterFillBuffer(converter!, Self.noInput, nil, &size, &out) == kAudioConverterErr_FormatNotSupported)
        AudioConverterDispose(converter!)

        // An encoder to a variable-size format needs packet descriptions.
        input = Self.pcm(kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, channels: 1, bytes: 2)
        var flac = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatFLAC, mFormatFlags: 1, mBytesPerPacket: 0,
                                               mFramesPerPacket: 4096, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0,
                                               mReserved: 0)
        #expect(AudioConverterNew(&input, &flac, &converter) == noErr)
        size = UInt32(out.count)
        #expect(AudioConverterFillBuffer(converter!, Self.noInput, nil, &size, &out) == kAudioConverterErr_RequiresPacketDescriptionsError)
        AudioConverterDispose(converter!)
    }

    @Test func legacySMFDataCallsRoundTripANoteAndRefuseFlagsOnAFullSequence() throws {
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence!, &track) == noErr)
        var note = MIDINoteMessage(channel: 2, note: 64, velocity: 99, releaseVelocity: 0, duration: 1.5)
        #expect(MusicTrackNewMIDINoteEvent(track!, 2.0, &note) == noErr)

        var data: Unmanaged<CFData>?
        #expect(MusicSequenceSaveSMFData(sequence!, &data, 480) == noErr)
        let smf = try #require(data?.takeRetainedValue())
        let bytes = [UInt8](smf as Data)
        #expect(Array(bytes[0..<4]) == Array("MThd".utf8))
        #expect(bytes[12] == 0x01 && bytes[13] == 0xE0)  // 480 ticks per quarter note

        // Flags need an empty sequence.
        #expect(MusicSequenceLoadSMFDataWithFlags(sequence!, smf, .smf_ChannelsToTracks) == kAudio_ParamError)

        var loaded: MusicSequence?
        #expect(NewMusicSequence(&loaded) == noErr)
        defer { DisposeMusicSequence(loaded!) }
        #expect(MusicSequenceLoadSMFDataWithFlags(loaded!, smf, []) == noErr)
        var tracks: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(loaded!, &tracks) == noErr)
        #expect(tracks == 1)
        var loadedTrack: MusicTrack?
        #expect(MusicSequenceGetIndTrack(loaded!, 0, &loadedTrack) == noErr)
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(loadedTrack!, &iterator) == noErr)
        defer { DisposeMusicEventIterator(iterator!) }
        var time: MusicTimeStamp = 0, type: MusicEventType = 0, pointer: UnsafeRawPointer?, size: UInt32 = 0
        #expect(MusicEventIteratorGetEventInfo(iterator!, &time, &type, &pointer, &size) == noErr)
        #expect(time == 2.0 && type == kMusicEventType_MIDINoteMessage)
        let back = try #require(pointer).load(as: MIDINoteMessage.self)
        #expect(back.channel == 2 && back.note == 64 && back.velocity == 99 && back.duration == 1.5)
    }

    /// NewMusicTrackFrom: a second track in the same sequence with the region's events, the region's start at beat 0.
    @Test func newMusicTrackFromCopiesARegion() throws {
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence!, &track) == noErr)
        for (beat, pitch) in [(1.0, 60), (2.0, 62), (3.0, 64)] as [(Double, UInt8)] {
            var note = MIDINoteMessage(channel: 0, note: pitch, velocity: 90, releaseVelocity: 0, duration: 0.5)
            #expect(MusicTrackNewMIDINoteEvent(track!, beat, &note) == noErr)
        }
        var region: MusicTrack?
        #expect(NewMusicTrackFrom(track!, 1.5, 3.0, &region) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(sequence!, &count) == noErr && count == 2)
        var owner: MusicSequence?
        #expect(MusicTrackGetSequence(try #require(region), &owner) == noErr && owner == sequence)
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(region!, &iterator) == noErr)
        defer { DisposeMusicEventIterator(iterator!) }
        var events: [(MusicTimeStamp, UInt8)] = []
        var has: DarwinBoolean = false
        while MusicEventIteratorHasCurrentEvent(iterator!, &has) == noErr, has.boolValue {
            var time: MusicTimeStamp = 0, type: MusicEventType = 0, pointer: UnsafeRawPointer?, size: UInt32 = 0
            #expect(MusicEventIteratorGetEventInfo(iterator!, &time, &type, &pointer, &size) == noErr)
            if type == kMusicEventType_MIDINoteMessage { events.append((time, pointer!.load(as: MIDINoteMessage.self).note)) }
            MusicEventIteratorNextEvent(iterator!)
        }
        #expect(events.count == 1 && events.first?.0 == 0.5 && events.first?.1 == 62)
        #expect(NewMusicTrackFrom(track!, 2.0, 1.0, &region) == kAudio_ParamError)
    }

    @Test func prepareAndReleaseInstrumentAreObsolete() throws {
        var sampler = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler,
                                                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(try #require(AudioComponentFindNext(nil, &sampler)), &unit) == noErr)
        #expect(MusicDevicePrepareInstrument(unit!, 0) == kAudio_UnimplementedError)
        #expect(MusicDeviceReleaseInstrument(unit!, 0) == kAudio_UnimplementedError)
        AudioComponentInstanceDispose(unit!)
        var delay = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentInstanceNew(try #require(AudioComponentFindNext(nil, &delay)), &unit) == noErr)
        #expect(MusicDevicePrepareInstrument(unit!, 0) == badComponentSelector)
        AudioComponentInstanceDispose(unit!)
    }

    /// User data goes into CAF (and WAVE and AIFF: UserDataChunkLayoutTests), not RF64, whose reader stops at its data.
    @Test func userDataIsNotWrittenToRF64AndFFmpegReadsTheCAF() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory())
        let caf = dir.appendingPathComponent("legacy-ud-\(getpid()).caf"), wav = dir.appendingPathComponent("legacy-ud-\(getpid()).rf64")
        defer { try? FileManager.default.removeItem(at: caf); try? FileManager.default.removeItem(at: wav) }
        var format = Self.pcm(kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, channels: 1, bytes: 2)
        let tag: [UInt8] = [1, 2, 3]

        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(wav as CFURL, kAudioFileRF64Type, &format, .eraseFile, &file) == noErr)
        #expect(AudioFileSetUserData(file!, 0x61707044, 0, 3, tag) == kAudioFileOperationNotSupportedError)
        AudioFileClose(file!)

        #expect(AudioFileCreateWithURL(caf as CFURL, kAudioFileCAFType, &format, .eraseFile, &file) == noErr)
        // The chunks the file's own properties write are not user data.
        #expect(AudioFileSetUserData(file!, 0x6B756B69 /* kuki */, 0, 3, tag) == kAudioFileInvalidChunkError)
        var samples = (0..<4410).map { Int16(10000 * sin(Double($0) * 2 * .pi * 441 / 44100)) }
        var count = UInt32(samples.count)
        #expect(AudioFileWritePackets(file!, false, count * 2, nil, 0, &count, &samples) == noErr)
        #expect(AudioFileSetUserData(file!, 0x61707044, 0, 3, tag) == noErr)
        #expect(AudioFileClose(file!) == noErr)
        #expect(AudioFileOpenURL(caf as CFURL, .readPermission, kAudioFileCAFType, &file) == noErr)
        #expect(AudioFileSetUserData(file!, 0x61707044, 1, 3, tag) == kAudioFilePermissionsError)
        AudioFileClose(file!)

        // FFmpeg decodes exactly the samples written: the chunk after the audio is not taken for audio.
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", caf.path, "-f", "s16le", "-acodec", "pcm_s16le", "-"]
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let decoded = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(errorText.isEmpty, "ffmpeg: \(errorText)")
        let back = decoded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(back == samples)
    }
}
