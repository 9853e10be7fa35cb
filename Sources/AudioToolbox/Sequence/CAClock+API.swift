// Core Audio Clock (CoreAudioClock.h): a host-time clock with a tempo map, meter track, SMPTE offset and
// play rate. Device and output-unit timebases, external sync (MIDI clock, MTC), the MIDI destinations
// and drop-frame SMPTE formats are not here; they answer Apple's codes for an invalid choice.

private let clocks = LiveHandleTable()

private func withClock(_ clock: CAClockRef, _ body: (CAClockObject) -> OSStatus) -> OSStatus {
    guard let object = clocks.object(UnsafeMutableRawPointer(clock), as: CAClockObject.self) else { return kAudio_ParamError }
    return body(object)
}

private func write(_ result: Result<CAClockTime, OSStatusError>, _ out: UnsafeMutablePointer<CAClockTime>) -> OSStatus {
    switch result {
    case .success(let t): out.pointee = t; return noErr
    case .failure(let e): return e.status
    }
}

/// Creates a clock: host-time timebase, internal sync, stopped at 0 s, 120 bpm in 4/4, 30 fps SMPTE.
@discardableResult
public func CAClockNew(_ inReservedFlags: UInt32, _ outCAClock: UnsafeMutablePointer<CAClockRef?>) -> OSStatus {
    guard inReservedFlags == 0 else { return kAudio_ParamError }
    let object = CAClockObject()
    outCAClock.pointee = OpaquePointer(clocks.add(object))
    return noErr
}

/// Disposes of a clock.
@discardableResult
public func CAClockDispose(_ inCAClock: CAClockRef) -> OSStatus {
    guard let object = clocks.remove(UnsafeMutableRawPointer(inCAClock), as: CAClockObject.self) else { return kAudio_ParamError }
    object.stop()
    return noErr
}

/// A property's size and whether it can be set.
@discardableResult
public func CAClockGetPropertyInfo(_ inCAClock: CAClockRef, _ inPropertyID: CAClockPropertyID,
                                   _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withClock(inCAClock) { clock in
        switch clock.value(inPropertyID) {
        case nil: return kCAClock_UnknownPropertyError
        case .bytes(let b): outSize?.pointee = UInt32(b.count)
        case .object: outSize?.pointee = UInt32(MemoryLayout<CFString?>.size)
        }
        outWritable?.pointee = true
        return noErr
    }
}

/// Copies a property's value (the name is a borrowed reference, as Apple's).
@discardableResult
public func CAClockGetProperty(_ inCAClock: CAClockRef, _ inPropertyID: CAClockPropertyID,
                               _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withClock(inCAClock) { clock in
        switch clock.value(inPropertyID) {
        case nil:
            return kCAClock_UnknownPropertyError
        case .bytes(let b):
            guard Int(ioPropertyDataSize.pointee) >= b.count else { return kCAClock_InvalidPropertySizeError }
            b.withUnsafeBytes { if !b.isEmpty { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: b.count) } }
            ioPropertyDataSize.pointee = UInt32(b.count)
        case .object(let name):
            guard Int(ioPropertyDataSize.pointee) >= MemoryLayout<CFString?>.size else { return kCAClock_InvalidPropertySizeError }
            outPropertyData.storeBytes(of: name.map { Unmanaged.passUnretained($0) }, as: Unmanaged<CFString>?.self)
            ioPropertyDataSize.pointee = UInt32(MemoryLayout<CFString?>.size)
        }
        return noErr
    }
}

/// Sets a property; listeners get kCAClockMessage_PropertyChanged.
@discardableResult
public func CAClockSetProperty(_ inCAClock: CAClockRef, _ inPropertyID: CAClockPropertyID,
                               _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withClock(inCAClock) { $0.setValue(inPropertyID, inPropertyData, size: Int(inPropertyDataSize)) }
}

/// Adds a function called with the clock's state changes.
@discardableResult
public func CAClockAddListener(_ inCAClock: CAClockRef, _ inListenerProc: CAClockListenerProc,
                               _ inUserData: UnsafeMutableRawPointer) -> OSStatus {
    withClock(inCAClock) { $0.addListener(inListenerProc, inUserData); return noErr }
}

/// Removes a listener added with the same function and user data.
@discardableResult
public func CAClockRemoveListener(_ inCAClock: CAClockRef, _ inListenerProc: CAClockListenerProc,
                                  _ inUserData: UnsafeMutableRawPointer) -> OSStatus {
    withClock(inCAClock) { $0.removeListener(inListenerProc, inUserData) ? noErr : kAudio_ParamError }
}

/// Sets the timeline position; only while stopped (kCAClock_CannotSetTimeError while running).
@discardableResult
public func CAClockSetCurrentTime(_ inCAClock: CAClockRef, _ inTime: UnsafePointer<CAClockTime>) -> OSStatus {
    withClock(inCAClock) { $0.setCurrentTime(inTime.pointee) }
}

/// The current time in a format.
@discardableResult
public func CAClockGetCurrentTime(_ inCAClock: CAClockRef, _ inTimeFormat: CAClockTimeFormat,
                                  _ outTime: UnsafeMutablePointer<CAClockTime>) -> OSStatus {
    withClock(inCAClock) { write($0.currentTime(inTimeFormat), outTime) }
}

/// The position the clock started (or will start) from.
@discardableResult
public func CAClockGetStartTime(_ inCAClock: CAClockRef, _ inTimeFormat: CAClockTimeFormat,
                                _ outTime: UnsafeMutablePointer<CAClockTime>) -> OSStatus {
    withClock(inCAClock) { write($0.startTime(inTimeFormat), outTime) }
}

