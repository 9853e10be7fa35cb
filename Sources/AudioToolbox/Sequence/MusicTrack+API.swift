import CoreMIDI
import Foundation

// Music tracks (MusicPlayer.h): destinations, properties, new events and editing, with Apple's Swift
// signatures. Time ranges are [start, end); kMusicTimeStamp_EndOfTrack as the end takes every event.

func withTrack(_ track: MusicTrack?, _ body: (MusicTrackObject) -> OSStatus) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    guard let t = MusicTrackObject.handles.object(track.map { UnsafeMutableRawPointer($0) }, as: MusicTrackObject.self) else {
        return kAudio_ParamError
    }
    return body(t)
}

/// `withTrack` for a change: a player playing the track's sequence picks it up.
func editTrack(_ track: MusicTrack?, _ body: (MusicTrackObject) -> OSStatus) -> OSStatus {
    withTrack(track) { t in
        let status = body(t)
        if status == noErr { t.sequence?.edited() }
        return status
    }
}

private func validRange(_ start: MusicTimeStamp, _ end: MusicTimeStamp) -> Bool { start >= 0 && start.isFinite && end > start }

/// Apple's `MusicTrackGetSequence`.
@discardableResult
public func MusicTrackGetSequence(_ inTrack: MusicTrack, _ outSequence: UnsafeMutablePointer<MusicSequence?>) -> OSStatus {
    withTrack(inTrack) { t in
        outSequence.pointee = t.sequence?.handle
        return noErr
    }
}

/// Apple's `MusicTrackSetDestNode`: the graph node (of the sequence's graph) the track's events go to.
@discardableResult
public func MusicTrackSetDestNode(_ inTrack: MusicTrack, _ inNode: AUNode) -> OSStatus {
    editTrack(inTrack) { t in
        if let graph = t.sequence?.graph ?? t.sequence?.ownedGraph {
            var d = AudioComponentDescription()
            guard AUGraphNodeInfo(graph, inNode, &d, nil) == noErr else { return kAUGraphErr_NodeNotFound }
        }
        t.destNode = inNode
        t.destEndpoint = nil
        return noErr
    }
}

/// Apple's `MusicTrackSetDestMIDIEndpoint`: the MIDI endpoint (destination, or a virtual source) the events go to.
@discardableResult
public func MusicTrackSetDestMIDIEndpoint(_ inTrack: MusicTrack, _ inEndpoint: MIDIEndpointRef) -> OSStatus {
    editTrack(inTrack) { t in
        t.destEndpoint = inEndpoint
        t.destNode = nil
        return noErr
    }
}

/// Apple's `MusicTrackGetDestNode`: kAudioToolboxErr_IllegalTrackDestination when the track plays to a MIDI
/// endpoint, kAudioToolboxError_NoTrackDestination when none was set.
@discardableResult
public func MusicTrackGetDestNode(_ inTrack: MusicTrack, _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    withTrack(inTrack) { t in
        if t.destEndpoint != nil { return kAudioToolboxErr_IllegalTrackDestination }
        guard let node = t.destNode ?? t.sequence?.defaultNode() else { return kAudioToolboxError_NoTrackDestination }
        outNode.pointee = node
        return noErr
    }
}

/// Apple's `MusicTrackGetDestMIDIEndpoint`: kAudioToolboxErr_IllegalTrackDestination when the track plays to a node.
@discardableResult
public func MusicTrackGetDestMIDIEndpoint(_ inTrack: MusicTrack, _ outEndpoint: UnsafeMutablePointer<MIDIEndpointRef>) -> OSStatus {
    withTrack(inTrack) { t in
        guard let e = t.destEndpoint else { return kAudioToolboxErr_IllegalTrackDestination }
        outEndpoint.pointee = e
        return noErr
    }
}

private func propertySize(_ id: UInt32) -> Int? {
    switch id {
    case kSequenceTrackProperty_LoopInfo: MemoryLayout<MusicTrackLoopInfo>.size
    case kSequenceTrackProperty_OffsetTime, kSequenceTrackProperty_TrackLength: MemoryLayout<MusicTimeStamp>.size
    case kSequenceTrackProperty_MuteStatus, kSequenceTrackProperty_SoloStatus: MemoryLayout<DarwinBoolean>.size
    case kSequenceTrackProperty_AutomatedParameters: MemoryLayout<UInt32>.size
    case kSequenceTrackProperty_TimeResolution: MemoryLayout<Int16>.size
    default: nil
    }
}

