import Foundation
import COCASupport
import OCAProperty

// Apple's AudioHardware.h functions, with the signatures of Apple's Swift interface.

public typealias AudioObjectPropertyListenerBlock = (UInt32, UnsafePointer<AudioObjectPropertyAddress>) -> Void
public typealias AudioDeviceIOBlock = (UnsafePointer<AudioTimeStamp>, UnsafePointer<AudioBufferList>, UnsafePointer<AudioTimeStamp>,
                                       UnsafeMutablePointer<AudioBufferList>, UnsafePointer<AudioTimeStamp>) -> Void

private func qualifierBytes(_ size: UInt32, _ data: UnsafeRawPointer?) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : Int(size))
}

/// Apple's `AudioObjectHasProperty`: whether the object has the property at that address.
public func AudioObjectHasProperty(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>) -> Bool {
    HALSystem.shared.object(inObjectID)?.properties.info(inAddress.pointee) != nil
}

/// Apple's `AudioObjectIsPropertySettable`: whether the property can be set.
public func AudioObjectIsPropertySettable(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                          _ outIsSettable: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    guard let object = HALSystem.shared.object(inObjectID) else { return kAudioHardwareBadObjectError }
    guard let info = object.properties.info(inAddress.pointee) else { return kAudioHardwareUnknownPropertyError }
    outIsSettable.pointee = DarwinBoolean(info.writable)
    return kAudioHardwareNoError
}

/// Apple's `AudioObjectGetPropertyDataSize`: the property's size in bytes.
public func AudioObjectGetPropertyDataSize(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                           _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer?,
                                           _ outDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let object = HALSystem.shared.object(inObjectID) else { return kAudioHardwareBadObjectError }
    guard let info = object.properties.info(inAddress.pointee, qualifier: qualifierBytes(inQualifierDataSize, inQualifierData)) else {
        return kAudioHardwareUnknownPropertyError
    }
    outDataSize.pointee = info.size
    return kAudioHardwareNoError
}

/// Apple's `AudioObjectGetPropertyData`: reads the property.
public func AudioObjectGetPropertyData(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                       _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer?,
                                       _ ioDataSize: UnsafeMutablePointer<UInt32>, _ outData: UnsafeMutableRawPointer) -> OSStatus {
    guard let object = HALSystem.shared.object(inObjectID) else { return kAudioHardwareBadObjectError }
    return object.properties.get(inAddress.pointee, qualifier: qualifierBytes(inQualifierDataSize, inQualifierData), ioDataSize, outData)
}

/// Apple's `AudioObjectSetPropertyData`: writes the property.
public func AudioObjectSetPropertyData(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                       _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer?,
                                       _ inDataSize: UInt32, _ inData: UnsafeRawPointer) -> OSStatus {
    guard let object = HALSystem.shared.object(inObjectID) else { return kAudioHardwareBadObjectError }
    return object.properties.set(inAddress.pointee, qualifier: qualifierBytes(inQualifierDataSize, inQualifierData), inDataSize, inData)
}

/// Apple's `AudioObjectAddPropertyListener`: calls `inListener` when the property changes.
public func AudioObjectAddPropertyListener(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                           _ inListener: AudioObjectPropertyListenerProc, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    HALSystem.shared.addListener(inObjectID, inAddress.pointee, .proc(inListener), inClientData)
}

/// Apple's `AudioObjectRemovePropertyListener`: removes a listener proc.
public func AudioObjectRemovePropertyListener(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                              _ inListener: AudioObjectPropertyListenerProc, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    let key = HALListenerKey(objectID: inObjectID, address: inAddress.pointee)
    return HALSystem.shared.removeListener(inObjectID) { l in
        guard case .proc(let proc) = l.proc else { return false }
        return l.key == key && sameFunction(proc, inListener) && l.userData == inClientData
    }
}

/// A Swift closure's (function, context) pair: the identity AudioObjectRemovePropertyListenerBlock matches on.
private func closureIdentity(_ block: @escaping AudioObjectPropertyListenerBlock) -> (UnsafeRawPointer?, UnsafeRawPointer?) {
    unsafeBitCast(block, to: (UnsafeRawPointer?, UnsafeRawPointer?).self)
}

