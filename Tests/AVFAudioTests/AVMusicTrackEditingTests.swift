import AVFoundation
import Foundation
import Testing

/// AVMusicTrack's editing API (macOS 13) and the AVMusicEvent classes: events added read back through
/// enumerateEvents with their times and values, edits give the expected event lists, a note added through the API
/// plays from its frame, and a written file read by mido holds the events.
@Suite struct AVMusicTrackEditingTests {
    /// (time, description) of every event of a track, for comparing lists.
    static func list(_ track: AVMusicTrack) -> [(AVMusicTimeStamp, String)] {
        var out: [(AVMusicTimeStamp, String)] = []
        track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { event, time, _ in
            switch event {
            case let n as AVMIDINoteEvent: out.append((time.pointee, "note \(n.channel) \(n.key) \(n.velocity) \(n.duration)"))
            case let c as AVMIDIControlChangeEvent: out.append((time.pointee, "cc \(c.channel) \(c.messageType.rawValue) \(c.value)"))
            default: out.append((time.pointee, String(describing: type(of: event))))
            }
        }
        return out
    }

    static func notes(_ keys: [(AVMusicTimeStamp, UInt32)], on track: AVMusicTrack) {
        for (beat, key) in keys { track.addEvent(AVMIDINoteEvent(channel: 0, key: key, velocity: 100, duration: 0.5), at: beat) }
    }

    static func keys(_ track: AVMusicTrack) -> [String] {
        list(track).map { t, d in "\(t):\(d.split(separator: " ")[2])" }
    }

    @Test func everyEventTypeReadsBack() throws {
        let sequencer = AVAudioSequencer()
        let track = sequencer.createAndAppendTrack()
        track.addEvent(AVMIDINoteEvent(channel: 3, key: 64, velocity: 90, duration: 1.25), at: 0.5)
        track.addEvent(AVMIDIControlChangeEvent(channel: 2, messageType: .pan, value: 20), at: 1)
        track.addEvent(AVMIDIPolyPressureEvent(channel: 1, key: 60, pressure: 33), at: 1.5)
        track.addEvent(AVMIDIProgramChangeEvent(channel: 9, programNumber: 41), at: 2)
        track.addEvent(AVMIDIChannelPressureEvent(channel: 4, pressure: 77), at: 2.25)
        track.addEvent(AVMIDIPitchBendEvent(channel: 5, value: 12_345), at: 2.5)
        track.addEvent(AVMIDISysexEvent(data: Data([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])), at: 3)
        track.addEvent(AVMIDIMetaEvent(type: .marker, data: Data("verse".utf8)), at: 3.5)
        track.addEvent(AVMusicUserEvent(data: Data([1, 2, 3, 4, 5])), at: 4)
        track.addEvent(AVExtendedNoteOnEvent(midiNote: 60.5, velocity: 99.25, groupID: 7, duration: 2), at: 4.5)
        track.addEvent(AVAUPresetEvent(scope: 0, element: 0, dictionary: ["name": "p", "version": 0]), at: 5)
        track.addEvent(AVMusicEvent(), at: 5.5)  // no content: nothing is added
        sequencer.tempoTrack.addEvent(AVExtendedTempoEvent(tempo: 96.5), at: 6)
        let automation = sequencer.createAndAppendTrack()
        automation.usesAutomatedParameters = true
        #expect(automation.usesAutomatedParameters)
        automation.addEvent(AVParameterEvent(parameterID: 2, scope: 0, element: 1, value: 0.75), at: 0.25)

        var seen: [(AVMusicTimeStamp, AVMusicEvent)] = []
        track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { e, t, _ in seen.append((t.pointee, e)) }
        #expect(seen.map(\.0) == [0.5, 1, 1.5, 2, 2.25, 2.5, 3, 3.5, 4, 4.5, 5])
        try #require(seen.count == 11)
        let note = try #require(seen[0].1 as? AVMIDINoteEvent)
        #expect(note.channel == 3 && note.key == 64 && note.velocity == 90 && note.duration == 1.25)
        let cc = try #require(seen[1].1 as? AVMIDIControlChangeEvent)
        #expect(cc.channel == 2 && cc.messageType == .pan && cc.value == 20)
        let poly = try #require(seen[2].1 as? AVMIDIPolyPressureEvent)
        #expect(poly.channel == 1 && poly.key == 60 && poly.pressure == 33)
        let program = try #require(seen[3].1 as? AVMIDIProgramChangeEvent)
        #expect(program.channel == 9 && program.programNumber == 41)
        let pressure = try #require(seen[4].1 as? AVMIDIChannelPressureEvent)
        #expect(pressure.channel == 4 && pressure.pressure == 77)
        let bend = try #require(seen[5].1 as? AVMIDIPitchBendEvent)
        #expect(bend.channel == 5 && bend.value == 12_345)
        let sysex = try #require(seen[6].1 as? AVMIDISysexEvent)
        #expect(sysex.sizeInBytes == 6)
        let meta = try #require(seen[7].1 as? AVMIDIMetaEvent)
        #expect(meta.type == .marker)
        let user = try #require(seen[8].1 as? AVMusicUserEvent)
        #expect(user.sizeInBytes == 5)
        let ext = try #require(seen[9].1 as? AVExtendedNoteOnEvent)
        #expect(ext.midiNote == 60.5 && ext.velocity == 99.25 && ext.groupID == 7 && ext.duration == 2)
        #expect(ext.instrumentID == AVExtendedNoteOnEvent.defaultInstrument)
        let preset = try #require(seen[10].1 as? AVAUPresetEvent)
        #expect(preset.presetDictionary["name"] as? String == "p")

        var tempo: [(AVMusicTimeStamp, Double)] = []
        sequencer.tempoTrack.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { e, t, _ in
            if let e = e as? AVExtendedTempoEvent { tempo.append((t.pointee, e.tempo)) }
        }
        #expect(tempo.contains { $0.0 == 6 && $0.1 == 96.5 })
        var parameters: [(AVMusicTimeStamp, AVParameterEvent)] = []
        automation.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { e, t, _ in
            if let e = e as? AVParameterEvent { parameters.append((t.pointee, e)) }
        }
        try #require(parameters.count == 1)
        #expect(parameters[0].0 == 0.25 && parameters[0].1.parameterID == 2 && parameters[0].1.element == 1 && parameters[0].1.value == 0.75)
        // A range takes [start, start + length).
        var inRange: [AVMusicTimeStamp] = []
        track.enumerateEvents(in: AVMakeBeatRange(1, 1.5)) { _, t, _ in inRange.append(t.pointee) }
        #expect(inRange == [1, 1.5, 2, 2.25])
    }

