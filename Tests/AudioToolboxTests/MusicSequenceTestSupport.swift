import AudioToolbox
import Foundation
import Testing

/// Reads tracks back through the public iterator API, for the sequence, MIDI file and player tests.
enum SequenceSupport {
    struct Event: Equatable, CustomStringConvertible {
        var time: Double
        var type: MusicEventType
        var bytes: [UInt8]
        var description: String { "\(time) type \(type) \(bytes)" }

        var note: MIDINoteMessage? {
            guard type == kMusicEventType_MIDINoteMessage else { return nil }
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: MIDINoteMessage.self) }
        }
    }

    static func events(_ track: MusicTrack) -> [Event] {
        var iterator: MusicEventIterator?
        NewMusicEventIterator(track, &iterator)
        guard let iterator else { return [] }
        defer { DisposeMusicEventIterator(iterator) }
        var result: [Event] = []
        var has: DarwinBoolean = false
        MusicEventIteratorHasCurrentEvent(iterator, &has)
        while has.boolValue {
            var time: MusicTimeStamp = 0
            var type: MusicEventType = 0
            var data: UnsafeRawPointer?
            var size: UInt32 = 0
            MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size)
            result.append(Event(time: time, type: type, bytes: Array(UnsafeRawBufferPointer(start: data, count: Int(size)))))
            MusicEventIteratorNextEvent(iterator)
            MusicEventIteratorHasCurrentEvent(iterator, &has)
        }
        return result
    }

    static func track(_ sequence: MusicSequence, _ index: UInt32) throws -> MusicTrack {
        var track: MusicTrack?
        try #require(MusicSequenceGetIndTrack(sequence, index, &track) == noErr)
        return try #require(track)
    }

    static func tempoTrack(_ sequence: MusicSequence) throws -> MusicTrack {
        var track: MusicTrack?
        try #require(MusicSequenceGetTempoTrack(sequence, &track) == noErr)
        return try #require(track)
    }

    static func newSequence() throws -> MusicSequence {
        var s: MusicSequence?
        try #require(NewMusicSequence(&s) == noErr)
        return try #require(s)
    }

    static func load(_ bytes: [UInt8], flags: MusicSequenceLoadFlags = []) -> (OSStatus, MusicSequence?) {
        var s: MusicSequence?
        NewMusicSequence(&s)
        let status = MusicSequenceFileLoadData(s!, Data(bytes) as CFData, .midiType, flags)
        return (status, s)
    }

    static func fileData(_ sequence: MusicSequence, resolution: Int16 = 0) throws -> [UInt8] {
        var data: Unmanaged<CFData>?
        try #require(MusicSequenceFileCreateData(sequence, .midiType, [], resolution, &data) == noErr)
        return [UInt8](try #require(data).takeRetainedValue() as Data)
    }

    static func addNote(_ track: MusicTrack, _ time: Double, _ note: UInt8, _ duration: Float32, channel: UInt8 = 0, velocity: UInt8 = 100,
                        release: UInt8 = 0) {
        var m = MIDINoteMessage(channel: channel, note: note, velocity: velocity, releaseVelocity: release, duration: duration)
        MusicTrackNewMIDINoteEvent(track, time, &m)
    }

    /// A meta event's bytes as MusicTrackNewMetaEvent takes them.
    static func addMeta(_ track: MusicTrack, _ time: Double, _ type: UInt8, _ data: [UInt8]) {
        var raw = [type, 0, 0, 0] + withUnsafeBytes(of: UInt32(data.count).littleEndian) { Array($0) } + data + [0]
        _ = raw.withUnsafeMutableBytes { MusicTrackNewMetaEvent(track, time, $0.baseAddress!.assumingMemoryBound(to: MIDIMetaEvent.self)) }
    }

    /// Bytes of a Standard MIDI File.
    static func vlq(_ v: Int) -> [UInt8] {
        var bytes = [UInt8(v & 0x7F)]
        var x = v >> 7
        while x > 0 { bytes.insert(UInt8(x & 0x7F) | 0x80, at: 0); x >>= 7 }
        return bytes
    }
    static func header(format: UInt16, tracks: UInt16, division: UInt16) -> [UInt8] {
        Array("MThd".utf8) + [0, 0, 0, 6] + FileSupport.be(UInt64(format), 2) + FileSupport.be(UInt64(tracks), 2) + FileSupport.be(UInt64(division), 2)
    }
    static func chunk(_ body: [UInt8]) -> [UInt8] { Array("MTrk".utf8) + FileSupport.be(UInt64(body.count), 4) + body }

    /// Runs a Python script (mido must be installed: scripts/setup.sh installs it).
    static func python(_ script: String, _ args: [String] = []) throws -> String {
        let (status, out) = try FileSupport.run("/usr/bin/env", ["python3", "-c", script] + args)
        try #require(status == 0, "python3 failed (is mido installed? scripts/setup.sh installs it): \(out)")
        return out
    }
}