/// Apple's `AudioObjectAddPropertyListenerBlock`: calls the block when the property changes.
public func AudioObjectAddPropertyListenerBlock(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                                _ inDispatchQueue: DispatchQueue?,
                                                _ inListener: @escaping AudioObjectPropertyListenerBlock) -> OSStatus {
    HALSystem.shared.addListener(inObjectID, inAddress.pointee,
                                 .block(inListener, identity: closureIdentity(inListener), queue: inDispatchQueue), nil)
}

/// Apple's `AudioObjectRemovePropertyListenerBlock`: removes a listener block.
public func AudioObjectRemovePropertyListenerBlock(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>,
                                                   _ inDispatchQueue: DispatchQueue?,
                                                   _ inListener: @escaping AudioObjectPropertyListenerBlock) -> OSStatus {
    let identity = closureIdentity(inListener), key = HALListenerKey(objectID: inObjectID, address: inAddress.pointee)
    func same(_ l: PropertyListenerList<HALListenerKey, HALListenerCall>.Listener, exact: Bool) -> Bool {
        guard case .block(_, let registered, let queue) = l.proc else { return false }
        return registered.0 == identity.0 && (!exact || registered.1 == identity.1) && queue === inDispatchQueue && l.key == key
    }
    // Swift gives a closure no identity: passing one on may wrap it in a new context (as Apple's bridging
    // makes a new block). The exact (function, context) pair is tried first, then the same function.
    let status = HALSystem.shared.removeListener(inObjectID) { same($0, exact: true) }
    return status == kAudioHardwareNoError ? status : HALSystem.shared.removeListener(inObjectID, .last) { same($0, exact: false) }
}

/// Prints an object's class, name and, for a device, its UID, streams and rate (Apple prints to stderr).
public func AudioObjectShow(_ inObjectID: AudioObjectID) {
    guard let object = HALSystem.shared.object(inObjectID) else {
        FileHandle.standardError.write("AudioObjectShow: no object \(inObjectID)\n".data(using: .utf8)!)
        return
    }
    var text = "AudioObjectID: 0x\(String(inObjectID, radix: 16))\n  Class: '\(fourCC(object.classID))'\n  Name: \(object.name)\n"
    if let device = object as? HALDevice {
        text += "  UID: \(device.uid)\n  Output channels: \(device.channels(input: false))\n  Input channels: \(device.channels(input: true))\n"
        text += "  Nominal sample rate: \(device.streamFormat(input: false).mSampleRate)\n"
    }
    FileHandle.standardError.write(text.data(using: .utf8)!)
}

private func fourCC(_ v: UInt32) -> String {
    String(decoding: [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) }, as: UTF8.self)
}

// MARK: IOProcs

/// Apple's `AudioDeviceCreateIOProcID`: registers an IOProc with the device.
public func AudioDeviceCreateIOProcID(_ inDevice: AudioObjectID, _ inProc: AudioDeviceIOProc, _ inClientData: UnsafeMutableRawPointer?,
                                      _ outIOProcID: UnsafeMutablePointer<AudioDeviceIOProcID?>) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    let id = device.addIOProc(inProc, block: nil, clientData: inClientData)
    outIOProcID.pointee = unsafeBitCast(id, to: AudioDeviceIOProcID.self)
    return kAudioHardwareNoError
}

/// The block is called on the device's IO thread (the queue is accepted for Apple's signature).
public func AudioDeviceCreateIOProcIDWithBlock(_ outIOProcID: UnsafeMutablePointer<AudioDeviceIOProcID?>, _ inDevice: AudioObjectID,
                                               _ inDispatchQueue: DispatchQueue?, _ inIOBlock: @escaping AudioDeviceIOBlock) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    let id = device.addIOProc(nil, block: inIOBlock, clientData: nil)
    outIOProcID.pointee = unsafeBitCast(id, to: AudioDeviceIOProcID.self)
    return kAudioHardwareNoError
}

/// Apple's `AudioDeviceDestroyIOProcID`: unregisters an IOProc.
public func AudioDeviceDestroyIOProcID(_ inDevice: AudioObjectID, _ inIOProcID: AudioDeviceIOProcID) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.removeIOProc(unsafeBitCast(inIOProcID, to: UnsafeMutableRawPointer.self))
}

/// Apple's `AudioDeviceStart`: starts the device's I/O for an IOProc (or the device alone).
public func AudioDeviceStart(_ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.start(inProcID.map { unsafeBitCast($0, to: UnsafeMutableRawPointer.self) })
}

