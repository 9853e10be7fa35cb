import CoreMIDI
import Foundation

// Music sequences (MusicPlayer.h) with Apple's Swift signatures: tracks, destinations, Standard MIDI
// Files, the tempo map and bar/beat conversion. Every call runs under MusicSequenceObject.lock.

/// Apple's `kMusicTimeStamp_EndOfTrack`: a time past any event (DBL_MAX).
public let kMusicTimeStamp_EndOfTrack: MusicTimeStamp = .greatestFiniteMagnitude

func withSequence(_ sequence: MusicSequence?, _ body: (MusicSequenceObject) -> OSStatus) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    guard let s = MusicSequenceObject.handles.object(sequence.map { UnsafeMutableRawPointer($0) }, as: MusicSequenceObject.self) else {
        return kAudio_ParamError
    }
    return body(s)
}

/// Apple's `NewMusicSequence`: an empty, beat-based sequence with only its tempo track (120 BPM).
@discardableResult
public func NewMusicSequence(_ outSequence: UnsafeMutablePointer<MusicSequence?>) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    outSequence.pointee = MusicSequenceObject().activate()
    return noErr
}

/// Apple's `DisposeMusicSequence`: fails with kAudioToolboxErr_InvalidPlayerState while a player has it.
@discardableResult
public func DisposeMusicSequence(_ inSequence: MusicSequence) -> OSStatus {
    withSequence(inSequence) { s in
        guard s.player == nil else { return kAudioToolboxErr_InvalidPlayerState }
        _ = MusicSequenceObject.handles.remove(UnsafeMutableRawPointer(inSequence), as: MusicSequenceObject.self)
        s.dispose()
        return noErr
    }
}

/// Apple's `MusicSequenceNewTrack`: appends an empty track.
@discardableResult
public func MusicSequenceNewTrack(_ inSequence: MusicSequence, _ outTrack: UnsafeMutablePointer<MusicTrack?>) -> OSStatus {
    withSequence(inSequence) { s in
        outTrack.pointee = s.newTrack().handle
        return noErr
    }
}

/// Apple's `MusicSequenceDisposeTrack`: removes a track (not the tempo track) and frees it.
@discardableResult
public func MusicSequenceDisposeTrack(_ inSequence: MusicSequence, _ inTrack: MusicTrack) -> OSStatus {
    withSequence(inSequence) { s in
        guard let i = s.tracks.firstIndex(where: { $0.handle == inTrack }) else { return kAudioToolboxErr_TrackNotFound }
        s.tracks.remove(at: i).deactivate()
        s.edited()
        return noErr
    }
}

/// Apple's `MusicSequenceGetTrackCount`: the tracks without the tempo track.
@discardableResult
public func MusicSequenceGetTrackCount(_ inSequence: MusicSequence, _ outNumberOfTracks: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withSequence(inSequence) { s in
        outNumberOfTracks.pointee = UInt32(s.tracks.count)
        return noErr
    }
}

/// Apple's `MusicSequenceGetIndTrack`: the track at a zero-based index (the tempo track is not counted).
@discardableResult
public func MusicSequenceGetIndTrack(_ inSequence: MusicSequence, _ inTrackIndex: UInt32, _ outTrack: UnsafeMutablePointer<MusicTrack?>) -> OSStatus {
    withSequence(inSequence) { s in
        guard Int(inTrackIndex) < s.tracks.count else { return kAudioToolboxErr_TrackIndexError }
        outTrack.pointee = s.tracks[Int(inTrackIndex)].handle
        return noErr
    }
}

/// Apple's `MusicSequenceGetTrackIndex`: a track's index; kAudioToolboxErr_TrackNotFound for another sequence's.
@discardableResult
public func MusicSequenceGetTrackIndex(_ inSequence: MusicSequence, _ inTrack: MusicTrack, _ outTrackIndex: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withSequence(inSequence) { s in
        guard let i = s.tracks.firstIndex(where: { $0.handle == inTrack }) else { return kAudioToolboxErr_TrackNotFound }
        outTrackIndex.pointee = UInt32(i)
        return noErr
    }
}

