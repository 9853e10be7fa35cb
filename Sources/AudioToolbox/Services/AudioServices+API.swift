import Foundation

// System Sound Services (AudioServices.h): short sounds played through an output queue each. The
// predefined IDs: the user alert is a short beep; flash-screen and vibrate have nothing to drive here
// and only complete.

/// Loads a sound file (30 seconds at most) and returns its ID.
@discardableResult
public func AudioServicesCreateSystemSoundID(_ inFileURL: CFURL, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>) -> OSStatus {
    let (sound, status) = SystemSound.load(inFileURL)
    guard let sound else { return status }
    outSystemSoundID.pointee = SystemSoundRegistry.add(sound)
    return noErr
}

/// Forgets a sound made by AudioServicesCreateSystemSoundID (plays in progress finish).
@discardableResult
public func AudioServicesDisposeSystemSoundID(_ inSystemSoundID: SystemSoundID) -> OSStatus {
    SystemSoundRegistry.remove(inSystemSoundID) ? noErr : kAudioServicesSystemSoundUnspecifiedError
}

private func play(_ id: SystemSoundID, _ block: (() -> Void)?) {
    SystemSoundPlayback(id: id, sound: SystemSoundRegistry.sound(id), block: block).start()
}

/// Plays a system sound and returns at once.
public func AudioServicesPlaySystemSound(_ inSystemSoundID: SystemSoundID) { play(inSystemSoundID, nil) }

/// Plays an alert sound and returns at once.
public func AudioServicesPlayAlertSound(_ inSystemSoundID: SystemSoundID) { play(inSystemSoundID, nil) }

/// Plays a system sound and calls `inCompletionBlock` (on an internal thread) when it has played.
public func AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    play(inSystemSoundID, inCompletionBlock)
}

/// Plays an alert sound and calls `inCompletionBlock` when it has played.
public func AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    play(inSystemSoundID, inCompletionBlock)
}

/// Calls `inCompletionRoutine` on `inRunLoop` (the main run loop when nil) in `inRunLoopMode` (the
/// default mode when nil) each time the sound finishes playing.
@discardableResult
public func AudioServicesAddSystemSoundCompletion(_ inSystemSoundID: SystemSoundID, _ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString?,
                                                  _ inCompletionRoutine: @escaping AudioServicesSystemSoundCompletionProc,
                                                  _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    SystemSoundRegistry.withSound(inSystemSoundID) { sound in
        sound.completion = (inCompletionRoutine, inClientData, inRunLoop, (inRunLoopMode as String?) ?? "kCFRunLoopDefaultMode")
        return noErr
    } ?? kAudioServicesSystemSoundUnspecifiedError
}

/// Removes the sound's completion routine.
public func AudioServicesRemoveSystemSoundCompletion(_ inSystemSoundID: SystemSoundID) {
    _ = SystemSoundRegistry.withSound(inSystemSoundID) { $0.completion = nil }
}

/// The two per-sound properties: `kAudioServicesPropertyIsUISound` and
/// `kAudioServicesPropertyCompletePlaybackIfAppDies` (UInt32 each, the sound's ID as specifier).
private func soundSetting(_ id: AudioServicesPropertyID) -> ReferenceWritableKeyPath<SystemSound, UInt32>? {
    switch id {
    case kAudioServicesPropertyIsUISound: \.isUISound
    case kAudioServicesPropertyCompletePlaybackIfAppDies: \.completePlaybackIfAppDies
    default: nil
    }
}

private func specifiedSound(_ size: UInt32, _ specifier: UnsafeRawPointer?) -> Result<SystemSoundID, OSStatusError> {
    guard size == 4, let specifier else { return .failure(OSStatusError(kAudioServicesBadSpecifierSizeError)) }
    return .success(specifier.loadUnaligned(as: SystemSoundID.self))
}

/// A property's size and whether it can be set.
@discardableResult
public func AudioServicesGetPropertyInfo(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                         _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    guard soundSetting(inPropertyID) != nil else { return kAudioServicesUnsupportedPropertyError }
    switch specifiedSound(inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(let id):
        guard SystemSoundRegistry.sound(id) != nil else { return kAudioServicesSystemSoundUnspecifiedError }
        outPropertyDataSize?.pointee = 4
        outWritable?.pointee = true
        return noErr
    }
}

/// Reads a property.
@discardableResult
public func AudioServicesGetProperty(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                     _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let key = soundSetting(inPropertyID) else { return kAudioServicesUnsupportedPropertyError }
    switch specifiedSound(inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(let id):
        guard ioPropertyDataSize.pointee >= 4, let outPropertyData else { return kAudioServicesBadPropertySizeError }
        guard let value = SystemSoundRegistry.withSound(id, { $0[keyPath: key] }) else { return kAudioServicesSystemSoundUnspecifiedError }
        outPropertyData.storeBytes(of: value, as: UInt32.self)
        ioPropertyDataSize.pointee = 4
        return noErr
    }
}

/// Sets a property.
@discardableResult
public func AudioServicesSetProperty(_ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                     _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    guard let key = soundSetting(inPropertyID) else { return kAudioServicesUnsupportedPropertyError }
    switch specifiedSound(inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(let id):
        guard inPropertyDataSize == 4 else { return kAudioServicesBadPropertySizeError }
        let value = inPropertyData.loadUnaligned(as: UInt32.self)
        return SystemSoundRegistry.withSound(id) { $0[keyPath: key] = value; return noErr } ?? kAudioServicesSystemSoundUnspecifiedError
    }
}
