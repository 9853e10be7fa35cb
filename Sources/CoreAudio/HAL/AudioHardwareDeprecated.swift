import Foundation

// Apple's AudioHardwareDeprecated.h functions (macOS), with the signatures of Apple's Swift interface: thin
// forwarders to the AudioObject API. A device property's (channel, isInput) is the address's (element,
// input or output scope); a stream's channel is the element in the global scope; the system's properties are
// global, element main. The old listener procs are called with those arguments mapped back.

private func deviceAddress(_ id: AudioDevicePropertyID, _ channel: UInt32, _ isInput: Bool) -> AudioObjectPropertyAddress {
    AudioObjectPropertyAddress(mSelector: id, mScope: isInput ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput,
                               mElement: channel)
}

private func streamAddress(_ id: AudioDevicePropertyID, _ channel: UInt32) -> AudioObjectPropertyAddress {
    AudioObjectPropertyAddress(mSelector: id, mScope: kAudioObjectPropertyScopeGlobal, mElement: channel)
}

private func systemAddress(_ id: AudioHardwarePropertyID) -> AudioObjectPropertyAddress {
    AudioObjectPropertyAddress(mSelector: id, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
}

/// GetPropertyInfo: the size and settability, either pointer optional.
private func propertyInfo(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ outSize: UnsafeMutablePointer<UInt32>?,
                          _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    var a = address
    if let outSize {
        let status = AudioObjectGetPropertyDataSize(object, &a, 0, nil, outSize)
        if status != kAudioHardwareNoError { return status }
    }
    if let outWritable {
        let status = AudioObjectIsPropertySettable(object, &a, outWritable)
        if status != kAudioHardwareNoError { return status }
    }
    return kAudioHardwareNoError
}

// MARK: The system object

/// Apple's `AudioHardwareGetPropertyInfo`: AudioObjectGetPropertyDataSize and IsPropertySettable on the system object.
public func AudioHardwareGetPropertyInfo(_ inPropertyID: AudioHardwarePropertyID, _ outSize: UnsafeMutablePointer<UInt32>?,
                                         _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    propertyInfo(kAudioObjectSystemObject, systemAddress(inPropertyID), outSize, outWritable)
}

/// Apple's `AudioHardwareGetProperty`: AudioObjectGetPropertyData on the system object.
public func AudioHardwareGetProperty(_ inPropertyID: AudioHardwarePropertyID, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>,
                                     _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    var a = systemAddress(inPropertyID)
    return AudioObjectGetPropertyData(kAudioObjectSystemObject, &a, 0, nil, ioPropertyDataSize, outPropertyData)
}

/// Apple's `AudioHardwareSetProperty`: AudioObjectSetPropertyData on the system object.
public func AudioHardwareSetProperty(_ inPropertyID: AudioHardwarePropertyID, _ inPropertyDataSize: UInt32,
                                     _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    var a = systemAddress(inPropertyID)
    return AudioObjectSetPropertyData(kAudioObjectSystemObject, &a, 0, nil, inPropertyDataSize, inPropertyData)
}

/// Apple's `AudioHardwareAddPropertyListener`: `inProc` is called with the property's ID when it changes.
public func AudioHardwareAddPropertyListener(_ inPropertyID: AudioHardwarePropertyID, _ inProc: AudioHardwarePropertyListenerProc,
                                             _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    LegacyListener.add(kAudioObjectSystemObject, systemAddress(inPropertyID), .system(inProc), inClientData)
}

/// Apple's `AudioHardwareRemovePropertyListener`.
public func AudioHardwareRemovePropertyListener(_ inPropertyID: AudioHardwarePropertyID, _ inProc: AudioHardwarePropertyListenerProc) -> OSStatus {
    LegacyListener.remove(kAudioObjectSystemObject, systemAddress(inPropertyID), unsafeBitCast(inProc, to: UnsafeRawPointer.self))
}

/// Apple's `AudioHardwareUnload`: the HAL here holds no server connection of its own (devices are opened while
/// they run and released when they stop), so there is nothing to unload; answers noErr.
public func AudioHardwareUnload() -> OSStatus { kAudioHardwareNoError }

/// Apple's `AudioHardwareCreateAggregateDevice`: not available (kAudioHardwareUnsupportedOperationError).
/// Aggregate devices (several ALSA devices under one clock) are not implemented.
public func AudioHardwareCreateAggregateDevice(_ inDescription: CFDictionary, _ outDeviceID: UnsafeMutablePointer<AudioObjectID>) -> OSStatus {
    kAudioHardwareUnsupportedOperationError
}

/// Apple's `AudioHardwareDestroyAggregateDevice`: there are none (kAudioHardwareBadDeviceError for a device
/// that is not an aggregate, as for any ID).
public func AudioHardwareDestroyAggregateDevice(_ inDeviceID: AudioObjectID) -> OSStatus {
    HALSystem.shared.device(inDeviceID) == nil ? kAudioHardwareBadObjectError : kAudioHardwareBadDeviceError
}

// MARK: Devices

/// Apple's `AudioDeviceAddIOProc`: registers `inProc` as its own IOProc ID (AudioDeviceStart/Stop take it).
public func AudioDeviceAddIOProc(_ inDevice: AudioDeviceID, _ inProc: AudioDeviceIOProc, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.addIOProc(usingProcAsID: inProc, clientData: inClientData)
}

/// Apple's `AudioDeviceRemoveIOProc`.
public func AudioDeviceRemoveIOProc(_ inDevice: AudioDeviceID, _ inProc: AudioDeviceIOProc) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    return device.removeIOProc(unsafeBitCast(inProc, to: UnsafeMutableRawPointer.self))
}