/// Apple's `MusicSequenceGetTempoTrack`: the track holding tempo and time-signature events.
@discardableResult
public func MusicSequenceGetTempoTrack(_ inSequence: MusicSequence, _ outTrack: UnsafeMutablePointer<MusicTrack?>) -> OSStatus {
    withSequence(inSequence) { s in
        outTrack.pointee = s.tempoTrack.handle
        return noErr
    }
}

/// Apple's `MusicSequenceSetAUGraph`: the graph whose first music device plays tracks without a destination
/// node (nil: back to the default graph).
@discardableResult
public func MusicSequenceSetAUGraph(_ inSequence: MusicSequence, _ inGraph: AUGraph?) -> OSStatus {
    withSequence(inSequence) { s in
        guard !s.isPlaying else { return kAudioToolboxErr_InvalidPlayerState }
        s.graph = inGraph
        return noErr
    }
}

/// Apple's `MusicSequenceGetAUGraph`: the graph set, or a default one made on first request (a music device,
/// DLSSynth where present else AUSampler or MIDISynth, into the default output).
@discardableResult
public func MusicSequenceGetAUGraph(_ inSequence: MusicSequence, _ outGraph: UnsafeMutablePointer<AUGraph?>) -> OSStatus {
    withSequence(inSequence) { s in
        if let g = s.graph ?? s.ownedGraph {
            outGraph.pointee = g
            return noErr
        }
        let status = s.makeDefaultGraph()
        guard status == noErr else { return status }
        outGraph.pointee = s.ownedGraph
        return noErr
    }
}

/// Apple's `MusicSequenceSetMIDIEndpoint`: aims every track at a MIDI endpoint.
@discardableResult
public func MusicSequenceSetMIDIEndpoint(_ inSequence: MusicSequence, _ inEndpoint: MIDIEndpointRef) -> OSStatus {
    withSequence(inSequence) { s in
        for t in s.tracks {
            t.destEndpoint = inEndpoint
            t.destNode = nil
        }
        s.edited()
        return noErr
    }
}

/// Apple's `MusicSequenceSetSequenceType`: beats always; seconds or samples only while the tempo track has
/// no tempo events (kAudioToolboxErr_InvalidSequenceType otherwise).
@discardableResult
public func MusicSequenceSetSequenceType(_ inSequence: MusicSequence, _ inType: MusicSequenceType) -> OSStatus {
    withSequence(inSequence) { s in
        guard [.beats, .seconds, .samples].contains(inType) else { return kAudio_ParamError }
        if inType != .beats && s.tempoTrack.events.contains(where: { $0.type == kMusicEventType_ExtendedTempo }) {
            return kAudioToolboxErr_InvalidSequenceType
        }
        s.type = inType
        return noErr
    }
}

/// Apple's `MusicSequenceGetSequenceType`.
@discardableResult
public func MusicSequenceGetSequenceType(_ inSequence: MusicSequence, _ outType: UnsafeMutablePointer<MusicSequenceType>) -> OSStatus {
    withSequence(inSequence) { s in
        outType.pointee = s.type
        return noErr
    }
}

private func load(_ s: MusicSequenceObject, _ bytes: UnsafeRawBufferPointer, _ hint: MusicSequenceFileTypeID,
                  _ flags: MusicSequenceLoadFlags) -> OSStatus {
    guard hint == .anyType || hint == .midiType else { return kAudioFileUnsupportedFileTypeError }
    do {
        let file = try StandardMIDIFileReader(bytes)
        file.apply(to: s, flags: flags)
        return noErr
    } catch {
        return kAudioFileInvalidFileError
    }
}

