// The audio unit API (AUComponent.h, AudioOutputUnit.h) with Apple's names, signatures and the
// dispatch rules of Apple's plug-in dispatch layer (null pointers, sizes, truncation).

/// Apple's `AudioUnitInitialize`: allocates render memory and checks formats.
@discardableResult
public func AudioUnitInitialize(_ inUnit: AudioUnit) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.initialize()
}

/// Apple's `AudioUnitUninitialize`: releases render memory.
@discardableResult
public func AudioUnitUninitialize(_ inUnit: AudioUnit) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.uninitialize()
}

/// Apple's `AudioUnitReset`: clears the unit's history (delay lines, filters, ramps).
@discardableResult
public func AudioUnitReset(_ inUnit: AudioUnit, _ inScope: AudioUnitScope, _ inElement: AudioUnitElement) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.reset(scope: inScope, element: inElement)
}

/// The size of a property's value and whether it can be set. Either out pointer may be nil; on
/// error both are set to 0/false.
@discardableResult
public func AudioUnitGetPropertyInfo(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                     _ inElement: AudioUnitElement, _ outDataSize: UnsafeMutablePointer<UInt32>?,
                                     _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    var size: UInt32 = 0
    var writable = false
    let status = unit.getPropertyInfo(inID, inScope, inElement, &size, &writable)
    if status != noErr { size = 0; writable = false }
    outDataSize?.pointee = size
    outWritable?.pointee = DarwinBoolean(writable)
    return status
}

/// Reads a property. A buffer smaller than the value receives its first `*ioDataSize` bytes; a larger
/// one gets `*ioDataSize` set to the value's size. Object values (CFString, CFDictionary) are +1.
@discardableResult
public func AudioUnitGetProperty(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                 _ inElement: AudioUnitElement, _ outData: UnsafeMutableRawPointer,
                                 _ ioDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    var size: UInt32 = 0
    var writable = false
    let infoStatus = unit.getPropertyInfo(inID, inScope, inElement, &size, &writable)
    guard infoStatus == noErr else { return infoStatus }
    guard ioDataSize.pointee > 0 else { return kAudio_ParamError }
    if ioDataSize.pointee >= size {
        var actual = size
        let status = unit.getProperty(inID, inScope, inElement, outData, &actual)
        ioDataSize.pointee = status == noErr ? actual : 0
        return status
    }
    // Too small: produce the whole value, hand back the part that fits. The caller's bytes go in first, zeros after
    // them: some properties read their question from the buffer (FrequencyResponse's frequencies).
    let temp = UnsafeMutableRawPointer.allocate(byteCount: Int(max(size, 1)), alignment: 16)
    defer { temp.deallocate() }
    temp.initializeMemory(as: UInt8.self, repeating: 0, count: Int(max(size, 1)))
    temp.copyMemory(from: outData, byteCount: Int(ioDataSize.pointee))
    var actual = size
    let status = unit.getProperty(inID, inScope, inElement, temp, &actual)
    if status == noErr {
        outData.copyMemory(from: temp, byteCount: Int(min(ioDataSize.pointee, actual)))
    } else {
        ioDataSize.pointee = 0
    }
    return status
}

/// Sets a property. `inData == nil` with `inDataSize == 0` asks to remove the value (supported by
/// few properties); a nil pointer with a size, or a pointer with size 0, is `kAudio_ParamError`.
@discardableResult
public func AudioUnitSetProperty(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
                                 _ inElement: AudioUnitElement, _ inData: UnsafeRawPointer?,
                                 _ inDataSize: UInt32) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    if (inData == nil) != (inDataSize == 0) { return kAudio_ParamError }
    return unit.setProperty(inID, inScope, inElement, inData, inDataSize)
}

/// Apple's `AudioUnitAddPropertyListener`: calls `inProc` when the property changes.
@discardableResult
public func AudioUnitAddPropertyListener(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID,
                                         _ inProc: AudioUnitPropertyListenerProc,
                                         _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.addPropertyListener(inID, inProc, inProcUserData)
}

/// Apple's deprecated `AudioUnitRemovePropertyListener`: removes every listener with `inProc`.
@available(*, deprecated, renamed: "AudioUnitRemovePropertyListenerWithUserData")
@discardableResult
public func AudioUnitRemovePropertyListener(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID,
                                            _ inProc: AudioUnitPropertyListenerProc) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.removePropertyListener(inID, inProc, nil, matchUserData: false)
}

/// Apple's `AudioUnitRemovePropertyListenerWithUserData`: removes the listener with this proc and user data.
@discardableResult
public func AudioUnitRemovePropertyListenerWithUserData(_ inUnit: AudioUnit, _ inID: AudioUnitPropertyID,
                                                        _ inProc: AudioUnitPropertyListenerProc,
                                                        _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.removePropertyListener(inID, inProc, inProcUserData, matchUserData: true)
}

