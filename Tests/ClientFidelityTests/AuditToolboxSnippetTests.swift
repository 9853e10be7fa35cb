// Audit snippets: AudioToolbox's C API from Swift as "Learning Core Audio"-style code writes it
// (ExtAudioFile with a client format, an AudioUnit with a render callback pulled by AudioUnitRender,
// MusicSequence + MusicPlayer). Apple's API only.
import AudioToolbox
import Foundation
import Testing

/// The render callback's state, passed through inRefCon.
final class SineState {
    var phase: Double = 0
    let frequency: Double
    let sampleRate: Double
    init(frequency: Double, sampleRate: Double) { self.frequency = frequency; self.sampleRate = sampleRate }
}

/// A render callback as a global function, the usual shape.
func sineRenderCallback(inRefCon: UnsafeMutableRawPointer,
                        ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                        inTimeStamp: UnsafePointer<AudioTimeStamp>,
                        inBusNumber: UInt32,
                        inNumberFrames: UInt32,
                        ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    let state = Unmanaged<SineState>.fromOpaque(inRefCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)!
    for frame in 0..<Int(inNumberFrames) {
        let value = Float(sin(state.phase))
        for buffer in buffers {
            buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = value
        }
        state.phase += 2 * .pi * state.frequency / state.sampleRate
    }
    return noErr
}

