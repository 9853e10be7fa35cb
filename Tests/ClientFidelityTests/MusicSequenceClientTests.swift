// MusicSequence as Swift apps use it (written against Apple's SDK, unchanged here): build a sequence in code,
// save it as MIDI data, load the data into another sequence, walk its events with an iterator, read the
// loop and length properties, convert beats and seconds, and register a user-event callback closure.
import AudioToolbox
import Foundation
import Testing

/// The app's little sequencer model.
struct SongSketch {
    var sequence: MusicSequence

    init(bpm: Double, notes: [(beat: MusicTimeStamp, note: UInt8, length: Float32)]) {
        var seq: MusicSequence?
        NewMusicSequence(&seq)
        sequence = seq!
        var tempoTrack: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempoTrack)
        MusicTrackNewExtendedTempoEvent(tempoTrack!, 0, bpm)
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        for n in notes {
            var message = MIDINoteMessage(channel: 0, note: n.note, velocity: 100, releaseVelocity: 0, duration: n.length)
            MusicTrackNewMIDINoteEvent(track!, n.beat, &message)
        }
        var loop = MusicTrackLoopInfo(loopDuration: 4, numberOfLoops: 2)
        MusicTrackSetProperty(track!, kSequenceTrackProperty_LoopInfo, &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size))
    }

    func midiData() -> Data? {
        var data: Unmanaged<CFData>?
        guard MusicSequenceFileCreateData(sequence, .midiType, .eraseFile, 480, &data) == noErr else { return nil }
        return data?.takeRetainedValue() as Data?
    }

    /// (beat, note, duration) of every note of the first track, through an iterator.
    static func notes(of sequence: MusicSequence) -> [(MusicTimeStamp, UInt8, Float32)] {
        var track: MusicTrack?
        MusicSequenceGetIndTrack(sequence, 0, &track)
        var iterator: MusicEventIterator?
        NewMusicEventIterator(track!, &iterator)
        defer { DisposeMusicEventIterator(iterator!) }
        var result: [(MusicTimeStamp, UInt8, Float32)] = []
        var hasEvent: DarwinBoolean = false
        MusicEventIteratorHasCurrentEvent(iterator!, &hasEvent)
        while hasEvent.boolValue {
            var timeStamp: MusicTimeStamp = 0
            var eventType: MusicEventType = 0
            var eventData: UnsafeRawPointer?
            var eventDataSize: UInt32 = 0
            MusicEventIteratorGetEventInfo(iterator!, &timeStamp, &eventType, &eventData, &eventDataSize)
            if eventType == kMusicEventType_MIDINoteMessage {
                let message = eventData!.assumingMemoryBound(to: MIDINoteMessage.self).pointee
                result.append((timeStamp, message.note, message.duration))
            }
            MusicEventIteratorNextEvent(iterator!)
            MusicEventIteratorHasCurrentEvent(iterator!, &hasEvent)
        }
        return result
    }
}

@Suite struct MusicSequenceClientTests {
    @Test func sketchSurvivesAMIDIFileRoundTrip() throws {
        let sketch = SongSketch(bpm: 96, notes: [(0, 60, 1), (1, 64, 0.5), (2.5, 67, 1.5)])
        defer { DisposeMusicSequence(sketch.sequence) }
        let data = try #require(sketch.midiData())
        #expect(data.prefix(4) == Data("MThd".utf8))

        var loaded: MusicSequence?
        NewMusicSequence(&loaded)
        defer { DisposeMusicSequence(loaded!) }
        #expect(MusicSequenceFileLoadData(loaded!, data as CFData, .anyType, MusicSequenceLoadFlags(rawValue: 0)) == noErr)
        let notes = SongSketch.notes(of: loaded!)
        #expect(notes.map(\.0) == [0, 1, 2.5])
        #expect(notes.map(\.1) == [60, 64, 67])
        #expect(notes.map(\.2) == [1, 0.5, 1.5])

        var seconds: Float64 = 0
        MusicSequenceGetSecondsForBeats(loaded!, 4, &seconds)
        #expect(abs(seconds - 2.5) < 1e-9)  // 4 beats at 96 BPM

        var track: MusicTrack?
        MusicSequenceGetIndTrack(sketch.sequence, 0, &track)
        var length: MusicTimeStamp = 0
        var size = UInt32(MemoryLayout<MusicTimeStamp>.size)
        MusicTrackGetProperty(track!, kSequenceTrackProperty_TrackLength, &length, &size)
        #expect(length == 4)
        var loop = MusicTrackLoopInfo()
        size = UInt32(MemoryLayout<MusicTrackLoopInfo>.size)
        MusicTrackGetProperty(track!, kSequenceTrackProperty_LoopInfo, &loop, &size)
        #expect(loop.loopDuration == 4 && loop.numberOfLoops == 2)

        var barBeat = CABarBeatTime()
        MusicSequenceBeatsToBarBeatTime(loaded!, 6.5, 4, &barBeat)
        #expect(barBeat.bar == 2 && barBeat.beat == 3 && barBeat.subbeat == 2)

        let callback: MusicSequenceUserCallback = { _, _, _, _, _, _, _ in }
        #expect(MusicSequenceSetUserCallback(loaded!, callback, nil) == noErr)
    }
}
