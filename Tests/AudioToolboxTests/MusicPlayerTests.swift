import AllocationCounter
import AudioToolbox
import COCASupport
import Foundation
import Testing

/// MusicPlayer driving an instrument in an AUGraph rendered offline (sample accuracy), and a CoreMIDI
/// virtual destination (host-time stamps). Serialized: the recording instrument keeps one global log,
/// and the endpoint timing test wants the machine to itself as far as it can.
@Suite(.serialized) struct MusicPlayerTests {
    typealias S = SequenceSupport
    typealias R = RecordingInstrumentPlugIn
    static let rate = 44100.0

    /// A format-1 file at 480 PPQ whose tempo changes twice: 120 BPM, 70 BPM at tick 960, 185 BPM at
    /// tick 2400; notes at odd ticks across the changes, two of them overlapping.
    static let tempoChanges: [(tick: Int, microseconds: Int)] = [(0, 500_000), (960, 857_143), (2400, 324_324)]
    static let noteTicks: [(on: Int, off: Int, note: UInt8)] = [(0, 240, 60), (241, 1000, 62), (777, 2401, 64), (2399, 3600, 65), (3001, 3002, 67)]

    static func tempoFile() -> [UInt8] {
        var conductor: [UInt8] = []
        var last = 0
        for (tick, us) in tempoChanges {
            conductor += S.vlq(tick - last) + [0xFF, 0x51, 0x03, UInt8(us >> 16), UInt8(us >> 8 & 0xFF), UInt8(us & 0xFF)]
            last = tick
        }
        conductor += [0x00, 0xFF, 0x2F, 0x00]
        var events: [(Int, [UInt8])] = []
        for n in noteTicks {
            events.append((n.on, [0x90, n.note, 100]))
            events.append((n.off, [0x80, n.note, 0]))
        }
        events.sort { $0.0 < $1.0 }
        var body: [UInt8] = []
        last = 0
        for (tick, bytes) in events { body += S.vlq(tick - last) + bytes; last = tick }
        body += [0x00, 0xFF, 0x2F, 0x00]
        return S.header(format: 1, tracks: 2, division: 480) + S.chunk(conductor) + S.chunk(body)
    }

    /// Seconds of a tick, from the file's own tempo map (independent of the sequence's).
    static func seconds(_ tick: Int) -> Double {
        var s = 0.0
        for (i, change) in tempoChanges.enumerated() where change.tick < tick {
            let end = i + 1 < tempoChanges.count ? min(tick, tempoChanges[i + 1].tick) : tick
            s += Double(end - change.tick) / 480 * Double(change.microseconds) / 1e6
        }
        return s
    }