@Suite struct AuditToolboxSnippetTests {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).\(ext)")
    }

    /// ExtAudioFile: a CAF of 16-bit integers written through a float client format, read back in another.
    @Test func extAudioFileWithClientFormat() throws {
        let url = Self.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var fileFormat = AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                                     mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                     mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                     mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        var extFile: ExtAudioFileRef?
        var status = ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &fileFormat, nil,
                                               AudioFileFlags.eraseFile.rawValue, &extFile)
        try #require(status == noErr)
        var clientFormat = AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                                       mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                       mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                                       mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        status = ExtAudioFileSetProperty(extFile!, kExtAudioFileProperty_ClientDataFormat,
                                         UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &clientFormat)
        #expect(status == noErr)
        var samples = [Float](repeating: 0, count: 800)
        for i in 0..<800 { samples[i] = Float(i % 100) / 200 }
        samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1,
                                       mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            #expect(ExtAudioFileWrite(extFile!, 800, &list) == noErr)
        }
        #expect(ExtAudioFileDispose(extFile!) == noErr)

        var reader: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &reader) == noErr)
        var lengthFrames: Int64 = 0
        var size = UInt32(MemoryLayout<Int64>.size)
        #expect(ExtAudioFileGetProperty(reader!, kExtAudioFileProperty_FileLengthFrames, &size, &lengthFrames) == noErr)
        #expect(lengthFrames == 800)
        var onDisk = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileGetProperty(reader!, kExtAudioFileProperty_FileDataFormat, &size, &onDisk) == noErr)
        #expect(onDisk.mBitsPerChannel == 16)
        // Client: Int16 at the file's rate.
        var int16Client = fileFormat
        #expect(ExtAudioFileSetProperty(reader!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout.size(ofValue: int16Client)), &int16Client) == noErr)
        #expect(ExtAudioFileSeek(reader!, 50) == noErr)
        var position: Int64 = 0
        #expect(ExtAudioFileTell(reader!, &position) == noErr)
        #expect(position == 50)
        let bufferByteSize = 100 * 2
        let data = UnsafeMutableRawPointer.allocate(byteCount: bufferByteSize, alignment: 2)
        defer { data.deallocate() }
        var list = AudioBufferList()
        list.mNumberBuffers = 1
        list.mBuffers.mNumberChannels = 1
        list.mBuffers.mDataByteSize = UInt32(bufferByteSize)
        list.mBuffers.mData = data
        var frames: UInt32 = 100
        #expect(ExtAudioFileRead(reader!, &frames, &list) == noErr)
        #expect(frames == 100)
        let read = data.assumingMemoryBound(to: Int16.self)
        // Frame 50 was 0.25 (50/200): 8192.
        #expect(read[0] == 8192)
        ExtAudioFileDispose(reader!)
    }

    /// An AUConverter with a render callback on its input, pulled with AudioUnitRender.
    @Test func audioUnitRenderCallback() throws {
        var description = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter,
                                                    componentSubType: kAudioUnitSubType_AUConverter,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple,
                                                    componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &description) else { Issue.record("no converter unit"); return }
        var unit: AudioUnit?
        try #require(AudioComponentInstanceNew(component, &unit) == noErr)
        let au = unit!
        defer { AudioComponentInstanceDispose(au) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                                 mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(au, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, asbdSize) == noErr)
        #expect(AudioUnitSetProperty(au, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, asbdSize) == noErr)
        let state = SineState(frequency: 441, sampleRate: 44100)
        var callback = AURenderCallbackStruct(inputProc: sineRenderCallback,
                                              inputProcRefCon: Unmanaged.passUnretained(state).toOpaque())
        #expect(AudioUnitSetProperty(au, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                                     &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        var maxFrames: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        #expect(AudioUnitGetProperty(au, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, &size) == noErr)
        #expect(maxFrames >= 512)
        try #require(AudioUnitInitialize(au) == noErr)
        defer { AudioUnitUninitialize(au) }

        let frames: UInt32 = 512
        let buffers = AudioBufferList.allocate(maximumBuffers: 2)
        defer { buffers.unsafeMutablePointer.deallocate() }
        var left = [Float](repeating: 0, count: Int(frames))
        var right = [Float](repeating: 0, count: Int(frames))
        var flags = AudioUnitRenderActionFlags()
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                buffers[0] = AudioBuffer(l, numberOfChannels: 1)
                buffers[1] = AudioBuffer(r, numberOfChannels: 1)
                #expect(AudioUnitRender(au, &flags, &timeStamp, 0, frames, buffers.unsafeMutablePointer) == noErr)
            }
        }
        // Frame 25 of a 441 Hz sine at 44.1 kHz: sin(pi/2) = 1.
        #expect(abs(left[25] - 1) < 1e-4)
        #expect(abs(right[75] + 1) < 1e-4)
        #expect(abs(state.phase - 2 * .pi * 441 * 512 / 44100) < 1e-6)
    }

    /// MusicSequence built in code, measured, saved as SMF data and loaded again; a MusicPlayer's clock.
    @Test func musicSequenceAndPlayer() throws {
        var sequence: MusicSequence?
        try #require(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        var tempoTrack: MusicTrack?
        #expect(MusicSequenceGetTempoTrack(sequence!, &tempoTrack) == noErr)
        #expect(MusicTrackNewExtendedTempoEvent(tempoTrack!, 0, 120) == noErr)
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence!, &track) == noErr)
        for (i, note) in [60, 64, 67, 72].enumerated() {
            var message = MIDINoteMessage(channel: 0, note: UInt8(note), velocity: 100, releaseVelocity: 0, duration: 1)
            #expect(MusicTrackNewMIDINoteEvent(track!, MusicTimeStamp(i), &message) == noErr)
        }
        var length: MusicTimeStamp = 0
        var size = UInt32(MemoryLayout<MusicTimeStamp>.size)
        #expect(MusicTrackGetProperty(track!, kSequenceTrackProperty_TrackLength, &length, &size) == noErr)
        #expect(length == 4)
        var seconds: Float64 = 0
        #expect(MusicSequenceGetSecondsForBeats(sequence!, 4, &seconds) == noErr)
        #expect(abs(seconds - 2) < 1e-9)
        var beats: MusicTimeStamp = 0
        #expect(MusicSequenceGetBeatsForSeconds(sequence!, 1, &beats) == noErr)
        #expect(abs(beats - 2) < 1e-9)

        // Iterate the notes.
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(track!, &iterator) == noErr)
        var hasEvent: DarwinBoolean = false
        var notes: [UInt8] = []
        MusicEventIteratorHasCurrentEvent(iterator!, &hasEvent)
        while hasEvent.boolValue {
            var time: MusicTimeStamp = 0
            var type: MusicEventType = 0
            var data: UnsafeRawPointer?
            var dataSize: UInt32 = 0
            MusicEventIteratorGetEventInfo(iterator!, &time, &type, &data, &dataSize)
            if type == kMusicEventType_MIDINoteMessage {
                notes.append(data!.assumingMemoryBound(to: MIDINoteMessage.self).pointee.note)
            }
            MusicEventIteratorNextEvent(iterator!)
            MusicEventIteratorHasCurrentEvent(iterator!, &hasEvent)
        }
        DisposeMusicEventIterator(iterator!)
        #expect(notes == [60, 64, 67, 72])

        // SMF round trip.
        var data: Unmanaged<CFData>?
        #expect(MusicSequenceFileCreateData(sequence!, .midiType, .eraseFile, 480, &data) == noErr)
        let smf = data!.takeRetainedValue() as Data
        #expect(smf.prefix(4) == Data("MThd".utf8))
        var loaded: MusicSequence?
        NewMusicSequence(&loaded)
        defer { DisposeMusicSequence(loaded!) }
        #expect(MusicSequenceFileLoadData(loaded!, smf as CFData, .midiType, MusicSequenceLoadFlags()) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(loaded!, &count) == noErr)
        #expect(count == 1)

        // A player's position without an output: set, read back.
        var player: MusicPlayer?
        try #require(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player!) }
        #expect(MusicPlayerSetSequence(player!, sequence) == noErr)
        #expect(MusicPlayerSetTime(player!, 2.5) == noErr)
        var now: MusicTimeStamp = 0
        #expect(MusicPlayerGetTime(player!, &now) == noErr)
        #expect(now == 2.5)
        var playing: DarwinBoolean = true
        #expect(MusicPlayerIsPlaying(player!, &playing) == noErr)
        #expect(!playing.boolValue)
        #expect(MusicPlayerSetPlayRateScalar(player!, 2) == noErr)
        var rate: Float64 = 0
        #expect(MusicPlayerGetPlayRateScalar(player!, &rate) == noErr)
        #expect(rate == 2)
    }
}