    @Test func enumerationMovesRemovesAndChangesEvents() {
        let sequencer = AVAudioSequencer()
        let track = sequencer.createAndAppendTrack()
        Self.notes([(0, 60), (1, 62), (2, 64), (3, 65)], on: track)
        var calls = 0
        track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { event, time, remove in
            calls += 1
            guard let note = event as? AVMIDINoteEvent else { return }
            switch note.key {
            case 60: time.pointee = 5  // moved past the others: visited once only
            case 62: remove.pointee = true
            case 64: note.velocity = 30; note.duration = 0.25
            default: break
            }
        }
        #expect(calls == 4)
        let events = Self.list(track).map { "\($0.0) \($0.1)" }
        #expect(events == ["2.0 note 0 64 30 0.25", "3.0 note 0 65 100 0.5", "5.0 note 0 60 100 0.5"])
        #expect(track.lengthInBeats == 5.5)
    }

    @Test func moveClearCutCopyAndMerge() {
        let sequencer = AVAudioSequencer()
        let track = sequencer.createAndAppendTrack()
        Self.notes([(0, 60), (1, 62), (2, 64), (3, 65)], on: track)
        track.moveEvents(in: AVMakeBeatRange(1, 2), by: 0.5)  // 62 and 64
        #expect(Self.keys(track) == ["0.0:60", "1.5:62", "2.5:64", "3.0:65"])
        track.clearEvents(in: AVMakeBeatRange(1.5, 1.5))  // [1.5, 3): 62 and 64 go, 65 stays at 3
        #expect(Self.keys(track) == ["0.0:60", "3.0:65"])
        Self.notes([(1, 62), (2, 64)], on: track)
        track.cutEvents(in: AVMakeBeatRange(1, 1))  // 62 goes; later events move back a beat
        #expect(Self.keys(track) == ["0.0:60", "1.0:64", "2.0:65"])

        let other = sequencer.createAndAppendTrack()
        Self.notes([(0, 72), (1, 74)], on: other)
        other.copyEvents(in: AVMakeBeatRange(1, 1.5), from: track, insertAt: 1)  // 64 and 65 (to 2.5), other's 74 moves 1.5 later
        #expect(Self.keys(other) == ["0.0:72", "1.0:64", "2.0:65", "2.5:74"])
        other.copyAndMergeEvents(in: AVMakeBeatRange(0, 1), from: track, mergeAt: 0.5)
        #expect(Self.keys(other) == ["0.0:72", "0.5:60", "1.0:64", "2.0:65", "2.5:74"])
        #expect(Self.keys(track) == ["0.0:60", "1.0:64", "2.0:65"], "the source is unchanged")
        // A range the MusicTrack calls refuse (negative start, no length) changes nothing.
        track.clearEvents(in: AVMakeBeatRange(-1, 2))
        track.cutEvents(in: AVMakeBeatRange(0, 0))
        #expect(Self.keys(track).count == 3)
        track.clearEvents(in: AVMakeBeatRange(0.5, AVMusicTimeStampEndOfTrack))
        #expect(Self.keys(track) == ["0.0:60"])
    }