/// Apple's `MusicTrackSetProperty`: loop info, offset, mute, solo, automated parameters, track length (the
/// time resolution is read-only). A value of the wrong size is kAudio_ParamError.
@discardableResult
public func MusicTrackSetProperty(_ inTrack: MusicTrack, _ inPropertyID: UInt32, _ inData: UnsafeMutableRawPointer, _ inLength: UInt32) -> OSStatus {
    editTrack(inTrack) { t in
        guard let size = propertySize(inPropertyID) else { return kAudio_ParamError }
        guard Int(inLength) >= size, inPropertyID != kSequenceTrackProperty_TimeResolution else { return kAudio_ParamError }
        switch inPropertyID {
        case kSequenceTrackProperty_LoopInfo:
            let info = inData.loadUnaligned(as: MusicTrackLoopInfo.self)
            guard info.loopDuration >= 0, info.loopDuration.isFinite, info.numberOfLoops >= 0 else { return kAudio_ParamError }
            t.loopInfo = info
        case kSequenceTrackProperty_OffsetTime:
            let v = inData.loadUnaligned(as: MusicTimeStamp.self)
            guard v.isFinite else { return kAudio_ParamError }
            t.offset = v
        case kSequenceTrackProperty_MuteStatus: t.muted = inData.load(as: UInt8.self) != 0
        case kSequenceTrackProperty_SoloStatus: t.soloed = inData.load(as: UInt8.self) != 0
        case kSequenceTrackProperty_AutomatedParameters: t.automatedParameters = inData.loadUnaligned(as: UInt32.self)
        default:
            let v = inData.loadUnaligned(as: MusicTimeStamp.self)
            guard v >= 0, v.isFinite else { return kAudio_ParamError }
            t.userLength = v
        }
        return noErr
    }
}

/// Apple's `MusicTrackGetProperty`: the value and its size (a buffer smaller than the value is
/// kAudio_ParamError). The time resolution is the tempo track's (other tracks answer kAudio_ParamError).
@discardableResult
public func MusicTrackGetProperty(_ inTrack: MusicTrack, _ inPropertyID: UInt32, _ outData: UnsafeMutableRawPointer,
                                  _ ioLength: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withTrack(inTrack) { t in
        guard let size = propertySize(inPropertyID) else { return kAudio_ParamError }
        if inPropertyID == kSequenceTrackProperty_TimeResolution && !t.isTempoTrack { return kAudio_ParamError }
        guard Int(ioLength.pointee) >= size else { return kAudio_ParamError }
        switch inPropertyID {
        case kSequenceTrackProperty_LoopInfo: outData.storeBytes(of: t.loopInfo, as: MusicTrackLoopInfo.self)
        case kSequenceTrackProperty_OffsetTime: outData.storeBytes(of: t.offset, as: MusicTimeStamp.self)
        case kSequenceTrackProperty_MuteStatus: outData.storeBytes(of: t.muted ? 1 : 0, as: UInt8.self)
        case kSequenceTrackProperty_SoloStatus: outData.storeBytes(of: t.soloed ? 1 : 0, as: UInt8.self)
        case kSequenceTrackProperty_AutomatedParameters: outData.storeBytes(of: t.automatedParameters, as: UInt32.self)
        case kSequenceTrackProperty_TrackLength: outData.storeBytes(of: t.length, as: MusicTimeStamp.self)
        default: outData.storeBytes(of: t.sequence?.resolution ?? 480, as: Int16.self)
        }
        ioLength.pointee = UInt32(size)
        return noErr
    }
}

/// Apple's `MusicTrackMoveEvents`: shifts the events in [start, end) by `inMoveTime` beats (negative: earlier;
/// never before 0).
@discardableResult
public func MusicTrackMoveEvents(_ inTrack: MusicTrack, _ inStartTime: MusicTimeStamp, _ inEndTime: MusicTimeStamp, _ inMoveTime: MusicTimeStamp) -> OSStatus {
    editTrack(inTrack) { t in
        guard validRange(inStartTime, inEndTime), inMoveTime.isFinite else { return kAudio_ParamError }
        t.moveEvents(inStartTime, inEndTime, by: inMoveTime)
        return noErr
    }
}

/// Apple's `MusicTrackClear`: removes the events in [start, end); later events stay where they are.
@discardableResult
public func MusicTrackClear(_ inTrack: MusicTrack, _ inStartTime: MusicTimeStamp, _ inEndTime: MusicTimeStamp) -> OSStatus {
    editTrack(inTrack) { t in
        guard validRange(inStartTime, inEndTime) else { return kAudio_ParamError }
        t.clear(inStartTime, inEndTime)
        return noErr
    }
}

/// Apple's `MusicTrackCut`: removes the events in [start, end) and moves later events back by the range's length.
@discardableResult
public func MusicTrackCut(_ inTrack: MusicTrack, _ inStartTime: MusicTimeStamp, _ inEndTime: MusicTimeStamp) -> OSStatus {
    editTrack(inTrack) { t in
        guard validRange(inStartTime, inEndTime) else { return kAudio_ParamError }
        t.cut(inStartTime, inEndTime)
        return noErr
    }
}

private func twoTracks(_ source: MusicTrack, _ dest: MusicTrack, _ body: (MusicTrackObject, MusicTrackObject) -> OSStatus) -> OSStatus {
    withTrack(source) { s in
        editTrack(dest) { d in body(s, d) }
    }
}