/// Converts a time from one format to another on this clock's timeline.
@discardableResult
public func CAClockTranslateTime(_ inCAClock: CAClockRef, _ inTime: UnsafePointer<CAClockTime>,
                                 _ inOutputTimeFormat: CAClockTimeFormat, _ outTime: UnsafeMutablePointer<CAClockTime>) -> OSStatus {
    withClock(inCAClock) { write($0.translate(inTime.pointee, to: inOutputTimeFormat), outTime) }
}

/// Starts moving the timeline from the current position.
@discardableResult
public func CAClockStart(_ inCAClock: CAClockRef) -> OSStatus { withClock(inCAClock) { $0.start(); return noErr } }

/// Stops the timeline where it is.
@discardableResult
public func CAClockStop(_ inCAClock: CAClockRef) -> OSStatus { withClock(inCAClock) { $0.stop(); return noErr } }

/// Lets received sync start the clock (internal sync: only the Armed message).
@discardableResult
public func CAClockArm(_ inCAClock: CAClockRef) -> OSStatus { withClock(inCAClock) { $0.arm(true); return noErr } }

/// Stops received sync from starting the clock.
@discardableResult
public func CAClockDisarm(_ inCAClock: CAClockRef) -> OSStatus { withClock(inCAClock) { $0.arm(false); return noErr } }

/// Sets how fast the timeline moves against its timebase (1 is real time).
@discardableResult
public func CAClockSetPlayRate(_ inCAClock: CAClockRef, _ inPlayRate: Float64) -> OSStatus {
    withClock(inCAClock) { $0.setPlayRate(inPlayRate) }
}

/// The play rate.
@discardableResult
public func CAClockGetPlayRate(_ inCAClock: CAClockRef, _ outPlayRate: UnsafeMutablePointer<Float64>) -> OSStatus {
    withClock(inCAClock) { outPlayRate.pointee = $0.playRate; return noErr }
}

/// The tempo now, and (if asked) the current position in beats.
@discardableResult
public func CAClockGetCurrentTempo(_ inCAClock: CAClockRef, _ outTempo: UnsafeMutablePointer<CAClockTempo>,
                                   _ outTimestamp: UnsafeMutablePointer<CAClockTime>?) -> OSStatus {
    withClock(inCAClock) { clock in
        let (tempo, beats) = clock.currentTempo()
        outTempo.pointee = tempo
        if let outTimestamp {
            var t = CAClockTime()
            t.format = .beats
            t.time.beats = beats
            outTimestamp.pointee = t
        }
        return noErr
    }
}

/// From the given time (nil: now) the tempo is `inTempo`; the tempo map's later entries are dropped.
@discardableResult
public func CAClockSetCurrentTempo(_ inCAClock: CAClockRef, _ inTempo: CAClockTempo,
                                   _ inTimestamp: UnsafePointer<CAClockTime>?) -> OSStatus {
    withClock(inCAClock) { $0.setCurrentTempo(inTempo, at: inTimestamp?.pointee) }
}

/// Seconds as a SMPTE time in the clock's SMPTE format (24, 25, 30, 50 and 60 fps non-drop).
@discardableResult
public func CAClockSecondsToSMPTETime(_ inCAClock: CAClockRef, _ inSeconds: CAClockSeconds, _ inSubframeDivisor: UInt16,
                                      _ outSMPTETime: UnsafeMutablePointer<SMPTETime>) -> OSStatus {
    withClock(inCAClock) { clock in
        switch clock.smpte(inSeconds, subframeDivisor: inSubframeDivisor) {
        case .success(let t): outSMPTETime.pointee = t; return noErr
        case .failure(let e): return e.status
        }
    }
}

/// A SMPTE time (in its own mType) as seconds.
@discardableResult
public func CAClockSMPTETimeToSeconds(_ inCAClock: CAClockRef, _ inSMPTETime: UnsafePointer<SMPTETime>,
                                      _ outSeconds: UnsafeMutablePointer<CAClockSeconds>) -> OSStatus {
    withClock(inCAClock) { clock in
        switch clock.smpteSeconds(inSMPTETime.pointee) {
        case .success(let s): outSeconds.pointee = s; return noErr
        case .failure(let e): return e.status
        }
    }
}

/// Beats as bar/beat/subbeat under the clock's meter track.
@discardableResult
public func CAClockBeatsToBarBeatTime(_ inCAClock: CAClockRef, _ inBeats: CAClockBeats, _ inSubbeatDivisor: UInt16,
                                      _ outBarBeatTime: UnsafeMutablePointer<CABarBeatTime>) -> OSStatus {
    withClock(inCAClock) { outBarBeatTime.pointee = $0.barBeatTime(inBeats, subbeatDivisor: inSubbeatDivisor); return noErr }
}

/// A bar/beat/subbeat time as beats under the clock's meter track.
@discardableResult
public func CAClockBarBeatTimeToBeats(_ inCAClock: CAClockRef, _ inBarBeatTime: UnsafePointer<CABarBeatTime>,
                                      _ outBeats: UnsafeMutablePointer<CAClockBeats>) -> OSStatus {
    withClock(inCAClock) { outBeats.pointee = $0.beats(inBarBeatTime.pointee); return noErr }
}

/// MIDI sync input is not implemented (internal sync only): kAudio_UnimplementedError.
@discardableResult
public func CAClockParseMIDI(_ inCAClock: CAClockRef, _ inMIDIPacketList: UnsafePointer<MIDIPacketList>) -> OSStatus {
    withClock(inCAClock) { _ in kAudio_UnimplementedError }
}
