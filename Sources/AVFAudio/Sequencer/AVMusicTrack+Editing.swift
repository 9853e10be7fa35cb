import Foundation

/// The block `enumerateEvents(in:using:)` calls for each event: setting the time moves the event, setting the flag
/// removes it, and changing the event object changes the track's event.
public typealias AVMusicEventEnumerationBlock = (AVMusicEvent, UnsafeMutablePointer<AVMusicTimeStamp>, UnsafeMutablePointer<ObjCBool>) -> Void

// AVMusicTrack's editing API (macOS 13), on the MusicTrack calls: events are copied in, ranges are [start, start +
// length) and a length of AVMusicTimeStampEndOfTrack reaches past the last event.
extension AVMusicTrack {
    /// The end of a beat range as the MusicTrack calls take it; nil for a range they would refuse.
    private func end(of range: AVBeatRange) -> MusicTimeStamp? {
        guard range.start >= 0, range.start.isFinite, range.length > 0, !range.length.isNaN else { return nil }
        return range.length >= kMusicTimeStamp_EndOfTrack ? kMusicTimeStamp_EndOfTrack : min(range.start + range.length, kMusicTimeStamp_EndOfTrack)
    }

    /// Whether the track holds parameter automation (kSequenceTrackProperty_AutomatedParameters).
    public var usesAutomatedParameters: Bool {
        get {
            var value: UInt32 = 0
            var size = UInt32(MemoryLayout<UInt32>.size)
            MusicTrackGetProperty(track, kSequenceTrackProperty_AutomatedParameters, &value, &size)
            return value != 0
        }
        set {
            // Apple raises an exception for a track that already holds other events; here the track stays as it is.
            if newValue && !hasOnlyParameterEvents {
                Self.refuse("usesAutomatedParameters: the track holds events other than parameter events")
                return
            }
            var value: UInt32 = newValue ? 1 : 0
            MusicTrackSetProperty(track, kSequenceTrackProperty_AutomatedParameters, &value, UInt32(MemoryLayout<UInt32>.size))
        }
    }

    /// Adds a copy of the event's content at `beat` (the same event may be added at several beats).
    ///
    /// Apple's rules for which track takes which event hold: the tempo track takes only AVExtendedTempoEvents and
    /// tempo, SMPTE offset and time signature meta events (which no other track takes); automation tracks take only
    /// AVParameterEvents, and a parameter event added to an empty track makes it an automation track. Apple raises
    /// an exception for an event that breaks them; here the event is not added and the reason goes to standard error.
    public func addEvent(_ event: AVMusicEvent, at beat: AVMusicTimeStamp) {
        guard let (type, bytes) = event.musicEvent else { return }
        if let reason = refusal(of: event) {
            Self.refuse("addEvent(_:at:): \(reason)")
            return
        }
        if event is AVParameterEvent && !usesAutomatedParameters { usesAutomatedParameters = true }
        withExtendedLifetime(event) { _ = Self.add(type, bytes, at: beat, to: track) }
    }

    /// Why `event` may not go into this track, or nil when it may.
    private func refusal(of event: AVMusicEvent) -> String? {
        let tempoOnly: Bool
        if event is AVExtendedTempoEvent {
            tempoOnly = true
        } else if let meta = event as? AVMIDIMetaEvent {
            tempoOnly = [.tempo, .smpteOffset, .timeSignature].contains(meta.type)
        } else {
            tempoOnly = false
        }
        if isTempoTrack {
            return tempoOnly ? nil : "the tempo track takes only tempo events and tempo, SMPTE offset and time signature meta events"
        }
        if tempoOnly { return "tempo events and tempo, SMPTE offset and time signature meta events go only to the tempo track" }
        if event is AVParameterEvent {
            return usesAutomatedParameters || isEmpty ? nil : "parameter events go only to automation tracks (or an empty track)"
        }
        return usesAutomatedParameters ? "an automation track takes only parameter events" : nil
    }

