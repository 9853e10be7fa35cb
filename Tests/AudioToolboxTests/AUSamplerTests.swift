import AudioToolbox
import Foundation
import Testing

/// AUSampler, DLSSynth and AUMIDISynth through the MusicDevice API, rendered offline: pitch, envelopes, sample
/// offsets, note instance IDs, group parameters, the unit's own parameters, instruments from banks, audio
/// files and .aupresets, and Apple's error codes. The General MIDI bank is Debian's TimGM6mb (required).
@Suite struct AUSamplerTests {
    static let timGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    static let rate = 44100.0

    static func description(_ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    static func sampler() throws -> AudioUnit { try TestSupport.newUnit(description(kAudioUnitSubType_Sampler)) }

    static func requireBank() throws {
        try #require(FileManager.default.fileExists(atPath: timGM), "timgm6mb-soundfont is required (scripts/setup.sh installs it)")
    }

    /// A MIDI message due at an absolute frame.
    struct Event { var frame: Int; var status: UInt8; var data1: UInt8; var data2: UInt8 }

    /// Renders `total` frames (left channel) in slices of `slice`, sending each event before the slice it falls in
    /// with its offset inside that slice, as a host scheduling from its render callback does.
    static func render(_ unit: AudioUnit, events: [Event], total: Int, slice: Int = 512, channel: Int = 0) throws -> [Double] {
        let format = TestSupport.format(unit, kAudioUnitScope_Output, 0)
        let channels = Int(format.mChannelsPerFrame)
        let abl = AudioBufferList.allocate(maximumBuffers: channels)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: slice * channels)
        defer { memory.deallocate() }
        var out: [Double] = []
        out.reserveCapacity(total)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        var done = 0
        while done < total {
            let frames = min(slice, total - done)
            for e in events where e.frame >= done && e.frame < done + frames {
                try #require(MusicDeviceMIDIEvent(unit, UInt32(e.status), UInt32(e.data1), UInt32(e.data2), UInt32(e.frame - done)) == noErr)
            }
            for c in 0..<channels {
                abl[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: memory + c * slice)
            }
            var flags = AudioUnitRenderActionFlags()
            try #require(AudioUnitRender(unit, &flags, &timeStamp, 0, UInt32(frames), abl.unsafeMutablePointer) == noErr)
            let p = abl[min(channel, channels - 1)].mData!.assumingMemoryBound(to: Float.self)
            for n in 0..<frames { out.append(Double(p[n])) }
            timeStamp.mSampleTime += Double(frames)
            done += frames
        }
        return out
    }

