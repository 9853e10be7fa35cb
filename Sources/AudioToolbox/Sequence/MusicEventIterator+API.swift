import Foundation

// Music event iterators (MusicPlayer.h) with Apple's Swift signatures.

private func withIterator(_ iterator: MusicEventIterator?, _ body: (MusicEventIteratorObject) -> OSStatus) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    guard let i = MusicEventIteratorObject.handles.object(iterator.map { UnsafeMutableRawPointer($0) }, as: MusicEventIteratorObject.self) else {
        return kAudio_ParamError
    }
    guard i.track.handle != nil else { return kAudioToolboxErr_TrackNotFound }  // its track was disposed
    return body(i)
}

/// Apple's `NewMusicEventIterator`: an iterator at the track's first event.
@discardableResult
public func NewMusicEventIterator(_ inTrack: MusicTrack, _ outIterator: UnsafeMutablePointer<MusicEventIterator?>) -> OSStatus {
    withTrack(inTrack) { t in
        outIterator.pointee = OpaquePointer(MusicEventIteratorObject.handles.add(MusicEventIteratorObject(track: t)))
        return noErr
    }
}

/// Apple's `DisposeMusicEventIterator`.
@discardableResult
public func DisposeMusicEventIterator(_ inIterator: MusicEventIterator) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    guard MusicEventIteratorObject.handles.remove(UnsafeMutableRawPointer(inIterator), as: MusicEventIteratorObject.self) != nil else {
        return kAudio_ParamError
    }
    return noErr
}

/// Apple's `MusicEventIteratorSeek`: to the first event at or after the time (kMusicTimeStamp_EndOfTrack: past the last).
@discardableResult
public func MusicEventIteratorSeek(_ inIterator: MusicEventIterator, _ inTimeStamp: MusicTimeStamp) -> OSStatus {
    withIterator(inIterator) { i in
        i.index = inTimeStamp >= kMusicTimeStamp_EndOfTrack ? i.track.events.count : i.track.firstIndex(atOrAfter: inTimeStamp)
        return noErr
    }
}

/// Apple's `MusicEventIteratorNextEvent`: from the last event to past the end; past the end is kAudioToolboxErr_EndOfTrack.
@discardableResult
public func MusicEventIteratorNextEvent(_ inIterator: MusicEventIterator) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.hasCurrent else { return kAudioToolboxErr_EndOfTrack }
        i.index += 1
        return noErr
    }
}

/// Apple's `MusicEventIteratorPreviousEvent`: kAudioToolboxErr_StartOfTrack at the first event.
@discardableResult
public func MusicEventIteratorPreviousEvent(_ inIterator: MusicEventIterator) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.position > 0 else { return kAudioToolboxErr_StartOfTrack }
        i.index -= 1
        return noErr
    }
}

/// Apple's `MusicEventIteratorGetEventInfo`: the current event's time, type, data (owned by the track,
/// read-only, valid until the event is changed) and data size.
@discardableResult
public func MusicEventIteratorGetEventInfo(_ inIterator: MusicEventIterator, _ outTimeStamp: UnsafeMutablePointer<MusicTimeStamp>,
                                           _ outEventType: UnsafeMutablePointer<MusicEventType>,
                                           _ outEventData: UnsafeMutablePointer<UnsafeRawPointer?>,
                                           _ outEventDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.hasCurrent else { return kAudioToolboxErr_EndOfTrack }
        let e = i.track.events[i.index]
        outTimeStamp.pointee = e.time
        outEventType.pointee = e.type
        outEventData.pointee = UnsafeRawPointer(e.payload.bytes)
        outEventDataSize.pointee = UInt32(e.payload.size)
        return noErr
    }
}

/// Apple's `MusicEventIteratorSetEventInfo`: replaces the current event's type and data (not its time).
@discardableResult
public func MusicEventIteratorSetEventInfo(_ inIterator: MusicEventIterator, _ inEventType: MusicEventType, _ inEventData: UnsafeRawPointer) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.hasCurrent else { return kAudioToolboxErr_EndOfTrack }
        guard let payload = MusicEventRecord.payload(type: inEventType, data: inEventData) else { return kAudioToolboxErr_InvalidEventType }
        i.track.events[i.index].type = inEventType
        i.track.events[i.index].payload = payload
        i.track.sequence?.edited()
        return noErr
    }
}

/// Apple's `MusicEventIteratorSetEventTime`: moves the current event; the iterator stays on it.
@discardableResult
public func MusicEventIteratorSetEventTime(_ inIterator: MusicEventIterator, _ inTimeStamp: MusicTimeStamp) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.hasCurrent else { return kAudioToolboxErr_EndOfTrack }
        guard inTimeStamp.isFinite, inTimeStamp >= 0 else { return kAudio_ParamError }
        let e = i.track.events.remove(at: i.index)
        i.index = i.track.insert(e.moved(to: inTimeStamp))
        i.track.sequence?.edited()
        return noErr
    }
}

/// Apple's `MusicEventIteratorDeleteEvent`: removes the current event; the iterator moves to the next one.
@discardableResult
public func MusicEventIteratorDeleteEvent(_ inIterator: MusicEventIterator) -> OSStatus {
    withIterator(inIterator) { i in
        guard i.hasCurrent else { return kAudioToolboxErr_EndOfTrack }
        i.track.events.remove(at: i.index)
        i.track.sequence?.edited()
        return noErr
    }
}

/// Apple's `MusicEventIteratorHasPreviousEvent`: whether an event precedes the position.
@discardableResult
public func MusicEventIteratorHasPreviousEvent(_ inIterator: MusicEventIterator, _ outHasPrevEvent: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withIterator(inIterator) { i in
        outHasPrevEvent.pointee = DarwinBoolean(i.position > 0)
        return noErr
    }
}

/// Apple's `MusicEventIteratorHasNextEvent`. As Apple's does (and the loops written against it expect), it
/// is true while the iterator is on an event, the last included; false only past the end.
@discardableResult
public func MusicEventIteratorHasNextEvent(_ inIterator: MusicEventIterator, _ outHasNextEvent: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withIterator(inIterator) { i in
        outHasNextEvent.pointee = DarwinBoolean(i.hasCurrent)
        return noErr
    }
}

/// Apple's `MusicEventIteratorHasCurrentEvent`: whether the iterator is on an event (not past the end).
@discardableResult
public func MusicEventIteratorHasCurrentEvent(_ inIterator: MusicEventIterator, _ outHasCurEvent: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withIterator(inIterator) { i in
        outHasCurEvent.pointee = DarwinBoolean(i.hasCurrent)
        return noErr
    }
}