    /// Whether this is its sequence's tempo track.
    private var isTempoTrack: Bool {
        var sequence: MusicSequence?
        var tempo: MusicTrack?
        guard MusicTrackGetSequence(track, &sequence) == noErr, let sequence, MusicSequenceGetTempoTrack(sequence, &tempo) == noErr else {
            return false
        }
        return tempo == track
    }

    /// Whether the track holds no event.
    private var isEmpty: Bool { eventTypes().isEmpty }

    /// Whether every event the track holds is a parameter event (true for an empty track).
    private var hasOnlyParameterEvents: Bool { eventTypes().allSatisfy { $0 == kMusicEventType_Parameter } }

    /// The types of the track's events, in order.
    private func eventTypes() -> [MusicEventType] {
        var iterator: MusicEventIterator?
        guard NewMusicEventIterator(track, &iterator) == noErr, let iterator else { return [] }
        defer { DisposeMusicEventIterator(iterator) }
        var types: [MusicEventType] = []
        var has: DarwinBoolean = false
        while MusicEventIteratorHasCurrentEvent(iterator, &has) == noErr, has.boolValue {
            var time: MusicTimeStamp = 0
            var type: MusicEventType = 0
            var data: UnsafeRawPointer?
            var size: UInt32 = 0
            MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size)
            types.append(type)
            MusicEventIteratorNextEvent(iterator)
        }
        return types
    }

    private static func refuse(_ message: String) {
        FileHandle.standardError.write(Data("AVMusicTrack \(message); not done\n".utf8))
    }

    /// Adds MusicPlayer event data of a type to a track through the type's MusicTrackNew call.
    @discardableResult
    static func add(_ type: MusicEventType, _ bytes: [UInt8], at beat: MusicTimeStamp, to track: MusicTrack) -> OSStatus {
        bytes.withUnsafeBytes { raw -> OSStatus in
            guard let p = raw.baseAddress else { return kAudio_ParamError }
            switch type {
            case kMusicEventType_MIDINoteMessage: return MusicTrackNewMIDINoteEvent(track, beat, p.assumingMemoryBound(to: MIDINoteMessage.self))
            case kMusicEventType_MIDIChannelMessage: return MusicTrackNewMIDIChannelEvent(track, beat, p.assumingMemoryBound(to: MIDIChannelMessage.self))
            case kMusicEventType_MIDIRawData: return MusicTrackNewMIDIRawDataEvent(track, beat, p.assumingMemoryBound(to: MIDIRawData.self))
            case kMusicEventType_User: return MusicTrackNewUserEvent(track, beat, p.assumingMemoryBound(to: MusicEventUserData.self))
            case kMusicEventType_Meta: return MusicTrackNewMetaEvent(track, beat, p.assumingMemoryBound(to: MIDIMetaEvent.self))
            case kMusicEventType_ExtendedNote: return MusicTrackNewExtendedNoteEvent(track, beat, p.assumingMemoryBound(to: ExtendedNoteOnEvent.self))
            case kMusicEventType_Parameter: return MusicTrackNewParameterEvent(track, beat, p.assumingMemoryBound(to: ParameterEvent.self))
            case kMusicEventType_AUPreset: return MusicTrackNewAUPresetEvent(track, beat, p.assumingMemoryBound(to: AUPresetEvent.self))
            case kMusicEventType_ExtendedControl: return MusicTrackNewExtendedControlEvent(track, beat, p.assumingMemoryBound(to: ExtendedControlEvent.self))
            case kMusicEventType_ExtendedTempo: return MusicTrackNewExtendedTempoEvent(track, beat, p.loadUnaligned(as: Float64.self))
            default: return kAudioToolboxErr_InvalidEventType
            }
        }
    }

    /// Shifts the events in the range by `beatAmount` beats (negative: earlier, never before beat 0).
    public func moveEvents(in range: AVBeatRange, by beatAmount: AVMusicTimeStamp) {
        guard let end = end(of: range) else { return }
        MusicTrackMoveEvents(track, range.start, end, beatAmount)
    }

    /// Removes the events in the range; later events stay where they are.
    public func clearEvents(in range: AVBeatRange) {
        guard let end = end(of: range) else { return }
        MusicTrackClear(track, range.start, end)
    }

    /// Removes the events in the range and moves later events earlier by the range's length.
    public func cutEvents(in range: AVBeatRange) {
        guard let end = end(of: range) else { return }
        MusicTrackCut(track, range.start, end)
    }

    /// Copies the source's events in the range to `insertStartBeat`, moving this track's events at and after it
    /// later by the range's length.
    public func copyEvents(in range: AVBeatRange, from sourceTrack: AVMusicTrack, insertAt insertStartBeat: AVMusicTimeStamp) {
        guard let end = end(of: range) else { return }
        MusicTrackCopyInsert(sourceTrack.track, range.start, end, track, insertStartBeat)
    }

    /// Copies the source's events in the range to `mergeStartBeat`, among this track's events (none move).
    public func copyAndMergeEvents(in range: AVBeatRange, from sourceTrack: AVMusicTrack, mergeAt mergeStartBeat: AVMusicTimeStamp) {
        guard let end = end(of: range) else { return }
        MusicTrackMerge(sourceTrack.track, range.start, end, track, mergeStartBeat)
    }

    /// Calls `block` for each event in the range, in time order, with a new event object, its beat and a removal
    /// flag. The events handed out are read first; moves, removals and changes are applied after the last call,
    /// so a moved event is never visited twice.
    public func enumerateEvents(in range: AVBeatRange, using block: AVMusicEventEnumerationBlock) {
        guard let end = end(of: range) else { return }
        struct Read { var time: MusicTimeStamp; var type: MusicEventType; var bytes: [UInt8]; var retained: AnyObject? }
        var read: [Read] = []
        var iterator: MusicEventIterator?
        guard NewMusicEventIterator(track, &iterator) == noErr, let iterator else { return }
        defer { DisposeMusicEventIterator(iterator) }
        MusicEventIteratorSeek(iterator, range.start)
        var has = DarwinBoolean(false)
        while MusicEventIteratorHasCurrentEvent(iterator, &has) == noErr, has.boolValue {
            var time: MusicTimeStamp = 0, type: MusicEventType = 0, data: UnsafeRawPointer?, size: UInt32 = 0
            guard MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size) == noErr, let data, time < end else { break }
            // A preset event's bytes point at its preset, which the track's event retains; keep it for re-adding.
            let retained: AnyObject? = type == kMusicEventType_AUPreset ? data.loadUnaligned(as: AUPresetEvent.self).preset.takeUnretainedValue() : nil
            read.append(Read(time: time, type: type, bytes: Array(UnsafeRawBufferPointer(start: data, count: Int(size))), retained: retained))
            MusicEventIteratorNextEvent(iterator)
        }
        var result: [(time: MusicTimeStamp, type: MusicEventType, bytes: [UInt8], event: AVMusicEvent?)] = []
        var changed = false
        for r in read {
            let event = r.bytes.withUnsafeBytes { AVMusicEvent.make(type: r.type, data: $0.baseAddress!, size: $0.count) }
            // What the untouched event object gives, to tell whether the block changed it.
            let before = event.musicEvent?.bytes
            var time = r.time
            var remove = ObjCBool(false)
            block(event, &time, &remove)
            if remove.boolValue { changed = true; continue }
            if time != r.time { changed = true }
            if let now = event.musicEvent, now.bytes != before {
                changed = true
                result.append((time, now.type, now.bytes, event))
            } else {
                result.append((time, r.type, r.bytes, nil))
            }
        }
        guard changed else { return }
        withExtendedLifetime(read) {
            MusicTrackClear(track, range.start, end)
            for e in result where e.time.isFinite && e.time >= 0 {
                withExtendedLifetime(e.event) { _ = Self.add(e.type, e.bytes, at: e.time, to: track) }
            }
        }
    }
}