    static func rms(_ x: ArraySlice<Double>) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(max(x.count, 1))).squareRoot() }
    static func dB(_ x: Double) -> Double { 20 * log10(max(x, 1e-12)) }

    static func loadGM(_ unit: AudioUnit, program: UInt8, bankMSB: UInt8 = UInt8(kAUSampler_DefaultMelodicBankMSB)) -> OSStatus {
        let url = NSURL(fileURLWithPath: timGM)
        var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(url), instrumentType: UInt8(kInstrumentType_SF2Preset),
                                           bankMSB: bankMSB, bankLSB: UInt8(kAUSampler_DefaultBankLSB), presetID: program)
        return withExtendedLifetime(url) {
            AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data,
                                 UInt32(MemoryLayout<AUSamplerInstrumentData>.size))
        }
    }

    // MARK: The default instrument

    @Test func defaultInstrumentIsASineInTune() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        let x = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100),
                                               Event(frame: 22050, status: 0x90, data1: 81, data2: 100)], total: 44100)
        let a4 = ToneFit.frequency(x[4410..<22050], near: 440, span: 20, sampleRate: Self.rate)
        #expect(abs(a4 - 440) < 0.5, "note 69: \(a4) Hz")
        let a5 = ToneFit.frequency(x[26460..<44100], near: 880, span: 20, sampleRate: Self.rate)
        #expect(abs(a5 - 880) < 1, "note 81 (with 69 still sounding): \(a5) Hz")
    }

    // MARK: General MIDI banks

    @Test func pianoFromTheGMBankIsInTuneAndReleases() throws {
        try Self.requireBank()
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        #expect(Self.loadGM(unit, program: 0) == noErr)
        let off = 44100
        let x = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100),
                                               Event(frame: off, status: 0x80, data1: 69, data2: 0)], total: 44100 * 4)
        let f = ToneFit.frequency(x[2205..<22050], near: 440, span: 30, sampleRate: Self.rate)
        #expect(abs(f - 440) < 1, "piano A4 at \(f) Hz")
        let sounding = Self.rms(x[off - 4410..<off])
        #expect(sounding > 0.001)
        // Silent (-60 dB below the level at note-off) within two seconds of the release.
        let after = Self.rms(x[(off + 2 * 44100)..<(off + 2 * 44100 + 4410)])
        #expect(Self.dB(after / sounding) < -60, "level 2 s after note-off: \(Self.dB(after / sounding)) dB")
    }

    @Test func drumChannelPlaysTheKitOnTheGMSynth() throws {
        try Self.requireBank()
        let unit = try TestSupport.newUnit(Self.description(kAudioUnitSubType_DLSSynth))
        defer { AudioComponentInstanceDispose(unit) }
        var url: Unmanaged<CFURL>? = Unmanaged.passRetained(NSURL(fileURLWithPath: Self.timGM))
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &url,
                                     UInt32(MemoryLayout<CFURL?>.size)) == noErr)
        url?.release()
        try #require(AudioUnitInitialize(unit) == noErr)
        let drum = try Self.render(unit, events: [Event(frame: 0, status: 0x99, data1: 38, data2: 110)], total: 22050)
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        let melodic = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 38, data2: 110)], total: 22050)
        #expect(Self.rms(drum[0..<4410]) > 0.001, "the snare sounds")
        // A snare is noise, a piano's D2 a low tone: the snare's first difference is far larger relative to its level.
        func brightness(_ x: ArraySlice<Double>) -> Double {
            Self.rms(ArraySlice(zip(x.dropFirst(), x).map { $0 - $1 })) / Self.rms(x)
        }
        #expect(brightness(drum[0..<4410]) > 3 * brightness(melodic[0..<4410]),
                "snare \(brightness(drum[0..<4410])), piano \(brightness(melodic[0..<4410]))")
        var count: UInt32 = 0
        var size: UInt32 = 4
        #expect(AudioUnitGetProperty(unit, kMusicDeviceProperty_InstrumentCount, kAudioUnitScope_Global, 0, &count, &size) == noErr)
        #expect(count > 128, "TimGM6mb has the GM melodic set and drum kits: \(count)")
    }

    // MARK: MusicDevice timing and notes

    @Test func noteStartsAtItsSampleOffset() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        let x = try Self.render(unit, events: [Event(frame: 512 + 100, status: 0x90, data1: 69, data2: 127)], total: 2048)
        #expect(x[..<612].allSatisfy { $0 == 0 }, "nothing before the note's frame")
        #expect(x[612..<616].contains { $0 != 0 }, "sound from frame 612 (the attack starts from zero)")
    }

    @Test func startAndStopNoteUseInstanceIDs() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        var params = MusicDeviceNoteParams(argCount: 2, mPitch: 69, mVelocity: 100,
                                           mControls: NoteParamsControlValue(mID: 0, mValue: 0))
        var id: NoteInstanceID = 0
        #expect(MusicDeviceStartNote(unit, kMusicNoteEvent_Unused, 0, &id, 0, &params) == noErr)
        #expect(id != 0 && id != 0xFFFF_FFFF)
        let on = try Self.render(unit, events: [], total: 8192)
        #expect(Self.rms(on[4096...]) > 0.01)
        #expect(MusicDeviceStopNote(unit, 0, id, 0) == noErr)
        let off = try Self.render(unit, events: [], total: 44100)
        #expect(Self.rms(off[40000...]) < 1e-4, "released")
    }

    @Test func pitchBendThroughTheGroupScope() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        // Full bend up with the default range of 2 semitones: A4 -> B4.
        #expect(AudioUnitSetParameter(unit, AudioUnitParameterID(kAUGroupParameterID_PitchBend), kAudioUnitScope_Group, 0, 8191, 0) == noErr)
        let x = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100)], total: 22050)
        let expected = 440 * pow(2.0, 2.0 * 8191 / 8192 / 12)
        let f = ToneFit.frequency(x[4410...], near: expected, span: 20, sampleRate: Self.rate)
        #expect(abs(ToneFit.cents(f, expected)) < 2, "\(f) Hz, expected \(expected)")
        var value: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(unit, AudioUnitParameterID(kAUGroupParameterID_PitchBend), kAudioUnitScope_Group, 0, &value) == noErr)
        #expect(value == 8191)
    }

    @Test func gainAndTuningParameters() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        let note = [Event(frame: 0, status: 0x90, data1: 69, data2: 100)]
        let plain = try Self.render(unit, events: note, total: 22050)
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        #expect(AudioUnitSetParameter(unit, kAUSamplerParam_Gain, kAudioUnitScope_Global, 0, -6, 0) == noErr)
        #expect(AudioUnitSetParameter(unit, kAUSamplerParam_CoarseTuning, kAudioUnitScope_Global, 0, 12, 0) == noErr)
        #expect(AudioUnitSetParameter(unit, kAUSamplerParam_FineTuning, kAudioUnitScope_Global, 0, -50, 0) == noErr)
        let changed = try Self.render(unit, events: note, total: 22050)
        let ratio = Self.dB(Self.rms(changed[4410...]) / Self.rms(plain[4410...]))
        #expect(abs(ratio + 6) < 0.1, "gain -6 dB gave \(ratio) dB")
        let expected = 880 * pow(2, -50.0 / 1200)
        let f = ToneFit.frequency(changed[4410...], near: expected, span: 20, sampleRate: Self.rate)
        #expect(abs(ToneFit.cents(f, expected)) < 2, "tuning +1150 cents: \(f) Hz")
    }

    // MARK: Instruments from files

    @Test func audioFileBecomesTheInstrument() throws {
        // A 220 Hz tone: with its root at middle C (60), key 72 plays it an octave up.
        let samples = (0..<44100).map { Int16(32767 * 0.5 * sin(2 * Double.pi * 220 * Double($0) / 44100)) }
        let file = try TestSupport.writeWAV(samples, channels: 1, sampleRate: 44100, name: "sampler-zone")
        defer { try? FileManager.default.removeItem(at: file) }
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        var array: CFArray? = [file as NSURL] as NSArray
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &array,
                                     UInt32(MemoryLayout<CFArray?>.size)) == noErr)
        let x = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 72, data2: 127)], total: 22050)
        let f = ToneFit.frequency(x[2205...], near: 440, span: 20, sampleRate: Self.rate)
        #expect(abs(f - 440) < 1, "\(f) Hz")
    }

    @Test func aupresetZonesLoadThroughClassInfo() throws {
        // The book's chapter 12: an .aupreset names a recorded sample and its root key; setting it as ClassInfo loads it.
        let samples = (0..<44100).map { Int16(32767 * 0.5 * sin(2 * Double.pi * 261.6256 * Double($0) / 44100)) }
        let file = try TestSupport.writeWAV(samples, channels: 1, sampleRate: 44100, name: "sampler-preset-c4")
        defer { try? FileManager.default.removeItem(at: file) }
        let preset: NSDictionary = [
            "AU version": 1, "type": Int(kAudioUnitType_MusicDevice), "subtype": Int(kAudioUnitSubType_Sampler),
            "manufacturer": Int(kAudioUnitManufacturer_Apple), "version": 0, "name": "ch12",
            "Instrument": ["name": "ch12", "Layers": [["Zones": [["ID": 1, "root key": 60, "waveform": 268435457,
                                                                  "min key": 36, "max key": 84]]]]],
            "file-references": ["Sample:268435457": file.path],
        ]
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        var plist: CFPropertyList? = preset
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &plist,
                                     UInt32(MemoryLayout<CFPropertyList?>.size)) == noErr)
        let x = try Self.render(unit, events: [Event(frame: 0, status: 0x90, data1: 67, data2: 127),
                                               Event(frame: 22050, status: 0x90, data1: 90, data2: 127)], total: 44100)
        let g4 = 261.6256 * pow(2, 7.0 / 12)
        let f = ToneFit.frequency(x[2205..<22050], near: g4, span: 20, sampleRate: Self.rate)
        #expect(abs(ToneFit.cents(f, g4)) < 2, "key 67 from the C4 sample: \(f) Hz")
        #expect(Self.rms(x[22050...]) > 0.5 * Self.rms(x[11025..<22050]), "key 90 lies outside the zone: the G4 note keeps sounding alone")
    }

    // MARK: Errors

    @Test func errorsAreApples() throws {
        try Self.requireBank()
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        // Not an instrument: the MusicDevice selectors are missing.
        let delay = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                                      componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(delay) }
        #expect(MusicDeviceMIDIEvent(delay, 0x90, 60, 100, 0) == OSStatus(badComponentSelector))
        // A missing bank, a file that is not a bank, a preset the bank lacks.
        func load(_ path: String, program: UInt8 = 0) -> OSStatus {
            let url = NSURL(fileURLWithPath: path)
            var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(url), instrumentType: UInt8(kInstrumentType_SF2Preset),
                                               bankMSB: 0x79, bankLSB: 0, presetID: program)
            return withExtendedLifetime(url) {
                AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data,
                                     UInt32(MemoryLayout<AUSamplerInstrumentData>.size))
            }
        }
        #expect(load("/nonexistent/bank.sf2") == -43)
        #expect(load("/etc/hostname") == kAudioUnitErr_InvalidFile)
        #expect(Self.loadGM(unit, program: 0, bankMSB: 0x79 - 50) == kAudioUnitErr_InvalidPropertyValue)
    }

    @Test func midi2EventListPlaysANote() throws {
        let unit = try Self.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        var list = MIDIEventList()
        let packet = MIDIEventListInit(&list, ._2_0)
        var words: [UInt32] = [0x4090_4500, 0xC000_0000]  // group 0, channel 0, note 69, velocity 0xC000
        _ = MIDIEventListAdd(&list, MemoryLayout<MIDIEventList>.size, packet, 300, 2, &words)
        #expect(MusicDeviceMIDIEventList(unit, 0, &list) == noErr)
        let x = try Self.render(unit, events: [], total: 8192)
        #expect(x[..<300].allSatisfy { $0 == 0 } && x[300..<304].contains { $0 != 0 }, "the packet's time stamp is its frame offset")
        let f = ToneFit.frequency(x[2048...], near: 440, span: 20, sampleRate: Self.rate)
        #expect(abs(f - 440) < 1)
    }
}