/// Adds a callback called before (`.unitRenderAction_PreRender`) and after (`.unitRenderAction_PostRender`)
/// every render of the unit. Takes effect at the next render; never blocks the render thread.
@discardableResult
public func AudioUnitAddRenderNotify(_ inUnit: AudioUnit, _ inProc: AURenderCallback,
                                     _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.addRenderNotify(inProc, inProcUserData)
}

/// Apple's `AudioUnitRemoveRenderNotify`: removes a render notification.
@discardableResult
public func AudioUnitRemoveRenderNotify(_ inUnit: AudioUnit, _ inProc: AURenderCallback,
                                        _ inProcUserData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let unit = AudioUnitObject.live(inUnit) else { return badComponentInstance }
    return unit.removeRenderNotify(inProc, inProcUserData)
}

/// Reads a parameter. Safe on the render thread.
@discardableResult
public func AudioUnitGetParameter(_ inUnit: AudioUnit, _ inID: AudioUnitParameterID, _ inScope: AudioUnitScope,
                                  _ inElement: AudioUnitElement,
                                  _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.getParameter(inID, inScope, inElement, outValue) }
}

/// Sets a parameter immediately (the offset is accepted and ignored, as in Apple's base class; use
/// `AudioUnitScheduleParameters` for sample-accurate changes). Safe on the render thread.
@discardableResult
public func AudioUnitSetParameter(_ inUnit: AudioUnit, _ inID: AudioUnitParameterID, _ inScope: AudioUnitScope,
                                  _ inElement: AudioUnitElement, _ inValue: AudioUnitParameterValue,
                                  _ inBufferOffsetInFrames: UInt32) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.setParameter(inID, inScope, inElement, inValue, inBufferOffsetInFrames) }
}

/// Schedules immediate and ramped parameter changes for the next render, at sample offsets within
/// it. Safe on the render thread (for example from a pre-render notification).
@discardableResult
public func AudioUnitScheduleParameters(_ inUnit: AudioUnit, _ inParameterEvent: UnsafePointer<AudioUnitParameterEvent>,
                                        _ inNumParamEvents: UInt32) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.scheduleParameters(inParameterEvent, inNumParamEvents) }
}

/// Renders `inNumberFrames` frames of output bus `inOutputBusNumber` into `ioData`. Buffers whose
/// `mData` is nil receive pointers to the unit's own memory. Safe on the render thread.
@discardableResult
public func AudioUnitRender(_ inUnit: AudioUnit, _ ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                            _ inTimeStamp: UnsafePointer<AudioTimeStamp>, _ inOutputBusNumber: UInt32,
                            _ inNumberFrames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) {
        $0.render(ioActionFlags, inTimeStamp, inOutputBusNumber, inNumberFrames, ioData)
    }
}

/// Processes `ioData` in place without pulling the unit's inputs (effects that support it). Safe on
/// the render thread.
@discardableResult
public func AudioUnitProcess(_ inUnit: AudioUnit, _ ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                             _ inTimeStamp: UnsafePointer<AudioTimeStamp>, _ inNumberFrames: UInt32,
                             _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.processInPlace(ioActionFlags, inTimeStamp, inNumberFrames, ioData) }
}

/// Multiple-bus processing without pulling inputs. No built-in unit supports it yet:
/// returns `kAudio_UnimplementedError`.
@discardableResult
public func AudioUnitProcessMultiple(_ inUnit: AudioUnit, _ ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                                     _ inTimeStamp: UnsafePointer<AudioTimeStamp>, _ inNumberFrames: UInt32,
                                     _ inNumberInputBufferLists: UInt32,
                                     _ inInputBufferLists: UnsafeMutablePointer<UnsafePointer<AudioBufferList>>,
                                     _ inNumberOutputBufferLists: UInt32,
                                     _ ioOutputBufferLists: UnsafeMutablePointer<UnsafeMutablePointer<AudioBufferList>>) -> OSStatus {
    kAudio_UnimplementedError
}

/// Starts an output unit (for AUGenericOutput: marks it running; the host then pulls with AudioUnitRender).
@discardableResult
public func AudioOutputUnitStart(_ ci: AudioUnit) -> OSStatus {
    guard let unit = AudioUnitObject.live(ci) else { return badComponentInstance }
    return unit.start()
}

/// Apple's `AudioOutputUnitStop`: stops an output unit's I/O.
@discardableResult
public func AudioOutputUnitStop(_ ci: AudioUnit) -> OSStatus {
    guard let unit = AudioUnitObject.live(ci) else { return badComponentInstance }
    return unit.stop()
}