/// Apple's `MusicTrackCopyInsert`: copies the source's events in [start, end) into the destination at
/// `inDestInsertTime`, moving the destination's events at and after that time later by the range's length.
@discardableResult
public func MusicTrackCopyInsert(_ inSourceTrack: MusicTrack, _ inSourceStartTime: MusicTimeStamp, _ inSourceEndTime: MusicTimeStamp,
                                 _ inDestTrack: MusicTrack, _ inDestInsertTime: MusicTimeStamp) -> OSStatus {
    twoTracks(inSourceTrack, inDestTrack) { s, d in
        guard validRange(inSourceStartTime, inSourceEndTime), inDestInsertTime >= 0, inDestInsertTime.isFinite else { return kAudio_ParamError }
        let copies = s.copies(inSourceStartTime, inSourceEndTime)
        d.copyInsert(copies, duration: s.resolvedEnd(inSourceEndTime) - inSourceStartTime, at: inDestInsertTime)
        return noErr
    }
}

/// Apple's `MusicTrackMerge`: copies the source's events in [start, end) into the destination at
/// `inDestInsertTime`, among its events (nothing moves).
@discardableResult
public func MusicTrackMerge(_ inSourceTrack: MusicTrack, _ inSourceStartTime: MusicTimeStamp, _ inSourceEndTime: MusicTimeStamp,
                            _ inDestTrack: MusicTrack, _ inDestInsertTime: MusicTimeStamp) -> OSStatus {
    twoTracks(inSourceTrack, inDestTrack) { s, d in
        guard validRange(inSourceStartTime, inSourceEndTime), inDestInsertTime >= 0, inDestInsertTime.isFinite else { return kAudio_ParamError }
        d.merge(s.copies(inSourceStartTime, inSourceEndTime), at: inDestInsertTime)
        return noErr
    }
}

private func addEvent(_ track: MusicTrack, _ time: MusicTimeStamp, _ type: MusicEventType, _ data: UnsafeRawPointer) -> OSStatus {
    editTrack(track) { t in
        guard time.isFinite, time >= 0 else { return kAudio_ParamError }
        guard let payload = MusicEventRecord.payload(type: type, data: data) else { return kAudio_ParamError }
        t.insert(MusicEventRecord(time: time, type: type, payload: payload))
        return noErr
    }
}

/// Apple's `MusicTrackNewMIDINoteEvent`: a note with its duration.
@discardableResult
public func MusicTrackNewMIDINoteEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inMessage: UnsafePointer<MIDINoteMessage>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_MIDINoteMessage, inMessage)
}

/// Apple's `MusicTrackNewMIDIChannelEvent`: a channel message other than note on/off.
@discardableResult
public func MusicTrackNewMIDIChannelEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inMessage: UnsafePointer<MIDIChannelMessage>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_MIDIChannelMessage, inMessage)
}

/// Apple's `MusicTrackNewMIDIRawDataEvent`: raw MIDI bytes (a SysEx message).
@discardableResult
public func MusicTrackNewMIDIRawDataEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inRawData: UnsafePointer<MIDIRawData>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_MIDIRawData, inRawData)
}

/// Apple's `MusicTrackNewExtendedNoteEvent`: a note with fractional pitch and extra parameters.
@discardableResult
public func MusicTrackNewExtendedNoteEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inInfo: UnsafePointer<ExtendedNoteOnEvent>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_ExtendedNote, inInfo)
}

/// Apple's `MusicTrackNewParameterEvent`: sets an audio unit parameter of the track's destination node.
@discardableResult
public func MusicTrackNewParameterEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inInfo: UnsafePointer<ParameterEvent>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_Parameter, inInfo)
}

/// Apple's `MusicTrackNewExtendedTempoEvent`: a tempo change (only the tempo track's count).
@discardableResult
public func MusicTrackNewExtendedTempoEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inBPM: Float64) -> OSStatus {
    guard inBPM.isFinite, inBPM > 0 else { return kAudio_ParamError }
    var event = ExtendedTempoEvent(bpm: inBPM)
    return addEvent(inTrack, inTimeStamp, kMusicEventType_ExtendedTempo, &event)
}

/// Apple's `MusicTrackNewMetaEvent`: a Standard MIDI File meta event.
@discardableResult
public func MusicTrackNewMetaEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inMetaEvent: UnsafePointer<MIDIMetaEvent>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_Meta, inMetaEvent)
}

/// Apple's `MusicTrackNewUserEvent`: data handed to the sequence's user callback when played.
@discardableResult
public func MusicTrackNewUserEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inUserData: UnsafePointer<MusicEventUserData>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_User, inUserData)
}

/// Apple's `MusicTrackNewAUPresetEvent`: a preset for the destination unit (the preset is retained).
@discardableResult
public func MusicTrackNewAUPresetEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inPresetEvent: UnsafePointer<AUPresetEvent>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_AUPreset, inPresetEvent)
}

/// Apple's `MusicTrackNewExtendedControlEvent` (deprecated): a control change on a group.
@discardableResult
public func MusicTrackNewExtendedControlEvent(_ inTrack: MusicTrack, _ inTimeStamp: MusicTimeStamp, _ inInfo: UnsafePointer<ExtendedControlEvent>) -> OSStatus {
    addEvent(inTrack, inTimeStamp, kMusicEventType_ExtendedControl, inInfo)
}