    static func expectedFrames(from startSeconds: Double = 0, rate scalar: Double = 1) -> [R.Received] {
        var list: [(Double, Int, R.Received)] = []
        for (i, n) in noteTicks.enumerated() {
            for (tick, status, velocity, offFirst) in [(n.on, UInt8(0x90), UInt8(100), 1), (n.off, UInt8(0x80), UInt8(0), 0)] {
                let s = seconds(tick) - startSeconds
                guard s >= 0 || status == 0x80 else { continue }
                list.append((s, offFirst * 100 + i, R.Received(frame: Int((s * rate / scalar).rounded()), status: status, data1: n.note, data2: velocity)))
            }
        }
        return list.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    static func playOffline(_ file: [UInt8], slices: [Int], seconds: Double, setup: (MusicSequence, MusicPlayer) throws -> Void = { _, _ in })
        throws -> (events: [R.Received], audio: [Double]) {
        let (graph, output) = try R.graph()
        defer { DisposeAUGraph(graph) }
        let (status, seq) = S.load(file)
        try #require(status == noErr)
        let sequence = try #require(seq)
        defer { DisposeMusicSequence(sequence) }
        try #require(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        let player = try #require(p)
        defer { DisposeMusicPlayer(player) }
        MusicPlayerSetSequence(player, sequence)
        try setup(sequence, player)
        try #require(MusicPlayerStart(player) == noErr)
        let format = OCAFormat.canonical(sampleRate: rate, channels: 2)
        let audio = try TestSupport.render(output, format: format, totalFrames: Int(seconds * rate), slices: slices)
        MusicPlayerStop(player)
        MusicPlayerSetSequence(player, nil)
        return (R.log.events, audio.channels[0])
    }

    @Test(arguments: [[512], [441], [441, 512, 37, 1]])
    func offlineRenderPlacesEveryNoteAtItsFrame(slices: [Int]) throws {
        let (events, audio) = try Self.playOffline(Self.tempoFile(), slices: slices, seconds: 4.5)
        let expected = Self.expectedFrames()
        let notes = events.filter { $0.status & 0xF0 == 0x90 || $0.status & 0xF0 == 0x80 }
        // Stop adds all-notes-off (CC 123) only; every note ended before.
        #expect(notes == expected)
        let worst = zip(notes, expected).map { abs($0.frame - $1.frame) }.max() ?? -1
        #expect(worst == 0, "worst onset error \(worst) samples")
        // The audio steps at the same frames: 0.1 per sounding note.
        var sounding = 0
        var next = 0
        for n in 0..<audio.count {
            while next < expected.count && expected[next].frame <= n {
                sounding += expected[next].status == 0x90 ? 1 : -1
                next += 1
            }
            if abs(audio[n] - Double(Float32(sounding) * 0.1)) > 1e-6 {
                Issue.record("frame \(n): \(audio[n]), expected \(sounding) notes"); break
            }
        }
    }

    @Test func seekAndPlayRate() throws {
        // From beat 1.5 (tick 720) at twice the speed: earlier notes are skipped, times halve.
        let (events, _) = try Self.playOffline(Self.tempoFile(), slices: [441], seconds: 3) { _, player in
            try #require(MusicPlayerSetTime(player, 1.5) == noErr)
            try #require(MusicPlayerSetPlayRateScalar(player, 2) == noErr)
            var rate = 0.0
            MusicPlayerGetPlayRateScalar(player, &rate)
            #expect(rate == 2)
            var time = 0.0
            MusicPlayerGetTime(player, &time)
            #expect(time == 1.5)
        }
        let startSeconds = Self.seconds(720)
        let expected = Self.expectedFrames(from: startSeconds, rate: 2).filter { e in
            // Notes that started before the seek point are not played (nor their note-offs).
            Self.noteTicks.first { $0.note == e.data1 }!.on >= 720
        }
        #expect(events.filter { $0.status & 0xE0 == 0x80 } == expected)
    }

    @Test func muteSoloOffsetAndLoop() throws {
        var file: [UInt8] = S.header(format: 1, tracks: 3, division: 480)
        file += S.chunk([0x00, 0xFF, 0x2F, 0x00])
        file += S.chunk([0x00, 0x90, 60, 100] + S.vlq(240) + [0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00])
        file += S.chunk([0x00, 0x91, 70, 100] + S.vlq(240) + [0x81, 70, 0, 0x00, 0xFF, 0x2F, 0x00])
        let half = Int(0.25 * Self.rate)  // 0.5 beat at 120 BPM
        // Track 1 muted: only track 0, offset by a beat, looped: one beat of loop, 3 passes.
        let (events, _) = try Self.playOffline(file, slices: [512], seconds: 3) { sequence, _ in
            let t0 = try S.track(sequence, 0), t1 = try S.track(sequence, 1)
            var on: DarwinBoolean = true
            MusicTrackSetProperty(t1, kSequenceTrackProperty_MuteStatus, &on, 1)
            var offset = 1.0
            MusicTrackSetProperty(t0, kSequenceTrackProperty_OffsetTime, &offset, 8)
            var length = 1.0
            MusicTrackSetProperty(t0, kSequenceTrackProperty_TrackLength, &length, 8)
            var loop = MusicTrackLoopInfo(loopDuration: 1, numberOfLoops: 3)
            MusicTrackSetProperty(t0, kSequenceTrackProperty_LoopInfo, &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size))
        }
        let notes = events.filter { $0.status & 0xE0 == 0x80 }
        var expected: [R.Received] = []
        for pass in 0..<3 {
            let start = (1 + pass) * 2 * half
            expected.append(R.Received(frame: start, status: 0x90, data1: 60, data2: 100))
            expected.append(R.Received(frame: start + half, status: 0x80, data1: 60, data2: 0))
        }
        #expect(notes == expected)

        // Solo on track 1 silences track 0.
        let (soloed, _) = try Self.playOffline(file, slices: [512], seconds: 1) { sequence, _ in
            var on: DarwinBoolean = true
            MusicTrackSetProperty(try S.track(sequence, 1), kSequenceTrackProperty_SoloStatus, &on, 1)
        }
        #expect(soloed.filter { $0.status & 0xE0 == 0x80 } == [R.Received(frame: 0, status: 0x91, data1: 70, data2: 100),
                                                                 R.Received(frame: half, status: 0x81, data1: 70, data2: 0)])
    }

    @Test func stopReleasesSoundingNotes() throws {
        let (graph, output) = try R.graph()
        defer { DisposeAUGraph(graph) }
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 60, 4, channel: 3)
        MusicSequenceSetAUGraph(sequence, graph)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        MusicPlayerStart(p!)
        var playing: DarwinBoolean = false
        MusicPlayerIsPlaying(p!, &playing)
        #expect(playing.boolValue)
        let format = OCAFormat.canonical(sampleRate: Self.rate, channels: 2)
        _ = try TestSupport.render(output, format: format, totalFrames: 4410, slices: [441])
        var time = 0.0
        MusicPlayerGetTime(p!, &time)
        #expect(abs(time - 0.2) < 1e-9)  // 0.1 s at 120 BPM
        MusicPlayerStop(p!)
        MusicPlayerIsPlaying(p!, &playing)
        #expect(!playing.boolValue)
        _ = try TestSupport.render(output, format: format, totalFrames: 441, slices: [441], startTime: 4410)
        let events = R.log.events
        #expect(events.map(\.status) == [0x93, 0x83, 0xB3])
        #expect(events.last.map { $0.data1 == 123 } == true)
        #expect(R.log.sounding.isEmpty)
        MusicPlayerGetTime(p!, &time)
        #expect(abs(time - 0.2) < 1e-9)  // stopped where it was
        MusicPlayerSetSequence(p!, nil)
    }

    final class Received: @unchecked Sendable {
        let lock = NSLock()
        var packets: [(stamp: UInt64, arrival: UInt64, bytes: [UInt8])] = []
    }

    @Test func playsToAVirtualDestinationOnTime() throws {
        var client = MIDIClientRef()
        try #require(MIDIClientCreate("MusicPlayerTests" as CFString, nil, nil, &client) == noErr)
        defer { MIDIClientDispose(client) }
        let received = Received()
        var destination = MIDIEndpointRef()
        try #require(MIDIDestinationCreateWithBlock(client, "MusicPlayerTests in" as CFString, &destination) { list, _ in
            let now = AudioGetCurrentHostTime()
            received.lock.lock(); defer { received.lock.unlock() }
            for packet in list.unsafeSequence() { received.packets.append((packet.pointee.timeStamp, now, Array(packet.bytes()))) }
        } == noErr)
        defer { MIDIEndpointDispose(destination) }

        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        let tempo = try S.tempoTrack(sequence)
        MusicTrackNewExtendedTempoEvent(tempo, 0, 240)
        MusicTrackNewExtendedTempoEvent(tempo, 1, 480)  // 0.25 s per beat, then 0.125 s
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        let beats: [Double] = [0, 0.5, 1, 1.5, 2.25]
        for (i, b) in beats.enumerated() { S.addNote(track!, b, UInt8(60 + i), 0.25) }
        MusicSequenceSetMIDIEndpoint(sequence, destination)
        var endpoint = MIDIEndpointRef()
        #expect(MusicTrackGetDestMIDIEndpoint(track!, &endpoint) == noErr && endpoint == destination)

        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        try #require(MusicPlayerStart(p!) == noErr)
        var start: UInt64 = 0
        #expect(MusicPlayerGetHostTimeForBeats(p!, 0, &start) == noErr)
        Thread.sleep(forTimeInterval: 0.8)
        var now = 0.0
        MusicPlayerGetTime(p!, &now)
        #expect(now > 4.5 && now < 7, "time \(now)")  // 1 beat in 0.25 s, then 8 beats a second: 5.4 after 0.8 s
        MusicPlayerStop(p!)
        var beatsAfter = 0.0
        #expect(MusicPlayerGetBeatsForHostTime(p!, start, &beatsAfter) == kAudioToolboxErr_InvalidPlayerState)
        Thread.sleep(forTimeInterval: 0.05)

        received.lock.lock()
        let packets = received.packets
        received.lock.unlock()
        let ons = packets.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x90 }
        #expect(ons.map { $0.bytes[1] } == [60, 61, 62, 63, 64])
        let seconds = [0, 0.125, 0.25, 0.3125, 0.40625]
        var worstStamp = 0.0, worstArrival = 0.0
        for (on, s) in zip(ons, seconds) {
            let stampError = abs(Double(Int64(on.stamp) - Int64(start)) / 1e9 - s)
            worstStamp = max(worstStamp, stampError)
            worstArrival = max(worstArrival, Double(Int64(on.arrival) - Int64(on.stamp)) / 1e9)
        }
        #expect(worstStamp < 0.001, "time stamp error \(worstStamp * 1000) ms")
        // Arrival is CoreMIDI's scheduler waking up on time (a few ms idle, more on a loaded machine).
        #expect(worstArrival < 0.05, "arrival after time stamp \(worstArrival * 1000) ms")
        print("MusicPlayer endpoint timing: worst stamp error \(worstStamp * 1e3) ms, worst arrival lag \(worstArrival * 1e3) ms")
        // Every note-on got its note-off; stop sent all-notes-off on channel 0.
        #expect(packets.filter { $0.bytes.first == 0x80 }.count == 5)
        #expect(packets.last?.bytes == [0xB0, 123, 0])
    }

    @Test func userEventsReachTheCallback() throws {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var list: [(Double, [UInt8], Bool)] = []
        }
        let calls = Calls()
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        for (i, beat) in [0.0, 0.25].enumerated() {
            var user: [UInt8] = [2, 0, 0, 0, UInt8(i), 9, 0, 0]
            _ = user.withUnsafeMutableBytes { MusicTrackNewUserEvent(track!, beat, $0.baseAddress!.assumingMemoryBound(to: MusicEventUserData.self)) }
        }
        MusicSequenceSetUserCallback(sequence, { clientData, _, _, time, data, start, end in
            let calls = Unmanaged<Calls>.fromOpaque(clientData!).takeUnretainedValue()
            let bytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(data) + 4, count: Int(data.pointee.length)))
            calls.lock.lock(); defer { calls.lock.unlock() }
            calls.list.append((time, bytes, start <= time && time < end))
        }, Unmanaged.passUnretained(calls).toOpaque())
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        MusicPlayerStart(p!)
        Thread.sleep(forTimeInterval: 0.4)
        MusicPlayerStop(p!)
        calls.lock.lock(); defer { calls.lock.unlock() }
        #expect(calls.list.map(\.0) == [0, 0.25])
        #expect(calls.list.map(\.1) == [[0, 9], [1, 9]])
        #expect(calls.list.allSatisfy { $0.2 })
    }

    /// The player's render notification allocates nothing and takes no lock while it sends events: a dense
    /// sequence (a note every 1/64 beat) aimed at the graph's GenericOutput node (which refuses MIDI without
    /// allocating, so only the scheduler's own path is measured), rendered in 441-frame slices.
    @Test func renderNotificationAllocatesNothing() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var output = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var node: AUNode = 0
        AUGraphAddNode(g, &output, &node)
        AUGraphOpen(g)
        var unit: AudioUnit?
        AUGraphNodeInfo(g, node, nil, &unit)
        let outputUnit = try #require(unit)
        var callback = AURenderCallbackStruct(inputProc: { _, _, _, _, _, _ in noErr }, inputProcRefCon: nil)
        AudioUnitSetProperty(outputUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        for i in 0..<2000 { S.addNote(track!, Double(i) / 64, UInt8(40 + i % 40), 0.01) }
        var sysEx: [UInt8] = [4, 0, 0, 0, 0xF0, 0x7D, 0x01, 0xF7]
        _ = sysEx.withUnsafeMutableBytes { MusicTrackNewMIDIRawDataEvent(track!, 1, $0.baseAddress!.assumingMemoryBound(to: MIDIRawData.self)) }
        MusicSequenceSetAUGraph(sequence, g)
        #expect(MusicTrackSetDestNode(track!, node) == noErr)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        try #require(MusicPlayerStart(p!) == noErr)

        let frames: UInt32 = 441
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: Int(frames) * 2)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var flags = AudioUnitRenderActionFlags()
        var failures = 0
        func renderOne() {
            for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(memory + b * Int(frames))) }
            if AudioUnitRender(outputUnit, &flags, &ts, 0, frames, abl.unsafeMutablePointer) != noErr { failures += 1 }
            ts.mSampleTime += Double(frames)
        }
        renderOne()
        oca_alloc_counting_start()
        oca_realtime_enter()
        for _ in 0..<1000 { renderOne() }  // 10 s at 120 BPM: 20 beats, 1280 notes
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0, "\(count) allocations on the render thread")
        var time = 0.0
        MusicPlayerGetTime(p!, &time)
        #expect(abs(time - 1001 * 441 / Self.rate * 2) < 1e-9)
        MusicPlayerStop(p!)
        MusicPlayerSetSequence(p!, nil)
    }

    /// MusicPlayerSetTime while playing: sounding notes are released at once and play carries on from the new
    /// beat, its frame 0 being the first slice rendered after the call.
    @Test func seekWhilePlaying() throws {
        let (graph, output) = try R.graph()
        defer { DisposeAUGraph(graph) }
        let (status, seq) = S.load(Self.tempoFile())
        try #require(status == noErr)
        defer { DisposeMusicSequence(seq!) }
        MusicSequenceSetAUGraph(seq!, graph)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, seq!)
        try #require(MusicPlayerStart(p!) == noErr)
        let format = OCAFormat.canonical(sampleRate: Self.rate, channels: 2)
        _ = try TestSupport.render(output, format: format, totalFrames: 441 * 40, slices: [441])  // 0.4 s: note 62 sounds
        R.log.reset()
        try #require(MusicPlayerSetTime(p!, 5.5) == noErr)  // tick 2640: note 65 (from 2399) is not replayed
        var playing: DarwinBoolean = false
        MusicPlayerIsPlaying(p!, &playing)
        #expect(playing.boolValue)
        let resume = 441 * 40
        _ = try TestSupport.render(output, format: format, totalFrames: 441 * 100, slices: [441], startTime: Double(resume))
        MusicPlayerStop(p!)
        MusicPlayerSetSequence(p!, nil)
        let notes = R.log.events.filter { $0.status & 0xE0 == 0x80 }
        let start = Self.seconds(2640)
        let expected = [R.Received(frame: resume, status: 0x80, data1: 62, data2: 0)]
            + [(3001, 0x90, 67, 100), (3002, 0x80, 67, 0)].map { tick, status, note, velocity in
                R.Received(frame: resume + Int(((Self.seconds(tick) - start) * Self.rate).rounded()), status: UInt8(status), data1: UInt8(note),
                           data2: UInt8(velocity))
            }
        #expect(notes == expected)
    }

    /// A virtual source as the destination: its packets go out through MIDIReceived when due, and an input
    /// port connected to the source receives them.
    @Test func playsFromAVirtualSource() throws {
        var client = MIDIClientRef()
        try #require(MIDIClientCreate("MusicPlayerTests source" as CFString, nil, nil, &client) == noErr)
        defer { MIDIClientDispose(client) }
        var source = MIDIEndpointRef()
        try #require(MIDISourceCreate(client, "MusicPlayerTests out" as CFString, &source) == noErr)
        defer { MIDIEndpointDispose(source) }
        let received = Received()
        var port = MIDIPortRef()
        try #require(MIDIInputPortCreateWithBlock(client, "in" as CFString, &port) { list, _ in
            let now = AudioGetCurrentHostTime()
            received.lock.lock(); defer { received.lock.unlock() }
            for packet in list.unsafeSequence() { received.packets.append((packet.pointee.timeStamp, now, Array(packet.bytes()))) }
        } == noErr)
        MIDIPortConnectSource(port, source, nil)
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 60, 0.1)
        S.addNote(track!, 0.4, 62, 0.1)  // 0.2 s at 120 BPM
        MusicTrackSetDestMIDIEndpoint(track!, source)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        try #require(MusicPlayerStart(p!) == noErr)
        var start: UInt64 = 0
        MusicPlayerGetHostTimeForBeats(p!, 0, &start)
        var beat = 0.0
        #expect(MusicPlayerGetBeatsForHostTime(p!, start + 250_000_000, &beat) == noErr && abs(beat - 0.5) < 1e-9)
        Thread.sleep(forTimeInterval: 0.4)
        MusicPlayerStop(p!)
        received.lock.lock(); defer { received.lock.unlock() }
        let ons = received.packets.filter { $0.bytes.first == 0x90 }
        #expect(ons.map { $0.bytes[1] } == [60, 62])
        if ons.count == 2 {
            let gap = Double(ons[1].stamp - ons[0].stamp) / 1e9
            #expect(abs(gap - 0.2) < 0.001, "time stamps \(gap) s apart")
            let late = Double(Int64(ons[1].arrival) - Int64(start)) / 1e9 - 0.2
            #expect(late > -0.001 && late < 0.05, "second note \(late * 1000) ms late")
        }
    }

    /// Tracks without a destination use the default graph where one can be made; where not (no instrument or
    /// output device here), playing still starts and stops cleanly.
    @Test func playsWithoutADestination() throws {
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 60, 1)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        #expect(MusicPlayerPreroll(p!) == noErr)
        #expect(MusicPlayerStart(p!) == noErr)
        var playing: DarwinBoolean = false
        MusicPlayerIsPlaying(p!, &playing)
        #expect(playing.boolValue)
        #expect(MusicPlayerSetSequence(p!, nil) == kAudioToolboxErr_InvalidPlayerState)
        #expect(MusicPlayerStop(p!) == noErr)
        MusicPlayerIsPlaying(p!, &playing)
        #expect(!playing.boolValue)
        #expect(MusicPlayerSetPlayRateScalar(p!, 0) == kAudio_ParamError)
        MusicPlayerSetSequence(p!, nil)
    }

    /// A loop forever of an absurdly short length is bounded (by pass count), not unrolled without end.
    @Test func tinyEndlessLoopIsBounded() throws {
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 60, 1e-6)
        var loop = MusicTrackLoopInfo(loopDuration: 1e-6, numberOfLoops: 0)
        #expect(MusicTrackSetProperty(track!, kSequenceTrackProperty_LoopInfo, &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)) == noErr)
        MusicTrackSetDestMIDIEndpoint(track!, 0xFFFF_FFF0)  // no such endpoint: nothing is delivered
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        let clock = ContinuousClock()
        let elapsed = clock.measure { MusicPlayerStart(p!) }
        #expect(elapsed < .seconds(20), "start took \(elapsed)")
        MusicPlayerStop(p!)
        MusicPlayerSetSequence(p!, nil)
    }

    /// Parameter events reach the destination unit as immediate scheduled parameters at their frame.
    @Test func parameterEventsAreSampleAccurate() throws {
        let file = S.header(format: 1, tracks: 2, division: 480) + S.chunk([0x00, 0xFF, 0x2F, 0x00])
            + S.chunk([0x00, 0x90, 60, 100] + S.vlq(480) + [0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00])
        let beats: [Double] = [0.1, 0.75, 1.337]
        _ = try Self.playOffline(file, slices: [441, 512], seconds: 1) { sequence, _ in
            let track = try S.track(sequence, 0)
            for (i, b) in beats.enumerated() {
                var p = ParameterEvent(parameterID: 7, scope: kAudioUnitScope_Global, element: 0, value: Float32(i))
                MusicTrackNewParameterEvent(track, b, &p)
            }
        }
        let got = R.log.parameters.map { "\($0.frame) \($0.id) \($0.value)" }
        let expected = beats.enumerated().map { "\(Int(($1 * 0.5 * Self.rate).rounded())) 7 \(Float32($0))" }
        #expect(got == expected)
    }

    /// Extended notes reach a graph unit through MusicDeviceStartNote/StopNote at their frames, the stop with the
    /// instance ID the start returned; one still sounding at MusicPlayerStop is stopped then.
    @Test func extendedNotesStartAndStopAtTheirFrames() throws {
        let file = S.header(format: 1, tracks: 2, division: 480) + S.chunk([0x00, 0xFF, 0x2F, 0x00]) + S.chunk([0x00, 0xFF, 0x2F, 0x00])
        _ = try Self.playOffline(file, slices: [441], seconds: 1) { sequence, _ in
            let track = try S.track(sequence, 0)
            for (beat, pitch, duration) in [(0.25, Float32(60.5), Float32(0.5)), (1.5, 72, 10)] {
                var note = ExtendedNoteOnEvent(instrumentID: 0, groupID: 3, duration: duration,
                                               extendedParams: MusicDeviceNoteParams(argCount: 2, mPitch: pitch, mVelocity: 90,
                                                                                     mControls: NoteParamsControlValue(mID: 0, mValue: 0)))
                MusicTrackNewExtendedNoteEvent(track, beat, &note)
            }
        }
        let frame = { (beats: Double) in Int((beats * 0.5 * Self.rate).rounded()) }
        // The player stops after 1 s (frame 44100): the second note is stopped then, at the next render's start.
        #expect(R.log.notes == ["\(frame(0.25)) start 3 101 60.5", "\(frame(0.75)) stop 3 101 0.0", "\(frame(1.5)) start 3 102 72.0"])
        #expect(R.log.pendingNotes.map { "\($0.1) \($0.2) \($0.3)" } == ["false 3 102"])
    }

    /// Stopping mid-note releases the note on the endpoint at once, drops what was sent ahead, and sends
    /// all-notes-off on the channel used.
    @Test func stopReleasesNotesOnAnEndpoint() throws {
        var client = MIDIClientRef()
        try #require(MIDIClientCreate("MusicPlayerTests stop" as CFString, nil, nil, &client) == noErr)
        defer { MIDIClientDispose(client) }
        let received = Received()
        var destination = MIDIEndpointRef()
        try #require(MIDIDestinationCreateWithBlock(client, "MusicPlayerTests stop in" as CFString, &destination) { list, _ in
            received.lock.lock(); defer { received.lock.unlock() }
            for packet in list.unsafeSequence() { received.packets.append((packet.pointee.timeStamp, AudioGetCurrentHostTime(), Array(packet.bytes()))) }
        } == noErr)
        defer { MIDIEndpointDispose(destination) }
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0, 50, 8, channel: 5)
        S.addNote(track!, 1, 52, 1, channel: 5)  // 0.5 s: due (and sent 50 ms ahead) only after the stop
        MusicTrackSetDestMIDIEndpoint(track!, destination)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        try #require(MusicPlayerStart(p!) == noErr)
        Thread.sleep(forTimeInterval: 0.05)
        MusicPlayerStop(p!)
        Thread.sleep(forTimeInterval: 0.3)
        received.lock.lock(); defer { received.lock.unlock() }
        #expect(received.packets.map(\.bytes) == [[0x95, 50, 100], [0x85, 50, 0], [0xB5, 123, 0]])
    }

    /// Edits made while playing are picked up: a note added ahead of the play position plays at its frame, a
    /// note sounding across the edit still gets its note-off.
    @Test func editsWhilePlayingArePickedUp() throws {
        let (graph, output) = try R.graph()
        defer { DisposeAUGraph(graph) }
        let sequence = try S.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        S.addNote(track!, 0.5, 60, 1)  // 0.25 s to 0.75 s at 120 BPM
        MusicSequenceSetAUGraph(sequence, graph)
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        defer { DisposeMusicPlayer(p!) }
        MusicPlayerSetSequence(p!, sequence)
        try #require(MusicPlayerStart(p!) == noErr)
        let format = OCAFormat.canonical(sampleRate: Self.rate, channels: 2)
        _ = try TestSupport.render(output, format: format, totalFrames: 441 * 50, slices: [441])  // 0.5 s
        S.addNote(track!, 2, 67, 0.5)  // 1.0 s to 1.25 s
        // The player replans 5 ms after an edit, on a global queue: under a loaded run that can take much longer.
        Thread.sleep(forTimeInterval: 0.5)
        _ = try TestSupport.render(output, format: format, totalFrames: 441 * 100, slices: [441], startTime: 441 * 50)
        MusicPlayerStop(p!)
        MusicPlayerSetSequence(p!, nil)
        let notes = R.log.events.filter { $0.status & 0xE0 == 0x80 }
        let frame = { (seconds: Double) in Int((seconds * Self.rate).rounded()) }
        #expect(notes == [R.Received(frame: frame(0.25), status: 0x90, data1: 60, data2: 100), R.Received(frame: frame(0.75), status: 0x80, data1: 60, data2: 0),
                          R.Received(frame: frame(1.0), status: 0x90, data1: 67, data2: 100), R.Received(frame: frame(1.25), status: 0x80, data1: 67, data2: 0)])
    }
}
