import Foundation

// Audio Session Services (AudioSession.h): iOS's C audio session, deprecated by Apple since iOS 7 in favour of
// AVAudioSession, kept for the code that still calls it ("Learning Core Audio" chapter 10 among it). What a
// session means on Linux is in AudioSessionState.

/// Initializes the process's audio session; `kAudioSessionAlreadyInitialized` on a second call. The run loop and
/// interruption listener are accepted and never used: no other session interrupts this one on Linux.
public func AudioSessionInitialize(_ inRunLoop: CFRunLoop!, _ inRunLoopMode: CFString!,
                                   _ inInterruptionListener: AudioSessionInterruptionListener!,
                                   _ inClientData: UnsafeMutableRawPointer!) -> OSStatus {
    AudioSessionState.shared.initialize()
}

/// Activates or deactivates the session: activation applies the preferred sample rate and I/O buffer duration to
/// the default devices, deactivation puts back what it changed.
public func AudioSessionSetActive(_ active: Bool) -> OSStatus {
    AudioSessionState.shared.setActive(active)
}

/// As AudioSessionSetActive; `kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation` has no one to notify here.
public func AudioSessionSetActiveWithFlags(_ active: Bool, _ inFlags: UInt32) -> OSStatus {
    AudioSessionState.shared.setActive(active)
}

/// Reads a session property into `outData`; `ioDataSize` gives the room and receives the size written.
public func AudioSessionGetProperty(_ inID: AudioSessionPropertyID, _ ioDataSize: UnsafeMutablePointer<UInt32>!,
                                    _ outData: UnsafeMutableRawPointer!) -> OSStatus {
    guard let ioDataSize, let outData else { return kAudio_ParamError }
    return AudioSessionState.shared.get(inID, ioDataSize, outData)
}

/// Sets a session property (category, mode, preferred rate and buffer duration, the overrides).
public func AudioSessionSetProperty(_ inID: AudioSessionPropertyID, _ inDataSize: UInt32, _ inData: UnsafeRawPointer!) -> OSStatus {
    guard let inData else { return kAudio_ParamError }
    return AudioSessionState.shared.set(inID, inDataSize, inData)
}

/// The size in bytes of a session property's value.
public func AudioSessionGetPropertySize(_ inID: AudioSessionPropertyID, _ outDataSize: UnsafeMutablePointer<UInt32>!) -> OSStatus {
    guard let outDataSize else { return kAudio_ParamError }
    let (size, status) = AudioSessionState.shared.size(inID)
    if status == noErr { outDataSize.pointee = size }
    return status
}

/// Calls `inProc` when the property changes (kAudioSessionProperty_AudioRouteChange: when the category changes).
public func AudioSessionAddPropertyListener(_ inID: AudioSessionPropertyID, _ inProc: AudioSessionPropertyListener!,
                                            _ inClientData: UnsafeMutableRawPointer!) -> OSStatus {
    guard let inProc else { return kAudio_ParamError }
    return AudioSessionState.shared.addListener(inID, inProc, inClientData)
}

/// Removes every listener on the property.
public func AudioSessionRemovePropertyListener(_ inID: AudioSessionPropertyID) -> OSStatus {
    AudioSessionState.shared.removeListeners(inID, nil, nil, matching: false)
}

/// Removes the listeners on the property with this procedure and client data.
public func AudioSessionRemovePropertyListenerWithUserData(_ inID: AudioSessionPropertyID, _ inProc: AudioSessionPropertyListener!,
                                                           _ inClientData: UnsafeMutableRawPointer!) -> OSStatus {
    AudioSessionState.shared.removeListeners(inID, inProc, inClientData, matching: true)
}