/// Apple's `MusicSequenceFileLoad`: adds a Standard MIDI File's tracks and tempo map to the sequence.
@discardableResult
public func MusicSequenceFileLoad(_ inSequence: MusicSequence, _ inFileRef: CFURL, _ inFileTypeHint: MusicSequenceFileTypeID,
                                  _ inFlags: MusicSequenceLoadFlags) -> OSStatus {
    let url = inFileRef as URL
    guard url.isFileURL else { return kAudio_ParamError }
    guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return kAudio_FileNotFoundError }
    return withSequence(inSequence) { s in data.withUnsafeBytes { load(s, $0, inFileTypeHint, inFlags) } }
}

/// Apple's `MusicSequenceFileLoadData`: as MusicSequenceFileLoad, from the file's bytes.
@discardableResult
public func MusicSequenceFileLoadData(_ inSequence: MusicSequence, _ inData: CFData, _ inFileTypeHint: MusicSequenceFileTypeID,
                                      _ inFlags: MusicSequenceLoadFlags) -> OSStatus {
    let data = inData as Data
    return withSequence(inSequence) { s in data.withUnsafeBytes { load(s, $0, inFileTypeHint, inFlags) } }
}

private func fileBytes(_ s: MusicSequenceObject, _ type: MusicSequenceFileTypeID, _ resolution: Int16) -> Result<[UInt8], OSStatusError> {
    guard type == .midiType || type == .anyType else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
    var res = resolution
    switch s.type {
    case .samples: return .failure(OSStatusError(kAudioToolboxErr_InvalidSequenceType))
    case .seconds:
        // A SMPTE division: the one asked for, else the file's own, else 25 fps x 40 ticks (milliseconds).
        if res >= 0 { res = s.resolution < 0 ? s.resolution : MusicSequenceSetSMPTEResolution(25, 40) }
    default:
        if res == 0 { res = s.resolution > 0 ? s.resolution : 480 }
        if res < 0 { return .failure(OSStatusError(kAudio_ParamError)) }
    }
    return .success(StandardMIDIFileWriter.data(s, resolution: res))
}

/// Apple's `MusicSequenceFileCreate`: writes the sequence as a format-1 MIDI file with `inResolution` ticks
/// per quarter note (0: the tempo track's resolution, 480 by default). An existing file is only replaced
/// with kMusicSequenceFileFlags_EraseFile (kAudio_FilePermissionError otherwise).
@discardableResult
public func MusicSequenceFileCreate(_ inSequence: MusicSequence, _ inFileRef: CFURL, _ inFileType: MusicSequenceFileTypeID,
                                    _ inFlags: MusicSequenceFileFlags, _ inResolution: Int16) -> OSStatus {
    let url = inFileRef as URL
    guard url.isFileURL else { return kAudio_ParamError }
    return withSequence(inSequence) { s in
        switch fileBytes(s, inFileType, inResolution) {
        case .failure(let e): return e.status
        case .success(let bytes):
            if FileManager.default.fileExists(atPath: url.path) && !inFlags.contains(.eraseFile) { return kAudio_FilePermissionError }
            do { try Data(bytes).write(to: url) } catch { return kAudio_FilePermissionError }
            return noErr
        }
    }
}

/// Apple's `MusicSequenceFileCreateData`: the MIDI file MusicSequenceFileCreate would write, as data.
@discardableResult
public func MusicSequenceFileCreateData(_ inSequence: MusicSequence, _ inFileType: MusicSequenceFileTypeID, _ inFlags: MusicSequenceFileFlags,
                                        _ inResolution: Int16, _ outData: UnsafeMutablePointer<Unmanaged<CFData>?>) -> OSStatus {
    withSequence(inSequence) { s in
        switch fileBytes(s, inFileType, inResolution) {
        case .failure(let e): return e.status
        case .success(let bytes):
            outData.pointee = Unmanaged.passRetained(NSData(bytes: bytes, length: bytes.count) as CFData)
            return noErr
        }
    }
}

/// Apple's `MusicSequenceReverse`: reverses the order of all events in time.
@discardableResult
public func MusicSequenceReverse(_ inSequence: MusicSequence) -> OSStatus {
    withSequence(inSequence) { s in
        s.reverse()
        s.edited()
        return noErr
    }
}