/// Apple's `AudioDeviceRead`: the device keeps no input history to read from (input reaches IOProcs only),
/// so this answers kAudioHardwareUnsupportedOperationError (kAudioHardwareNotRunningError when stopped).
public func AudioDeviceRead(_ inDevice: AudioDeviceID, _ inStartTime: UnsafePointer<AudioTimeStamp>,
                            _ outData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    guard let device = HALSystem.shared.device(inDevice) else { return kAudioHardwareBadDeviceError }
    guard device.isRunning else { return kAudioHardwareNotRunningError }
    return kAudioHardwareUnsupportedOperationError
}

/// Apple's `AudioDeviceGetPropertyInfo`: size and settability of (channel, section) as (element, scope).
public func AudioDeviceGetPropertyInfo(_ inDevice: AudioDeviceID, _ inChannel: UInt32, _ isInput: Bool, _ inPropertyID: AudioDevicePropertyID,
                                       _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    propertyInfo(inDevice, deviceAddress(inPropertyID, inChannel, isInput), outSize, outWritable)
}

/// Apple's `AudioDeviceGetProperty`: AudioObjectGetPropertyData at (channel, section).
public func AudioDeviceGetProperty(_ inDevice: AudioDeviceID, _ inChannel: UInt32, _ isInput: Bool, _ inPropertyID: AudioDevicePropertyID,
                                   _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    var a = deviceAddress(inPropertyID, inChannel, isInput)
    return AudioObjectGetPropertyData(inDevice, &a, 0, nil, ioPropertyDataSize, outPropertyData)
}

/// Apple's `AudioDeviceSetProperty`: AudioObjectSetPropertyData at (channel, section). `inWhen` (a time on the
/// device's clock) is not honoured: the change is made at once, as Apple's HAL does for NULL.
public func AudioDeviceSetProperty(_ inDevice: AudioDeviceID, _ inWhen: UnsafePointer<AudioTimeStamp>?, _ inChannel: UInt32, _ isInput: Bool,
                                   _ inPropertyID: AudioDevicePropertyID, _ inPropertyDataSize: UInt32,
                                   _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    var a = deviceAddress(inPropertyID, inChannel, isInput)
    return AudioObjectSetPropertyData(inDevice, &a, 0, nil, inPropertyDataSize, inPropertyData)
}

/// Apple's `AudioDeviceAddPropertyListener`: `inProc` is called with (device, channel, isInput, property).
public func AudioDeviceAddPropertyListener(_ inDevice: AudioDeviceID, _ inChannel: UInt32, _ isInput: Bool, _ inPropertyID: AudioDevicePropertyID,
                                           _ inProc: AudioDevicePropertyListenerProc, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    guard HALSystem.shared.device(inDevice) != nil else { return kAudioHardwareBadDeviceError }
    return LegacyListener.add(inDevice, deviceAddress(inPropertyID, inChannel, isInput), .device(inProc), inClientData)
}

/// Apple's `AudioDeviceRemovePropertyListener`.
public func AudioDeviceRemovePropertyListener(_ inDevice: AudioDeviceID, _ inChannel: UInt32, _ isInput: Bool, _ inPropertyID: AudioDevicePropertyID,
                                              _ inProc: AudioDevicePropertyListenerProc) -> OSStatus {
    LegacyListener.remove(inDevice, deviceAddress(inPropertyID, inChannel, isInput), unsafeBitCast(inProc, to: UnsafeRawPointer.self))
}

// MARK: Streams

/// Apple's `AudioStreamGetPropertyInfo`: size and settability of the property at `inChannel`.
public func AudioStreamGetPropertyInfo(_ inStream: AudioStreamID, _ inChannel: UInt32, _ inPropertyID: AudioDevicePropertyID,
                                       _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    propertyInfo(inStream, streamAddress(inPropertyID, inChannel), outSize, outWritable)
}

/// Apple's `AudioStreamGetProperty`.
public func AudioStreamGetProperty(_ inStream: AudioStreamID, _ inChannel: UInt32, _ inPropertyID: AudioDevicePropertyID,
                                   _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    var a = streamAddress(inPropertyID, inChannel)
    return AudioObjectGetPropertyData(inStream, &a, 0, nil, ioPropertyDataSize, outPropertyData)
}

/// Apple's `AudioStreamSetProperty` (`inWhen` is not honoured: the change is made at once).
public func AudioStreamSetProperty(_ inStream: AudioStreamID, _ inWhen: UnsafePointer<AudioTimeStamp>?, _ inChannel: UInt32,
                                   _ inPropertyID: AudioDevicePropertyID, _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    var a = streamAddress(inPropertyID, inChannel)
    return AudioObjectSetPropertyData(inStream, &a, 0, nil, inPropertyDataSize, inPropertyData)
}

/// Apple's `AudioStreamAddPropertyListener`: `inProc` is called with (stream, channel, property).
public func AudioStreamAddPropertyListener(_ inStream: AudioStreamID, _ inChannel: UInt32, _ inPropertyID: AudioDevicePropertyID,
                                           _ inProc: AudioStreamPropertyListenerProc, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    guard HALSystem.shared.object(inStream) is HALStream else { return kAudioHardwareBadStreamError }
    return LegacyListener.add(inStream, streamAddress(inPropertyID, inChannel), .stream(inProc), inClientData)
}

/// Apple's `AudioStreamRemovePropertyListener`.
public func AudioStreamRemovePropertyListener(_ inStream: AudioStreamID, _ inChannel: UInt32, _ inPropertyID: AudioDevicePropertyID,
                                              _ inProc: AudioStreamPropertyListenerProc) -> OSStatus {
    LegacyListener.remove(inStream, streamAddress(inPropertyID, inChannel), unsafeBitCast(inProc, to: UnsafeRawPointer.self))
}
