import AudioToolbox
import Foundation
import Testing

/// Sequences, tracks and iterators: Apple's documented semantics of each call, and its error codes.
@Suite struct MusicSequenceTests {
    typealias S = SequenceSupport

    static func times(_ track: MusicTrack) -> [Double] { S.events(track).map(\.time) }
    static func notes(_ track: MusicTrack) -> [UInt8] { S.events(track).compactMap { $0.note?.note } }

    /// A track with notes 60, 61, ... at beats 0, 1, 2, ... (duration 0.5).
    static func ladder(_ sequence: MusicSequence, count: Int) throws -> MusicTrack {
        var track: MusicTrack?
        try #require(MusicSequenceNewTrack(sequence, &track) == noErr)
        for i in 0..<count { S.addNote(track!, Double(i), UInt8(60 + i), 0.5) }
        return track!
    }

    @Test func tracksAndIndices() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        var count: UInt32 = 9
        MusicSequenceGetTrackCount(s, &count)
        #expect(count == 0)
        let a = try Self.ladder(s, count: 1), b = try Self.ladder(s, count: 2)
        MusicSequenceGetTrackCount(s, &count)
        #expect(count == 2)
        var index: UInt32 = 9
        #expect(MusicSequenceGetTrackIndex(s, b, &index) == noErr && index == 1)
        var t: MusicTrack?
        #expect(MusicSequenceGetIndTrack(s, 2, &t) == kAudioToolboxErr_TrackIndexError)
        var owner: MusicSequence?
        MusicTrackGetSequence(a, &owner)
        #expect(owner == s)
        let tempo = try S.tempoTrack(s)
        #expect(MusicSequenceGetTrackIndex(s, tempo, &index) == kAudioToolboxErr_TrackNotFound)
        #expect(MusicSequenceDisposeTrack(s, a) == noErr)
        #expect(MusicSequenceGetTrackIndex(s, b, &index) == noErr && index == 0)
        #expect(MusicSequenceDisposeTrack(s, a) == kAudioToolboxErr_TrackNotFound)
        // A disposed track's handle is refused, not followed.
        #expect(MusicTrackGetSequence(a, &owner) == kAudio_ParamError)
    }

    @Test func iteratorWalksSeeksEditsAndReportsEnds() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        let track = try Self.ladder(s, count: 4)
        var it: MusicEventIterator?
        try #require(NewMusicEventIterator(track, &it) == noErr)
        let i = it!
        defer { DisposeMusicEventIterator(i) }
        var flag: DarwinBoolean = true
        MusicEventIteratorHasPreviousEvent(i, &flag)
        #expect(!flag.boolValue)
        #expect(MusicEventIteratorPreviousEvent(i) == kAudioToolboxErr_StartOfTrack)
        #expect(MusicEventIteratorSeek(i, 2.5) == noErr)
        var time = 0.0
        var type: MusicEventType = 0
        var data: UnsafeRawPointer?
        var size: UInt32 = 0
        MusicEventIteratorGetEventInfo(i, &time, &type, &data, &size)
        #expect(time == 3)
        MusicEventIteratorHasNextEvent(i, &flag)
        #expect(flag.boolValue)  // on the last event
        #expect(MusicEventIteratorNextEvent(i) == noErr)
        MusicEventIteratorHasCurrentEvent(i, &flag)
        #expect(!flag.boolValue)
        #expect(MusicEventIteratorNextEvent(i) == kAudioToolboxErr_EndOfTrack)
        #expect(MusicEventIteratorGetEventInfo(i, &time, &type, &data, &size) == kAudioToolboxErr_EndOfTrack)
        #expect(MusicEventIteratorSeek(i, kMusicTimeStamp_EndOfTrack) == noErr)
        #expect(MusicEventIteratorPreviousEvent(i) == noErr)
        MusicEventIteratorGetEventInfo(i, &time, &type, &data, &size)
        #expect(time == 3 && type == kMusicEventType_MIDINoteMessage && size == 8)
        #expect(data?.loadUnaligned(as: MIDINoteMessage.self).note == 63)

        // Change the event's data, then its time (the iterator stays on it), then delete it.
        var cc = MIDIChannelMessage(status: 0xB0, data1: 1, data2: 2, reserved: 0)
        #expect(MusicEventIteratorSetEventInfo(i, kMusicEventType_MIDIChannelMessage, &cc) == noErr)
        #expect(MusicEventIteratorSetEventTime(i, 0.5) == noErr)
        MusicEventIteratorGetEventInfo(i, &time, &type, &data, &size)
        #expect(time == 0.5 && type == kMusicEventType_MIDIChannelMessage)
        #expect(Self.times(track) == [0, 0.5, 1, 2])
        #expect(MusicEventIteratorDeleteEvent(i) == noErr)
        MusicEventIteratorGetEventInfo(i, &time, &type, &data, &size)
        #expect(time == 1)  // now on the next event
        #expect(Self.times(track) == [0, 1, 2])
        #expect(MusicEventIteratorSetEventInfo(i, 77, &cc) == kAudioToolboxErr_InvalidEventType)
    }

    @Test func cutClearMoveCopyInsertAndMerge() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        // Clear leaves later events in place.
        let a = try Self.ladder(s, count: 6)
        MusicTrackClear(a, 1, 3)
        #expect(Self.times(a) == [0, 3, 4, 5])
        // Cut closes the gap.
        let b = try Self.ladder(s, count: 6)
        MusicTrackCut(b, 1, 3)
        #expect(Self.times(b) == [0, 1, 2, 3])
        #expect(Self.notes(b) == [60, 63, 64, 65])
        // Move shifts the range (here past the next events).
        let c = try Self.ladder(s, count: 4)
        MusicTrackMoveEvents(c, 0, 2, 2.5)
        #expect(Self.times(c) == [2, 2.5, 3, 3.5])
        #expect(Self.notes(c) == [62, 60, 63, 61])
        // CopyInsert opens a gap of the range's length at the insertion point.
        let src = try Self.ladder(s, count: 3)
        let d = try Self.ladder(s, count: 3)
        MusicTrackCopyInsert(src, 1, 3, d, 1)
        #expect(Self.times(d) == [0, 1, 2, 3, 4])
        #expect(Self.notes(d) == [60, 61, 62, 61, 62])
        // Merge puts the copies among the existing events.
        let e = try Self.ladder(s, count: 3)
        MusicTrackMerge(src, 0, 2, e, 0.5)
        #expect(Self.times(e) == [0, 0.5, 1, 1.5, 2])
        #expect(Self.notes(e) == [60, 60, 61, 61, 62])
        // The source is untouched; EndOfTrack takes everything.
        #expect(Self.times(src) == [0, 1, 2])
        MusicTrackClear(src, 1, kMusicTimeStamp_EndOfTrack)
        #expect(Self.times(src) == [0])
        #expect(MusicTrackCut(src, 2, 1) == kAudio_ParamError)
    }

    @Test func trackProperties() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        let t = try Self.ladder(s, count: 3)  // last note ends at 2.5
        var length = 0.0
        var size = UInt32(8)
        MusicTrackGetProperty(t, kSequenceTrackProperty_TrackLength, &length, &size)
        #expect(length == 2.5)
        var longer = 8.0
        MusicTrackSetProperty(t, kSequenceTrackProperty_TrackLength, &longer, 8)
        MusicTrackGetProperty(t, kSequenceTrackProperty_TrackLength, &length, &size)
        #expect(length == 8)
        var loop = MusicTrackLoopInfo(loopDuration: 2, numberOfLoops: 3)
        #expect(MusicTrackSetProperty(t, kSequenceTrackProperty_LoopInfo, &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)) == noErr)
        var got = MusicTrackLoopInfo()
        size = UInt32(MemoryLayout<MusicTrackLoopInfo>.size)
        MusicTrackGetProperty(t, kSequenceTrackProperty_LoopInfo, &got, &size)
        #expect(got.loopDuration == 2 && got.numberOfLoops == 3)
        var mute: DarwinBoolean = true
        MusicTrackSetProperty(t, kSequenceTrackProperty_MuteStatus, &mute, 1)
        var muted: DarwinBoolean = false
        size = 1
        MusicTrackGetProperty(t, kSequenceTrackProperty_MuteStatus, &muted, &size)
        #expect(muted.boolValue)
        var offset = -1.0
        size = 4
        #expect(MusicTrackGetProperty(t, kSequenceTrackProperty_OffsetTime, &offset, &size) == kAudio_ParamError)  // too small
        size = 8
        #expect(MusicTrackGetProperty(t, kSequenceTrackProperty_OffsetTime, &offset, &size) == noErr && size == 8 && offset == 0)
        var resolution: Int16 = 0
        size = 2
        #expect(MusicTrackGetProperty(t, kSequenceTrackProperty_TimeResolution, &resolution, &size) == kAudio_ParamError)
        #expect(MusicTrackGetProperty(try S.tempoTrack(s), kSequenceTrackProperty_TimeResolution, &resolution, &size) == noErr)
        #expect(resolution == 480)
        #expect(MusicTrackSetProperty(t, 99, &resolution, 2) == kAudio_ParamError)
        var node: AUNode = 0
        #expect(MusicTrackGetDestNode(t, &node) == kAudioToolboxError_NoTrackDestination)
        MusicTrackSetDestMIDIEndpoint(t, 1234)
        #expect(MusicTrackGetDestNode(t, &node) == kAudioToolboxErr_IllegalTrackDestination)
        var endpoint: MIDIEndpointRef = 0
        #expect(MusicTrackGetDestMIDIEndpoint(t, &endpoint) == noErr && endpoint == 1234)
    }

    @Test func tempoMapAcrossChanges() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        var seconds = 0.0
        MusicSequenceGetSecondsForBeats(s, 3, &seconds)
        #expect(seconds == 1.5)  // 120 BPM by default
        let tempo = try S.tempoTrack(s)
        MusicTrackNewExtendedTempoEvent(tempo, 0, 60)
        MusicTrackNewExtendedTempoEvent(tempo, 2, 240)
        MusicTrackNewExtendedTempoEvent(tempo, 6, 90)
        // 2 beats at 60 (2 s), 4 at 240 (1 s), then 90.
        for (beats, expected) in [(1.0, 1.0), (2.0, 2.0), (4.0, 2.5), (6.0, 3.0), (9.0, 5.0)] {
            MusicSequenceGetSecondsForBeats(s, beats, &seconds)
            #expect(abs(seconds - expected) < 1e-12, "\(beats)")
            var back = 0.0
            MusicSequenceGetBeatsForSeconds(s, expected, &back)
            #expect(abs(back - beats) < 1e-12, "\(beats)")
        }
        var bbt = CABarBeatTime()
        MusicSequenceBeatsToBarBeatTime(s, 9.25, 4, &bbt)
        #expect(bbt.bar == 3 && bbt.beat == 2 && bbt.subbeat == 1)  // 4/4 by default
        S.addMeta(tempo, 8, 0x58, [7, 3, 24, 8])  // 7/8 from bar 3
        MusicSequenceBeatsToBarBeatTime(s, 8 + 3.5 + 1.25, 2, &bbt)
        #expect(bbt.bar == 4 && bbt.beat == 3 && bbt.subbeat == 1)
        var back = 0.0
        MusicSequenceBarBeatTimeToBeats(s, &bbt, &back)
        #expect(back == 12.75)
    }

    @Test func reverseAndErrors() throws {
        let s = try S.newSequence()
        let t = try Self.ladder(s, count: 3)  // ends at 2.5
        MusicSequenceReverse(s)
        #expect(Self.times(t) == [0, 1, 2])
        #expect(Self.notes(t) == [62, 61, 60])
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        var got: MusicSequence?
        #expect(MusicPlayerGetSequence(player!, &got) == kAudioToolboxErr_NoSequence)
        #expect(MusicPlayerStart(player!) == kAudioToolboxErr_NoSequence)
        MusicPlayerSetSequence(player!, s)
        #expect(DisposeMusicSequence(s) == kAudioToolboxErr_InvalidPlayerState)
        MusicPlayerSetSequence(player!, nil)
        DisposeMusicPlayer(player!)
        #expect(DisposeMusicSequence(s) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(s, &count) == kAudio_ParamError)
    }

    @Test func variableLengthEventsKeepTheirData() throws {
        let s = try S.newSequence()
        defer { DisposeMusicSequence(s) }
        var t: MusicTrack?
        MusicSequenceNewTrack(s, &t)
        var user: [UInt8] = [5, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0]
        _ = user.withUnsafeMutableBytes { MusicTrackNewUserEvent(t!, 1, $0.baseAddress!.assumingMemoryBound(to: MusicEventUserData.self)) }
        var raw: [UInt8] = [3, 0, 0, 0, 0xF0, 0x01, 0xF7, 0]
        _ = raw.withUnsafeMutableBytes { MusicTrackNewMIDIRawDataEvent(t!, 2, $0.baseAddress!.assumingMemoryBound(to: MIDIRawData.self)) }
        var parameter = ParameterEvent(parameterID: 3, scope: kAudioUnitScope_Global, element: 0, value: 0.25)
        MusicTrackNewParameterEvent(t!, 3, &parameter)
        let events = S.events(t!)
        #expect(events.map(\.type) == [kMusicEventType_User, kMusicEventType_MIDIRawData, kMusicEventType_Parameter])
        #expect(events[0].bytes == [5, 0, 0, 0, 1, 2, 3, 4, 5])
        #expect(events[1].bytes == [3, 0, 0, 0, 0xF0, 0x01, 0xF7])
        #expect(events[2].bytes.count == 16)
        #expect(MusicTrackNewExtendedTempoEvent(t!, 0, 0) == kAudio_ParamError)
    }
}
