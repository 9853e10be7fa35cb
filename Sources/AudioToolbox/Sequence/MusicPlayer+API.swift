import Foundation

// Music players (MusicPlayer.h) with Apple's Swift signatures.

private func withPlayer(_ player: MusicPlayer?, _ body: (MusicPlayerObject) -> OSStatus) -> OSStatus {
    MusicSequenceObject.lock.lock()
    defer { MusicSequenceObject.lock.unlock() }
    guard let p = MusicPlayerObject.handles.object(player.map { UnsafeMutableRawPointer($0) }, as: MusicPlayerObject.self) else {
        return kAudio_ParamError
    }
    return body(p)
}

/// Apple's `NewMusicPlayer`.
@discardableResult
public func NewMusicPlayer(_ outPlayer: UnsafeMutablePointer<MusicPlayer?>) -> OSStatus {
    outPlayer.pointee = OpaquePointer(MusicPlayerObject.handles.add(MusicPlayerObject()))
    return noErr
}

/// Apple's `DisposeMusicPlayer`: stops it and lets go of its sequence.
@discardableResult
public func DisposeMusicPlayer(_ inPlayer: MusicPlayer) -> OSStatus {
    withPlayer(inPlayer) { p in
        p.dispose()
        _ = MusicPlayerObject.handles.remove(UnsafeMutableRawPointer(inPlayer), as: MusicPlayerObject.self)
        return noErr
    }
}

/// Apple's `MusicPlayerSetSequence`: not while playing (kAudioToolboxErr_InvalidPlayerState); nil detaches.
@discardableResult
public func MusicPlayerSetSequence(_ inPlayer: MusicPlayer, _ inSequence: MusicSequence?) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard !p.isPlaying else { return kAudioToolboxErr_InvalidPlayerState }
        var sequence: MusicSequenceObject?
        if let inSequence {
            guard let s = MusicSequenceObject.handles.object(UnsafeMutableRawPointer(inSequence), as: MusicSequenceObject.self) else {
                return kAudio_ParamError
            }
            sequence = s
        }
        p.sequence?.player = nil
        p.sequence = sequence
        sequence?.player = p
        p.position = 0
        return noErr
    }
}

/// Apple's `MusicPlayerGetSequence`: kAudioToolboxErr_NoSequence when none is set.
@discardableResult
public func MusicPlayerGetSequence(_ inPlayer: MusicPlayer, _ outSequence: UnsafeMutablePointer<MusicSequence?>) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard let s = p.sequence else {
            outSequence.pointee = nil
            return kAudioToolboxErr_NoSequence
        }
        outSequence.pointee = s.handle
        return noErr
    }
}

/// Apple's `MusicPlayerSetTime`: moves to a beat; a playing player carries on from there.
@discardableResult
public func MusicPlayerSetTime(_ inPlayer: MusicPlayer, _ inTime: MusicTimeStamp) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard inTime.isFinite else { return kAudio_ParamError }
        return p.restart(at: inTime)
    }
}

/// Apple's `MusicPlayerGetTime`: the beat playing now (the position set, while stopped).
@discardableResult
public func MusicPlayerGetTime(_ inPlayer: MusicPlayer, _ outTime: UnsafeMutablePointer<MusicTimeStamp>) -> OSStatus {
    withPlayer(inPlayer) { p in
        outTime.pointee = p.currentBeat()
        return noErr
    }
}

/// Apple's `MusicPlayerGetHostTimeForBeats`: only while playing, for beats from the start position on.
@discardableResult
public func MusicPlayerGetHostTimeForBeats(_ inPlayer: MusicPlayer, _ inBeats: MusicTimeStamp, _ outHostTime: UnsafeMutablePointer<UInt64>) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard let s = p.session else { return kAudioToolboxErr_InvalidPlayerState }
        guard inBeats >= s.schedule.startBeat, inBeats.isFinite else { return kAudio_ParamError }
        outHostTime.pointee = s.hostTime(s.schedule.tempo.seconds(forBeats: inBeats))
        return noErr
    }
}

/// Apple's `MusicPlayerGetBeatsForHostTime`: only while playing, for host times from the start on.
@discardableResult
public func MusicPlayerGetBeatsForHostTime(_ inPlayer: MusicPlayer, _ inHostTime: UInt64, _ outBeats: UnsafeMutablePointer<MusicTimeStamp>) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard let s = p.session else { return kAudioToolboxErr_InvalidPlayerState }
        guard inHostTime >= s.hostStart else { return kAudio_ParamError }
        let seconds = s.schedule.startSeconds + Double(inHostTime - s.hostStart) / 1e9 * s.rate
        outBeats.pointee = s.schedule.tempo.beats(forSeconds: seconds)
        return noErr
    }
}

/// Apple's `MusicPlayerPreroll`: opens and initializes the sequence's graph so that starting is quick.
@discardableResult
public func MusicPlayerPreroll(_ inPlayer: MusicPlayer) -> OSStatus {
    withPlayer(inPlayer) { $0.preroll() }
}

/// Apple's `MusicPlayerStart`: prerolls if needed, starts the graph if it is not running, and plays from
/// the current time.
@discardableResult
public func MusicPlayerStart(_ inPlayer: MusicPlayer) -> OSStatus {
    withPlayer(inPlayer) { $0.start() }
}

/// Apple's `MusicPlayerStop`: stops playing (sounding notes are released); the time stays where it stopped.
@discardableResult
public func MusicPlayerStop(_ inPlayer: MusicPlayer) -> OSStatus {
    withPlayer(inPlayer) { $0.stop() }
}

/// Apple's `MusicPlayerIsPlaying`: true from start to stop, past the last event too.
@discardableResult
public func MusicPlayerIsPlaying(_ inPlayer: MusicPlayer, _ outIsPlaying: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withPlayer(inPlayer) { p in
        outIsPlaying.pointee = DarwinBoolean(p.isPlaying)
        return noErr
    }
}

/// Apple's `MusicPlayerSetPlayRateScalar`: scales the tempo (2: twice as fast); must be greater than zero.
@discardableResult
public func MusicPlayerSetPlayRateScalar(_ inPlayer: MusicPlayer, _ inScaleRate: Float64) -> OSStatus {
    withPlayer(inPlayer) { p in
        guard inScaleRate > 0, inScaleRate.isFinite else { return kAudio_ParamError }
        let beat = p.currentBeat()
        p.rate = inScaleRate
        return p.isPlaying ? p.restart(at: beat) : noErr
    }
}

/// Apple's `MusicPlayerGetPlayRateScalar` (1 by default).
@discardableResult
public func MusicPlayerGetPlayRateScalar(_ inPlayer: MusicPlayer, _ outScaleRate: UnsafeMutablePointer<Float64>) -> OSStatus {
    withPlayer(inPlayer) { p in
        outScaleRate.pointee = p.rate
        return noErr
    }
}
