import AudioToolbox
import Foundation
import Testing

/// Standard MIDI File reading and writing (MusicSequenceFileLoadData / FileCreateData), against bytes
/// built here by the SMF specification and against mido, an independent reader and writer.
@Suite struct StandardMIDIFileTests {
    typealias S = SequenceSupport

    /// A format-1 file at 96 PPQ: a conductor track (tempo 100 BPM, 3/4, a tempo change to 150 BPM at
    /// tick 192, key signature, text), then a track with running status, a note-on of velocity 0 as a
    /// note-off, a note-off with release velocity, a program change, a controller, SysEx in the F0 and F7
    /// forms, and a text event.
    static func sampleFile() -> [UInt8] {
        let conductor: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x09, 0x27, 0xC0]  // 600 000 µs: 100 BPM
            + [0x00, 0xFF, 0x58, 0x04, 0x03, 0x02, 0x18, 0x08]                  // 3/4
            + [0x00, 0xFF, 0x59, 0x02, 0x01, 0x00]                              // G major
            + [0x00, 0xFF, 0x03, 0x04] + Array("Song".utf8)
            + S.vlq(192) + [0xFF, 0x51, 0x03, 0x06, 0x1A, 0x80]                 // 400 000 µs: 150 BPM
            + [0x00, 0xFF, 0x2F, 0x00]
        let track: [UInt8] = [0x00, 0xC1, 0x05]                                  // program 5 on channel 1
            + [0x00, 0x91, 60, 100]                                              // note on C4
            + [0x00, 64, 90]                                                     // running status: E4
            + S.vlq(48) + [0xB1, 7, 80]                                          // volume
            + S.vlq(48) + [0x91, 60, 0]                                          // C4 off by velocity 0 (tick 96)
            + S.vlq(96) + [0x81, 64, 33]                                         // E4 off, release 33 (tick 192)
            + [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7]                   // GM on
            + S.vlq(10) + [0xF7, 0x02, 0xF8, 0xFA]                               // escaped bytes
            + [0x00, 0xFF, 0x01, 0x02] + Array("hi".utf8)
            + S.vlq(86) + [0xFF, 0x2F, 0x00]
        return S.header(format: 1, tracks: 2, division: 96) + S.chunk(conductor) + S.chunk(track)
    }

    @Test func readsFormat1WithRunningStatusMetaAndSysEx() throws {
        let (status, seq) = S.load(Self.sampleFile())
        try #require(status == noErr)
        let sequence = try #require(seq)
        defer { DisposeMusicSequence(sequence) }
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence, &count)
        #expect(count == 1)  // the conductor track became the tempo track

        let tempo = S.events(try S.tempoTrack(sequence))
        let tempos = tempo.filter { $0.type == kMusicEventType_ExtendedTempo }
            .map { e in (e.time, e.bytes.withUnsafeBytes { $0.loadUnaligned(as: ExtendedTempoEvent.self).bpm }) }
        #expect(tempos.count == 2)
        #expect(tempos[0].0 == 0 && abs(tempos[0].1 - 100) < 1e-9)
        #expect(tempos[1].0 == 2 && abs(tempos[1].1 - 150) < 1e-9)
        let metas = tempo.filter { $0.type == kMusicEventType_Meta }.map { $0.bytes[0] }
        #expect(metas.sorted() == [0x03, 0x58, 0x59])
        var resolution: Int16 = 0
        var size = UInt32(2)
        MusicTrackGetProperty(try S.tempoTrack(sequence), kSequenceTrackProperty_TimeResolution, &resolution, &size)
        #expect(resolution == 96)

        let events = S.events(try S.track(sequence, 0))
        let notes = events.compactMap { e in e.note.map { (e.time, $0) } }
        #expect(notes.count == 2)
        #expect(notes[0].0 == 0 && notes[0].1.note == 60 && notes[0].1.velocity == 100 && notes[0].1.duration == 1 && notes[0].1.channel == 1)
        #expect(notes[1].0 == 0 && notes[1].1.note == 64 && notes[1].1.velocity == 90 && notes[1].1.duration == 2)
        #expect(notes[1].1.releaseVelocity == 33 && notes[0].1.releaseVelocity == 0)
        let channel = events.filter { $0.type == kMusicEventType_MIDIChannelMessage }.map { ($0.time, Array($0.bytes.prefix(3))) }
        #expect(channel.count == 2)
        #expect(channel[0].0 == 0 && channel[0].1 == [0xC1, 5, 0])
        #expect(channel[1].0 == 0.5 && channel[1].1 == [0xB1, 7, 80])
        let raw = events.filter { $0.type == kMusicEventType_MIDIRawData }
        #expect(raw.count == 2)
        #expect(raw.first.map { Array($0.bytes.dropFirst(4)) } == [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])
        #expect(raw.last.map { Array($0.bytes.dropFirst(4)) } == [0xF8, 0xFA])
        #expect(raw.last.map { abs($0.time - 202.0 / 96) < 1e-12 } == true)
        let text = events.first { $0.type == kMusicEventType_Meta }
        #expect(text.map { [$0.bytes[0]] + $0.bytes.dropFirst(8) } == [0x01] + Array("hi".utf8))

        // The tempo map: 2 beats at 100 BPM (1.2 s), then 150 BPM.
        var seconds = 0.0
        MusicSequenceGetSecondsForBeats(sequence, 3, &seconds)
        #expect(abs(seconds - (1.2 + 0.4)) < 1e-12)
        var beats = 0.0
        MusicSequenceGetBeatsForSeconds(sequence, 1.6, &beats)
        #expect(abs(beats - 3) < 1e-12)
        // Bars in 3/4: beat 3.5 is bar 2, beat 1, half a beat.
        var bbt = CABarBeatTime()
        MusicSequenceBeatsToBarBeatTime(sequence, 3.5, 480, &bbt)
        #expect(bbt.bar == 2 && bbt.beat == 1 && bbt.subbeat == 240 && bbt.subbeatDivisor == 480)
        var back = 0.0
        MusicSequenceBarBeatTimeToBeats(sequence, &bbt, &back)
        #expect(back == 3.5)
        let info = MusicSequenceGetInfoDictionary(sequence) as NSDictionary
        #expect(info[kAFInfoDictionary_TimeSignature] as? String == "3/4")
        #expect(info[kAFInfoDictionary_Title] as? String == "Song")
    }

    @Test func format0SplitsChannelsOnlyWhenAsked() throws {
        let body: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0x92, 62, 100, 0x00, 0xF0, 0x02, 0x01, 0xF7, 0x00, 0xFF, 0x01, 0x01, 0x41]
            + S.vlq(96) + [0x80, 60, 0, 0x00, 0x82, 62, 0, 0x00, 0xFF, 0x2F, 0x00]
        let file = S.header(format: 0, tracks: 1, division: 96) + S.chunk(body)
        let (s1, whole) = S.load(file)
        #expect(s1 == noErr)
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(whole!, &count)
        #expect(count == 1)
        #expect(S.events(try S.track(whole!, 0)).count == 4)
        DisposeMusicSequence(whole!)

        let (s2, split) = S.load(file, flags: .smf_ChannelsToTracks)
        #expect(s2 == noErr)
        MusicSequenceGetTrackCount(split!, &count)
        #expect(count == 3)  // channel 0, channel 2, then SysEx and meta events
        #expect(S.events(try S.track(split!, 0)).compactMap { $0.note?.channel } == [0])
        #expect(S.events(try S.track(split!, 1)).compactMap { $0.note?.channel } == [2])
        #expect(S.events(try S.track(split!, 2)).map(\.type) == [kMusicEventType_MIDIRawData, kMusicEventType_Meta])
        DisposeMusicSequence(split!)
    }

    @Test func smpteDivisionGivesASecondsSequence() throws {
        // 25 fps, 40 ticks per frame: a tick is a millisecond.
        let body: [UInt8] = [0x00, 0x90, 60, 100] + S.vlq(500) + [0x80, 60, 0] + S.vlq(250) + [0x90, 62, 1, 0x00, 0x80, 62, 0, 0x00, 0xFF, 0x2F, 0x00]
        let (status, seq) = S.load(S.header(format: 0, tracks: 1, division: 0xE728) + S.chunk(body))
        try #require(status == noErr)
        defer { DisposeMusicSequence(seq!) }
        var type = MusicSequenceType.beats
        MusicSequenceGetSequenceType(seq!, &type)
        #expect(type == .seconds)
        let notes = S.events(try S.track(seq!, 0)).compactMap { e in e.note.map { (e.time, $0.duration) } }
        #expect(notes.count == 2 && notes[0] == (0, 0.5) && abs(notes[1].0 - 0.75) < 1e-12)
        var seconds = 0.0
        MusicSequenceGetSecondsForBeats(seq!, 0.75, &seconds)
        #expect(abs(seconds - 0.75) < 1e-12)
        // Written back with the file's SMPTE division, it reads the same.
        let written = try S.fileData(seq!)
        #expect(Array(written[12..<14]) == [0xE7, 0x28])
        let (again, seq2) = S.load(written)
        #expect(again == noErr)
        #expect(S.events(try S.track(seq2!, 0)).compactMap { $0.note?.duration } == [0.5, 0])
        DisposeMusicSequence(seq2!)
    }

    @Test func hostileFilesAnswerInvalidFile() {
        let good = Self.sampleFile()
        var cases: [(String, [UInt8])] = [
            ("empty", []),
            ("not MIDI", Array("RIFF....WAVEfmt ".utf8)),
            ("header cut", Array(good.prefix(10))),
            ("header length absurd", Array("MThd".utf8) + [0xFF, 0xFF, 0xFF, 0xF0, 0, 1, 0, 1, 0, 96]),
            ("track cut", Array(good.prefix(good.count - 5))),
            ("track length absurd", S.header(format: 0, tracks: 1, division: 96) + Array("MTrk".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0x00]),
            ("missing tracks", S.header(format: 1, tracks: 3, division: 96) + S.chunk([0x00, 0xFF, 0x2F, 0x00])),
            ("unterminated delta", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x80, 0x80, 0x80])),
            ("five-byte delta", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x81, 0x81, 0x81, 0x81, 0x01, 0x90, 60, 1])),
            ("running status without status", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 60, 100])),
            ("note cut", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0x90, 60])),
            ("SysEx longer than the track", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0xF0, 0x8F, 0xFF, 0xFF, 0x7F, 0x01])),
            ("unterminated SysEx length", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0xF0, 0x81, 0x81])),
            ("meta longer than the track", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0xFF, 0x01, 0x7F, 0x41])),
            ("bad tempo length", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0xFF, 0x51, 0x02, 0x01, 0x02])),
            ("zero division", S.header(format: 0, tracks: 1, division: 0) + S.chunk([0x00, 0xFF, 0x2F, 0x00])),
            ("bad SMPTE rate", S.header(format: 0, tracks: 1, division: 0xE028) + S.chunk([0x00, 0xFF, 0x2F, 0x00])),
            ("system message in a track", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0xF2, 0x01, 0x01])),
            ("data byte out of range", S.header(format: 0, tracks: 1, division: 96) + S.chunk([0x00, 0x90, 60, 0x80])),
        ]
        // Many tracks claimed, few bytes: no allocation per claimed track.
        cases.append(("65535 tracks claimed", S.header(format: 1, tracks: 0xFFFF, division: 96)))
        for (name, bytes) in cases {
            let (status, seq) = S.load(bytes)
            #expect(status == kAudioFileInvalidFileError, "\(name): \(status)")
            var count: UInt32 = 99
            MusicSequenceGetTrackCount(seq!, &count)
            #expect(count == 0, "\(name): a failed load must leave the sequence unchanged")
            DisposeMusicSequence(seq!)
        }
        // A wrong type hint.
        let (status, seq) = { () -> (OSStatus, MusicSequence?) in
            var s: MusicSequence?
            NewMusicSequence(&s)
            return (MusicSequenceFileLoadData(s!, Data(good) as CFData, .iMelodyType, []), s)
        }()
        #expect(status == kAudioFileUnsupportedFileTypeError)
        DisposeMusicSequence(seq!)
    }

    @Test func mutatedFilesNeverCrash() {
        // Deterministic mutations of a valid file: every outcome is noErr or kAudioFileInvalidFileError.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let good = Self.sampleFile()
        for _ in 0..<2000 {
            var bytes = good
            for _ in 0..<(1 + Int(next() % 4)) {
                let i = Int(next() % UInt64(bytes.count))
                switch next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: next())
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + Int(next() % 8)))
                default: bytes.insert(UInt8(truncatingIfNeeded: next()), at: i)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            let (status, seq) = S.load(bytes)
            #expect(status == noErr || status == kAudioFileInvalidFileError)
            DisposeMusicSequence(seq!)
        }
    }

    @Test func readsWhatMidoWrites() throws {
        let url = FileSupport.tempURL("mid")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try S.python("""
        import sys, mido
        f = mido.MidiFile(type=1, ticks_per_beat=384)
        t0 = mido.MidiTrack(); f.tracks.append(t0)
        t0.append(mido.MetaMessage('set_tempo', tempo=mido.bpm2tempo(90), time=0))
        t0.append(mido.MetaMessage('time_signature', numerator=6, denominator=8, time=0))
        t0.append(mido.MetaMessage('set_tempo', tempo=mido.bpm2tempo(135), time=768))
        t1 = mido.MidiTrack(); f.tracks.append(t1)
        t1.append(mido.Message('note_on', channel=3, note=70, velocity=64, time=96))
        t1.append(mido.Message('pitchwheel', channel=3, pitch=1000, time=96))
        t1.append(mido.Message('note_off', channel=3, note=70, velocity=12, time=192))
        t1.append(mido.Message('note_on', channel=3, note=72, velocity=80, time=0))
        t1.append(mido.Message('note_on', channel=3, note=72, velocity=0, time=384))
        f.save(sys.argv[1])
        """, [url.path])
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        try #require(MusicSequenceFileLoad(sequence, url as CFURL, .anyType, []) == noErr)
        let notes = S.events(try S.track(sequence, 0)).compactMap { e in e.note.map { (e.time, $0) } }
        #expect(notes.count == 2)
        #expect(notes[0].0 == 0.25 && notes[0].1.note == 70 && notes[0].1.duration == 0.75 && notes[0].1.releaseVelocity == 12)
        #expect(notes[1].0 == 1.0 && notes[1].1.note == 72 && notes[1].1.duration == 1)
        let bend = S.events(try S.track(sequence, 0)).first { $0.type == kMusicEventType_MIDIChannelMessage }
        // mido's pitch is signed around 8192: 9192 = 0x23E8 -> LSB 0x68, MSB 0x47.
        #expect(bend.map { Array($0.bytes.prefix(3)) } == [0xE3, 0x68, 0x47])
        var seconds = 0.0
        MusicSequenceGetSecondsForBeats(sequence, 3, &seconds)
        #expect(abs(seconds - (2 * 60.0 / 90 + 60.0 / 135)) < 1e-6)  // mido stores whole microseconds
        var bbt = CABarBeatTime()
        MusicSequenceBeatsToBarBeatTime(sequence, 3.5, 4, &bbt)
        #expect(bbt.bar == 2 && bbt.beat == 2 && bbt.subbeat == 0)  // 6/8: a bar is 3 quarters, a beat an eighth
    }

    @Test func midoReadsWhatWeWrite() throws {
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        let tempo = try S.tempoTrack(sequence)
        MusicTrackNewExtendedTempoEvent(tempo, 0, 100)
        MusicTrackNewExtendedTempoEvent(tempo, 4, 75)
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 60, 1.5, channel: 2, velocity: 101, release: 7)
        S.addNote(track!, 1, 64, 0.25, channel: 2, velocity: 90)
        S.addNote(track!, 4.5, 67, 1, channel: 9, velocity: 50)
        var cc = MIDIChannelMessage(status: 0xB2, data1: 10, data2: 20, reserved: 0)
        MusicTrackNewMIDIChannelEvent(track!, 2, &cc)
        let url = FileSupport.tempURL("mid")
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(MusicSequenceFileCreate(sequence, url as CFURL, .midiType, [], 960) == noErr)
        // An existing file is only replaced with EraseFile.
        #expect(MusicSequenceFileCreate(sequence, url as CFURL, .midiType, [], 960) == kAudio_FilePermissionError)
        #expect(MusicSequenceFileCreate(sequence, url as CFURL, .midiType, .eraseFile, 960) == noErr)
        let out = try S.python("""
        import sys, mido
        f = mido.MidiFile(sys.argv[1])
        print('type', f.type, 'tpb', f.ticks_per_beat)
        for i, t in enumerate(f.tracks):
            now = 0
            for m in t:
                now += m.time
                if m.type == 'set_tempo': print('tempo', now, m.tempo)
                elif m.type in ('note_on', 'note_off'): print(m.type, now, m.channel, m.note, m.velocity)
                elif m.type == 'control_change': print('cc', now, m.channel, m.control, m.value)
        """, [url.path])
        let expected = """
        type 1 tpb 960
        tempo 0 600000
        tempo 3840 800000
        note_on 0 2 60 101
        note_on 960 2 64 90
        note_off 1200 2 64 0
        note_off 1440 2 60 7
        cc 1920 2 10 20
        note_on 4320 9 67 50
        note_off 5280 9 67 0
        """
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    }

    @Test func roundTripIsIdentical() throws {
        let (status, seq) = S.load(Self.sampleFile())
        try #require(status == noErr)
        let first = try S.fileData(seq!)
        #expect(Array(first[12..<14]) == [0, 96])  // resolution 0: the file's own (96)
        let (status2, seq2) = S.load(first)
        try #require(status2 == noErr)
        let second = try S.fileData(seq2!)
        #expect(first == second)
        #expect(S.events(try S.track(seq!, 0)) == S.events(try S.track(seq2!, 0)))
        #expect(S.events(try S.tempoTrack(seq!)) == S.events(try S.tempoTrack(seq2!)))
        // Another resolution keeps the beat times.
        let (status3, seq3) = S.load(try S.fileData(seq!, resolution: 480))
        try #require(status3 == noErr)
        #expect(S.events(try S.track(seq3!, 0)) == S.events(try S.track(seq!, 0)))
        for s in [seq!, seq2!, seq3!] { DisposeMusicSequence(s) }
    }

    @Test func samplesSequenceCannotBeWritten() throws {
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        #expect(MusicSequenceSetSequenceType(sequence, .samples) == noErr)
        var data: Unmanaged<CFData>?
        #expect(MusicSequenceFileCreateData(sequence, .midiType, [], 0, &data) == kAudioToolboxErr_InvalidSequenceType)
        // With a tempo event, only beats can be chosen.
        MusicSequenceSetSequenceType(sequence, .beats)
        MusicTrackNewExtendedTempoEvent(try S.tempoTrack(sequence), 0, 90)
        #expect(MusicSequenceSetSequenceType(sequence, .seconds) == kAudioToolboxErr_InvalidSequenceType)
    }
}

