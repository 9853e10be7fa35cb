// The MusicSequence data calls Apple deprecated in macOS 10.5 (still imported by 64-bit Swift), over the
// current MusicSequenceFileLoadData / MusicSequenceFileCreateData, and NewMusicTrackFrom (deprecated in 10.6) over
// MusicSequenceNewTrack and MusicTrackCopyInsert. MusicSequenceLoadSMFData (32-bit only) and
// the FSRef calls (MusicSequenceLoadSMFWithFlags, MusicSequenceSaveMIDIFile) are not here: Swift on 64-bit
// macOS cannot call the first, and FSRef does not exist here.

/// Apple's deprecated `MusicSequenceLoadSMFDataWithFlags`: adds a Standard MIDI File's tracks and tempo map, as
/// MusicSequenceFileLoadData with the MIDI type. Flags other than zero need an empty sequence (Apple's header:
/// kAudio_ParamError if the sequence has any data and the flags are not zero).
@discardableResult
public func MusicSequenceLoadSMFDataWithFlags(_ inSequence: MusicSequence, _ inData: CFData, _ inFlags: MusicSequenceLoadFlags) -> OSStatus {
    if !inFlags.isEmpty {
        var tracks: UInt32 = 0
        let status = MusicSequenceGetTrackCount(inSequence, &tracks)
        guard status == noErr else { return status }
        guard tracks == 0 else { return kAudio_ParamError }
    }
    return MusicSequenceFileLoadData(inSequence, inData, .midiType, inFlags)
}

/// Apple's deprecated `MusicSequenceSaveSMFData`: the sequence as a Standard MIDI File, as
/// MusicSequenceFileCreateData with the MIDI type (`inResolution` ticks per quarter note; 0: the sequence's own).
@discardableResult
public func MusicSequenceSaveSMFData(_ inSequence: MusicSequence, _ outData: UnsafeMutablePointer<Unmanaged<CFData>?>,
                                     _ inResolution: UInt16) -> OSStatus {
    MusicSequenceFileCreateData(inSequence, .midiType, [], Int16(truncatingIfNeeded: inResolution), outData)
}

/// Apple's deprecated `NewMusicTrackFrom`: a new track in the source track's sequence holding copies of the source's
/// events from `inSourceStartTime` up to `inSourceEndTime`, moved so that the start time is the new track's beat 0
/// (as MusicTrackCopyInsert into an empty track at 0).
@discardableResult
public func NewMusicTrackFrom(_ inSourceTrack: MusicTrack, _ inSourceStartTime: MusicTimeStamp, _ inSourceEndTime: MusicTimeStamp,
                              _ outNewTrack: UnsafeMutablePointer<MusicTrack?>) -> OSStatus {
    guard inSourceStartTime >= 0, inSourceEndTime > inSourceStartTime else { return kAudio_ParamError }
    var sequence: MusicSequence?
    var status = MusicTrackGetSequence(inSourceTrack, &sequence)
    guard status == noErr, let sequence else { return status == noErr ? kAudio_ParamError : status }
    var track: MusicTrack?
    status = MusicSequenceNewTrack(sequence, &track)
    guard status == noErr, let track else { return status }
    status = MusicTrackCopyInsert(inSourceTrack, inSourceStartTime, inSourceEndTime, track, 0)
    guard status == noErr else {
        MusicSequenceDisposeTrack(sequence, track)
        return status
    }
    outNewTrack.pointee = track
    return noErr
}