    @Test func addedNoteStartsAtItsTempoFrame() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()  // the default sine
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        let sequencer = AVAudioSequencer(audioEngine: engine)
        sequencer.tempoTrack.addEvent(AVExtendedTempoEvent(tempo: 100), at: 0)
        let track = sequencer.createAndAppendTrack()
        track.destinationAudioUnit = sampler
        track.addEvent(AVMIDINoteEvent(channel: 0, key: 81, velocity: 100, duration: 0.5), at: 1.5)
        #expect(abs(sequencer.seconds(forBeats: 1.5) - 0.9) < 1e-9)
        try engine.start()
        try sequencer.start()
        let (left, _) = try EngineOfflineTests.render(engine, frames: 60_000, slice: 441)
        // 100 BPM: beat 1.5 is 0.9 s, frame 39,690 at 44.1 kHz; the attack starts from zero, so sound within 4 frames.
        let onset = 39_690
        #expect(left[..<onset].allSatisfy { abs($0) < 1e-6 }, "silent before the note")
        #expect(left[onset..<(onset + 4)].contains { $0 != 0 }, "the note starts at frame \(onset)")
        #expect(abs(AVAudioUnitSamplerTests.pitch(left[(onset + 2_000)..<(onset + 6_000)]) - 880) < 2)
        sequencer.stop()
        engine.stop()
    }

    @Test func writtenFileHoldsTheAddedEvents() throws {
        let sequencer = AVAudioSequencer()
        sequencer.tempoTrack.addEvent(AVExtendedTempoEvent(tempo: 90), at: 0)
        let track = sequencer.createAndAppendTrack()
        track.addEvent(AVMIDIProgramChangeEvent(channel: 1, programNumber: 19), at: 0)
        track.addEvent(AVMIDINoteEvent(channel: 1, key: 67, velocity: 80, duration: 0.75), at: 1)
        track.addEvent(AVMIDIControlChangeEvent(channel: 1, messageType: .volume, value: 90), at: 2)
        track.addEvent(AVMIDIPitchBendEvent(channel: 1, value: 10_000), at: 2.5)
        track.addEvent(AVMIDIMetaEvent(type: .text, data: Data("hi".utf8)), at: 3)
        let url = AVFAudioTestSupport.temporaryURL("mid")
        defer { try? FileManager.default.removeItem(at: url) }
        try sequencer.write(to: url, smpteResolution: 480, replaceExisting: true)
        // mido (scripts/setup.sh installs it) reads the file independently: absolute ticks of each message.
        let script = """
        import sys, mido
        f = mido.MidiFile(sys.argv[1])
        print(f.ticks_per_beat)
        for i, t in enumerate(f.tracks):
            now = 0
            for m in t:
                now += m.time
                if m.type == 'set_tempo': print(i, now, 'tempo', round(mido.tempo2bpm(m.tempo), 3))
                elif m.type == 'note_on' and m.velocity > 0: print(i, now, 'on', m.channel, m.note, m.velocity)
                elif m.type in ('note_off', 'note_on'): print(i, now, 'off', m.channel, m.note)
                elif m.type == 'control_change': print(i, now, 'cc', m.channel, m.control, m.value)
                elif m.type == 'program_change': print(i, now, 'program', m.channel, m.program)
                elif m.type == 'pitchwheel': print(i, now, 'bend', m.channel, m.pitch + 8192)
                elif m.type == 'text': print(i, now, 'text', m.text)
        """
        let lines = try AVFAudioTestSupport.runTool("python3", ["-c", script, url.path]).split(separator: "\n").map(String.init)
        #expect(lines.first == "480")
        #expect(lines.contains("0 0 tempo 90.0"))
        for line in ["1 0 program 1 19", "1 480 on 1 67 80", "1 840 off 1 67", "1 960 cc 1 7 90", "1 1200 bend 1 10000", "1 1440 text hi"] {
            #expect(lines.contains(line), "\(line) in \(lines)")
        }
        // And read back by the sequencer, the events enumerate with their times.
        let again = AVAudioSequencer()
        try again.load(from: url, options: [])
        var notes: [(AVMusicTimeStamp, UInt32, AVMusicTimeStamp)] = []
        again.tracks[0].enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { e, t, _ in
            if let n = e as? AVMIDINoteEvent { notes.append((t.pointee, n.key, n.duration)) }
        }
        #expect(notes.count == 1 && notes.first?.0 == 1 && notes.first?.1 == 67 && notes.first?.2 == 0.75)
    }

    @Test func userEventsReachTheSequencersCallback() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        let sequencer = AVAudioSequencer(audioEngine: engine)
        let track = sequencer.createAndAppendTrack()
        track.addEvent(AVMusicUserEvent(data: Data([9, 8, 7])), at: 0.5)
        track.addEvent(AVMIDINoteEvent(channel: 0, key: 69, velocity: 100, duration: 0.25), at: 1)
        let got = DispatchSemaphore(value: 0)
        let log = TapLog()
        nonisolated(unsafe) var seen: (AVMusicTrack, AVMusicTimeStamp)?
        sequencer.setUserCallback { t, data, time in
            seen = (t, time)
            log.add(0, Array(data))
            got.signal()
        }
        try engine.start()
        try sequencer.start()
        _ = try EngineOfflineTests.render(engine, frames: 44_100, slice: 441)
        #expect(got.wait(timeout: .now() + 3) == .success, "the user callback was not called")
        #expect(log.events == [[0, 9, 8, 7]])
        #expect(seen?.0 === track && seen?.1 == 0.5)
        sequencer.stop()
        engine.stop()
    }

    /// Apple's track-type rules: the tempo track takes only tempo events and tempo, SMPTE offset and time signature meta
    /// events, which no other track takes; an automation track takes only parameter events; a parameter event makes an
    /// empty track an automation track, and a track holding other events cannot become one. A refused event is not added.
    @Test func eventsGoOnlyToTheTracksThatTakeThem() throws {
        let sequencer = AVAudioSequencer()
        func count(_ track: AVMusicTrack) -> Int {
            var n = 0
            track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { _, _, _ in n += 1 }
            return n
        }
        let tempo = sequencer.tempoTrack
        let before = count(tempo)
        tempo.addEvent(AVMIDINoteEvent(channel: 0, key: 60, velocity: 100, duration: 1), at: 1)
        tempo.addEvent(AVMIDIMetaEvent(type: .marker, data: Data("m".utf8)), at: 1)
        tempo.addEvent(AVParameterEvent(parameterID: 0, scope: 0, element: 0, value: 1), at: 1)
        #expect(count(tempo) == before)
        tempo.addEvent(AVExtendedTempoEvent(tempo: 100), at: 1)
        tempo.addEvent(AVMIDIMetaEvent(type: .timeSignature, data: Data([3, 2, 24, 8])), at: 2)
        #expect(count(tempo) == before + 2)

        let music = sequencer.createAndAppendTrack()
        music.addEvent(AVExtendedTempoEvent(tempo: 100), at: 0)
        music.addEvent(AVMIDIMetaEvent(type: .tempo, data: Data([0x07, 0xA1, 0x20])), at: 0)
        #expect(count(music) == 0)
        music.addEvent(AVMIDINoteEvent(channel: 0, key: 60, velocity: 100, duration: 1), at: 0)
        music.addEvent(AVParameterEvent(parameterID: 0, scope: 0, element: 0, value: 1), at: 1)
        #expect(count(music) == 1)
        music.usesAutomatedParameters = true
        #expect(!music.usesAutomatedParameters)

        let automation = sequencer.createAndAppendTrack()
        automation.addEvent(AVParameterEvent(parameterID: 0, scope: 0, element: 0, value: 1), at: 1)
        #expect(automation.usesAutomatedParameters)
        automation.addEvent(AVMIDINoteEvent(channel: 0, key: 60, velocity: 100, duration: 1), at: 2)
        automation.addEvent(AVParameterEvent(parameterID: 0, scope: 0, element: 0, value: 0), at: 2)
        #expect(count(automation) == 2)
    }
}