/// The MIDI seeds kept in the fuzz corpus (scripts/make-midi-seeds.py) load as intended; the corpus replay
/// tests (Tests/ToolsTests) also run them through exerciseMIDIFile.
@Suite struct MIDIFileSeedTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzTesting/Corpus/regressions")

    @Test(arguments: [("midi-mido-format1.mid", noErr), ("midi-format0-running-status.mid", noErr), ("midi-smpte.mid", noErr),
                      ("midi-track-length-huge.mid", kAudioFileInvalidFileError), ("midi-vlq-unterminated.mid", kAudioFileInvalidFileError)])
    func seedLoads(_ name: String, _ expected: OSStatus) throws {
        let data = try Data(contentsOf: Self.regressions.appendingPathComponent(name))
        let (status, seq) = SequenceSupport.load([UInt8](data))
        #expect(status == expected)
        DisposeMusicSequence(seq!)
    }

    @Test func format0SeedPairsNotesThroughRunningStatus() throws {
        let data = try Data(contentsOf: Self.regressions.appendingPathComponent("midi-format0-running-status.mid"))
        let (status, seq) = SequenceSupport.load([UInt8](data))
        try #require(status == noErr)
        defer { DisposeMusicSequence(seq!) }
        let events = SequenceSupport.events(try SequenceSupport.track(seq!, 0))
        let notes = events.compactMap { e in e.note.map { (e.time, $0.note, $0.duration, $0.releaseVelocity) } }
        #expect(notes.map(\.1) == [60, 64, 48])
        #expect(notes[0].0 == 0 && notes[0].2 == 1)              // off by velocity 0 at tick 96
        #expect(notes[1].2 == Float32(96 + 48 + 10 + 200) / 96)  // E4 (running status) ends at tick 354
        #expect(notes[2].2 == 0.5 && notes[2].3 == 0x20)
        let raw = events.filter { $0.type == kMusicEventType_MIDIRawData }.map { Array($0.bytes.dropFirst(4)) }
        #expect(raw == [[0xF0, 0x43, 0x12, 0x00], [0x01, 0xF7]])
    }
}