/// Apple's `MusicSequenceGetSecondsForBeats`: through the tempo map (120 BPM before the first tempo event).
@discardableResult
public func MusicSequenceGetSecondsForBeats(_ inSequence: MusicSequence, _ inBeats: MusicTimeStamp, _ outSeconds: UnsafeMutablePointer<Float64>) -> OSStatus {
    withSequence(inSequence) { s in
        outSeconds.pointee = s.tempoMap.seconds(forBeats: inBeats)
        return noErr
    }
}

/// Apple's `MusicSequenceGetBeatsForSeconds`: the inverse of MusicSequenceGetSecondsForBeats.
@discardableResult
public func MusicSequenceGetBeatsForSeconds(_ inSequence: MusicSequence, _ inSeconds: Float64, _ outBeats: UnsafeMutablePointer<MusicTimeStamp>) -> OSStatus {
    withSequence(inSequence) { s in
        outBeats.pointee = s.tempoMap.beats(forSeconds: inSeconds)
        return noErr
    }
}

/// Apple's `MusicSequenceSetUserCallback`: called (on the player's thread) for each user event played.
@discardableResult
public func MusicSequenceSetUserCallback(_ inSequence: MusicSequence, _ inCallback: MusicSequenceUserCallback?,
                                         _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    withSequence(inSequence) { s in
        s.userCallback = inCallback
        s.userClientData = inClientData
        return noErr
    }
}

/// Apple's `MusicSequenceBeatsToBarBeatTime`: bars and beats from the time-signature events (4/4 before any).
@discardableResult
public func MusicSequenceBeatsToBarBeatTime(_ inSequence: MusicSequence, _ inBeats: MusicTimeStamp, _ inSubbeatDivisor: UInt32,
                                            _ outBarBeatTime: UnsafeMutablePointer<CABarBeatTime>) -> OSStatus {
    withSequence(inSequence) { s in
        guard inBeats.isFinite else { return kAudio_ParamError }
        outBarBeatTime.pointee = s.timeSignatures.barBeatTime(inBeats, subbeatDivisor: inSubbeatDivisor)
        return noErr
    }
}

/// Apple's `MusicSequenceBarBeatTimeToBeats`: the inverse of MusicSequenceBeatsToBarBeatTime.
@discardableResult
public func MusicSequenceBarBeatTimeToBeats(_ inSequence: MusicSequence, _ inBarBeatTime: UnsafePointer<CABarBeatTime>,
                                            _ outBeats: UnsafeMutablePointer<MusicTimeStamp>) -> OSStatus {
    withSequence(inSequence) { s in
        outBeats.pointee = s.timeSignatures.beats(inBarBeatTime.pointee)
        return noErr
    }
}

/// Apple's `MusicSequenceGetInfoDictionary`: the sequence's duration, first tempo, time signature and the
/// tempo track's copyright and name text (keys from AudioFile.h's kAFInfoDictionary_*).
public func MusicSequenceGetInfoDictionary(_ inSequence: MusicSequence) -> CFDictionary {
    var info: [String: Any] = [:]
    _ = withSequence(inSequence) { s in
        let map = s.tempoMap
        info[kAFInfoDictionary_ApproximateDurationInSeconds] = String(map.seconds(forBeats: s.length))
        info[kAFInfoDictionary_Tempo] = String(format: "%g", map.points[0].bpm)
        let sig = s.timeSignatures.segments[0]
        info[kAFInfoDictionary_TimeSignature] = "\(sig.numerator)/\(Int((4 / sig.unit).rounded()))"
        for e in s.tempoTrack.events where e.type == kMusicEventType_Meta {
            let meta = e.payload.data(from: 0)
            let text = String(decoding: meta.dropFirst(8), as: UTF8.self)
            if meta[0] == 0x02 { info[kAFInfoDictionary_Copyright] = text }
            if meta[0] == 0x03 { info[kAFInfoDictionary_Title] = text }
        }
        return noErr
    }
    return NSDictionary(dictionary: info)
}