/// Apple's `AudioDeviceStop`: stops the device's I/O for an IOProc.
public func AudioDeviceStop(_ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.stop(inProcID.map { unsafeBitCast($0, to: UnsafeMutableRawPointer.self) })
}

/// Apple's `AudioDeviceGetCurrentTime`: the running device's sample and host time now.
public func AudioDeviceGetCurrentTime(_ inDevice: AudioObjectID, _ outTime: UnsafeMutablePointer<AudioTimeStamp>) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    guard let time = device.currentTime() else { return kAudioHardwareNotRunningError }
    outTime.pointee = time
    return kAudioHardwareNoError
}

/// Apple's `AudioDeviceTranslateTime`: `inTime` (its sample time, else its host time) in the representations
/// `outTime.mFlags` asks for (sample, host, rate scalar), on the running device's clock: extrapolated from the
/// IO cycle's latest anchor at the measured rate. `outTime.mFlags` says what was done.
public func AudioDeviceTranslateTime(_ inDevice: AudioObjectID, _ inTime: UnsafePointer<AudioTimeStamp>,
                                     _ outTime: UnsafeMutablePointer<AudioTimeStamp>) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    guard let result = device.translate(inTime.pointee, wanted: outTime.pointee.mFlags) else { return kAudioHardwareNotRunningError }
    guard case .success(let time) = result else { return kAudioHardwareIllegalOperationError }
    outTime.pointee = time
    return kAudioHardwareNoError
}

/// Apple's `AudioDeviceGetNearestStartTime`: the first IO cycle boundary at or after the requested time (an
/// output time, or an input time with kAudioDeviceStartTimeIsInputFlag) that a proc can still join cleanly.
public func AudioDeviceGetNearestStartTime(_ inDevice: AudioObjectID, _ ioRequestedStartTime: UnsafeMutablePointer<AudioTimeStamp>,
                                           _ inFlags: UInt32) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    guard let result = device.nearestStart(ioRequestedStartTime.pointee, flags: inFlags) else { return kAudioHardwareNotRunningError }
    guard case .success(let start) = result else { return kAudioHardwareIllegalOperationError }
    ioRequestedStartTime.pointee = start.time
    return kAudioHardwareNoError
}

/// Apple's `AudioDeviceStartAtTime`: starts the device if needed and the IOProc (nil: the device alone) at the
/// nearest IO cycle to the requested time; on return `ioRequestedStartTime` is the time it starts (the first
/// callback's output time, or input time with kAudioDeviceStartTimeIsInputFlag). The DontConsult flags are
/// accepted: the only constraint here is the cycle boundary.
public func AudioDeviceStartAtTime(_ inDevice: AudioObjectID, _ inProcID: AudioDeviceIOProcID?,
                                   _ ioRequestedStartTime: UnsafeMutablePointer<AudioTimeStamp>, _ inFlags: UInt32) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.start(inProcID.map { unsafeBitCast($0, to: UnsafeMutableRawPointer.self) }, at: &ioRequestedStartTime.pointee, flags: inFlags)
}

// MARK: Host time (HostTime.h): nanoseconds of the monotonic clock.

/// Apple's `AudioGetCurrentHostTime`: the host clock (nanoseconds of the monotonic clock).
public func AudioGetCurrentHostTime() -> UInt64 { oca_monotonic_nanoseconds() }
/// Apple's `AudioGetHostClockFrequency`: host ticks per second (1e9: ticks are nanoseconds).
public func AudioGetHostClockFrequency() -> Float64 { 1e9 }
/// Apple's `AudioGetHostClockMinimumTimeDelta`: the smallest host-time step.
public func AudioGetHostClockMinimumTimeDelta() -> UInt32 { 1 }
/// Apple's `AudioConvertHostTimeToNanos` (host ticks are nanoseconds).
public func AudioConvertHostTimeToNanos(_ inHostTime: UInt64) -> UInt64 { inHostTime }
/// Apple's `AudioConvertNanosToHostTime` (host ticks are nanoseconds).
public func AudioConvertNanosToHostTime(_ inNanos: UInt64) -> UInt64 { inNanos }

/// Ours, not Apple's: why the last device stream failed to open, in the words of ALSA and of the sound
/// server behind it ("Connection refused", a refused rate), or nil. Apple's API answers such failures with
/// kAudioHardwareUnspecifiedError ('what') alone; tools print this beside it. Reading it clears it.
public func _AudioHardwareTakeLastErrorDescription() -> String? {
    ALSA.takeLastFailure()
}
