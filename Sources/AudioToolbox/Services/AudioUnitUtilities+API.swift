import Foundation

// AudioUnitUtilities.h: parameter and event listeners, AUParameterSet and the Notify calls, and the
// linear/format helpers. Listeners are found through AUListenerRegistry; none of these calls may be made
// from a render thread (they lock and allocate), as at Apple.

/// A block called when a parameter value changes (`AUListenerCreateWithDispatchQueue`).
public typealias AUParameterListenerBlock = (UnsafeMutableRawPointer?, UnsafePointer<AudioUnitParameter>, AudioUnitParameterValue) -> Void

/// A block called when an audio unit event occurs (`AUEventListenerCreateWithDispatchQueue`).
public typealias AUEventListenerBlock = (UnsafeMutableRawPointer?, UnsafePointer<AudioUnitEvent>, UInt64, AudioUnitParameterValue) -> Void

private func runLoopTarget(_ runLoop: CFRunLoop?, _ mode: CFString?) -> AUListenerObject.Target {
    .runLoop(runLoop ?? CFRunLoopGetCurrent(), mode: (mode as String?) ?? "kCFRunLoopDefaultMode")
}

private func create(_ callback: AUListenerObject.Callback, _ target: AUListenerObject.Target, _ interval: Float32,
                    _ granularity: Float32, _ out: UnsafeMutablePointer<AUParameterListenerRef?>) -> OSStatus {
    let listener = AUListenerObject(callback: callback, target: target, interval: interval, granularity: granularity)
    out.pointee = AUListenerRegistry.shared.add(listener)
    return noErr
}

/// Creates a parameter listener whose callback runs on `inRunLoop` (the current thread's when nil) in
/// `inRunLoopMode` (the default mode when nil), at most once per `inNotificationInterval` seconds with the
/// latest value of each parameter; with an interval of 0 it runs at once on the thread that made the change.
/// Never call from the render thread.
public func AUListenerCreate(_ inProc: AUParameterListenerProc, _ inUserData: UnsafeMutableRawPointer, _ inRunLoop: CFRunLoop?,
                             _ inRunLoopMode: CFString?, _ inNotificationInterval: Float32,
                             _ outListener: UnsafeMutablePointer<AUParameterListenerRef?>) -> OSStatus {
    create(.parameterProc(inProc, inUserData), runLoopTarget(inRunLoop, inRunLoopMode), inNotificationInterval,
           inNotificationInterval, outListener)
}

/// Creates a parameter listener whose block runs on `inDispatchQueue` (see `AUListenerCreate`).
public func AUListenerCreateWithDispatchQueue(_ outListener: UnsafeMutablePointer<AUParameterListenerRef?>, _ inNotificationInterval: Float32,
                                              _ inDispatchQueue: DispatchQueue, _ inBlock: @escaping AUParameterListenerBlock) -> OSStatus {
    create(.parameterBlock(inBlock), .queue(inDispatchQueue), inNotificationInterval, inNotificationInterval, outListener)
}

/// Disposes a parameter or event listener: nothing is delivered to it afterwards, queued events included.
public func AUListenerDispose(_ inListener: AUParameterListenerRef) -> OSStatus {
    AUListenerRegistry.shared.remove(inListener)
}

/// Delivers value changes of `inParameter` to `inListener`, passing `inObject` to its callback.
public func AUListenerAddParameter(_ inListener: AUParameterListenerRef, _ inObject: UnsafeMutableRawPointer?,
                                   _ inParameter: UnsafePointer<AudioUnitParameter>) -> OSStatus {
    guard let listener = AUListenerRegistry.shared.listener(inListener) else { return kAudio_ParamError }
    return AUListenerRegistry.shared.register(listener, inObject, valueChange(inParameter.pointee))
}

/// Stops what `AUListenerAddParameter` started.
public func AUListenerRemoveParameter(_ inListener: AUParameterListenerRef, _ inObject: UnsafeMutableRawPointer?,
                                      _ inParameter: UnsafePointer<AudioUnitParameter>) -> OSStatus {
    guard let listener = AUListenerRegistry.shared.listener(inListener) else { return kAudio_ParamError }
    return AUListenerRegistry.shared.unregister(listener, inObject, valueChange(inParameter.pointee))
}

private func valueChange(_ p: AudioUnitParameter) -> AudioUnitEvent {
    AudioUnitEvent(mEventType: .parameterValueChange, mArgument: .init(mParameter: p))
}

/// Sets the parameter on its unit (AudioUnitSetParameter) and notifies every listener of it, except
/// `inSendingListener` with `inSendingObject` (with a nil object: none of that listener's objects).
public func AUParameterSet(_ inSendingListener: AUParameterListenerRef?, _ inSendingObject: UnsafeMutableRawPointer?,
                           _ inParameter: UnsafePointer<AudioUnitParameter>, _ inValue: AudioUnitParameterValue,
                           _ inBufferOffsetInFrames: UInt32) -> OSStatus {
    let p = inParameter.pointee
    let status = AudioUnitSetParameter(p.mAudioUnit, p.mParameterID, p.mScope, p.mElement, inValue, inBufferOffsetInFrames)
    guard status == noErr else { return status }
    AUListenerRegistry.shared.notifyParameter(.parameterValueChange, p, value: inValue,
                                              sender: AUListenerRegistry.shared.listener(inSendingListener), senderObject: inSendingObject)
    return noErr
}

/// Notifies the listeners of a parameter that changed without AUParameterSet (a ramp, or a unit changing its own
/// parameter); they get its current value. `kAUParameterListener_AnyParameter` notifies every listener of
/// every parameter of the unit.
public func AUParameterListenerNotify(_ inSendingListener: AUParameterListenerRef?, _ inSendingObject: UnsafeMutableRawPointer?,
                                      _ inParameter: UnsafePointer<AudioUnitParameter>) -> OSStatus {
    AUListenerRegistry.shared.notifyParameter(.parameterValueChange, inParameter.pointee, value: nil,
                                              sender: AUListenerRegistry.shared.listener(inSendingListener), senderObject: inSendingObject)
    return noErr
}

/// Creates an event listener whose callback runs on `inRunLoop` in `inRunLoopMode` (see `AUListenerCreate`);
/// value changes of one parameter less than `inValueChangeGranularity` seconds apart reach it as the later one.
public func AUEventListenerCreate(_ inProc: AUEventListenerProc, _ inUserData: UnsafeMutableRawPointer?, _ inRunLoop: CFRunLoop?,
                                  _ inRunLoopMode: CFString?, _ inNotificationInterval: Float32, _ inValueChangeGranularity: Float32,
                                  _ outListener: UnsafeMutablePointer<AUEventListenerRef?>) -> OSStatus {
    create(.eventProc(inProc, inUserData), runLoopTarget(inRunLoop, inRunLoopMode), inNotificationInterval,
           inValueChangeGranularity, outListener)
}

/// Creates an event listener whose block runs on `inDispatchQueue` (see `AUEventListenerCreate`).
public func AUEventListenerCreateWithDispatchQueue(_ outListener: UnsafeMutablePointer<AUEventListenerRef?>, _ inNotificationInterval: Float32,
                                                   _ inValueChangeGranularity: Float32, _ inDispatchQueue: DispatchQueue,
                                                   _ inBlock: @escaping AUEventListenerBlock) -> OSStatus {
    create(.eventBlock(inBlock), .queue(inDispatchQueue), inNotificationInterval, inValueChangeGranularity, outListener)
}

/// Delivers events of `inEvent`'s type and parameter (or property) to an event listener. A property-change
/// registration listens to the unit's own property notifications until it is removed.
public func AUEventListenerAddEventType(_ inListener: AUEventListenerRef, _ inObject: UnsafeMutableRawPointer?,
                                        _ inEvent: UnsafePointer<AudioUnitEvent>) -> OSStatus {
    guard let listener = AUListenerRegistry.shared.listener(inListener), listener.callback.takesEvents else { return kAudio_ParamError }
    guard inEvent.pointee.mEventType.rawValue <= AudioUnitEventType.propertyChange.rawValue else { return kAudio_ParamError }
    return AUListenerRegistry.shared.register(listener, inObject, inEvent.pointee)
}

/// Stops what `AUEventListenerAddEventType` started.
public func AUEventListenerRemoveEventType(_ inListener: AUEventListenerRef, _ inObject: UnsafeMutableRawPointer?,
                                           _ inEvent: UnsafePointer<AudioUnitEvent>) -> OSStatus {
    guard let listener = AUListenerRegistry.shared.listener(inListener) else { return kAudio_ParamError }
    return AUListenerRegistry.shared.unregister(listener, inObject, inEvent.pointee)
}

/// Delivers an event (a value change or a gesture) to every listener registered for it, except the sender;
/// value changes carry the parameter's current value. Property changes are the unit's own to announce; one
/// sent here reaches the listeners of that property all the same.
public func AUEventListenerNotify(_ inSendingListener: AUEventListenerRef?, _ inSendingObject: UnsafeMutableRawPointer?,
                                  _ inEvent: UnsafePointer<AudioUnitEvent>) -> OSStatus {
    let event = inEvent.pointee
    switch event.mEventType {
    case .parameterValueChange, .beginParameterChangeGesture, .endParameterChangeGesture:
        AUListenerRegistry.shared.notifyParameter(event.mEventType, event.mArgument.mParameter, value: nil,
                                                  sender: AUListenerRegistry.shared.listener(inSendingListener), senderObject: inSendingObject)
    case .propertyChange:
        AUListenerRegistry.shared.notifyProperty(event.mArgument.mProperty)
    default:
        return kAudio_ParamError
    }
    return noErr
}

/// The parameter's range and display curve, or nil when the unit does not publish it.
private func displayInfo(_ p: UnsafePointer<AudioUnitParameter>) -> (min: Double, max: Double, info: AudioUnitParameterInfo)? {
    var info = AudioUnitParameterInfo()
    var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
    let param = p.pointee
    guard AudioUnitGetProperty(param.mAudioUnit, kAudioUnitProperty_ParameterInfo, param.mScope, param.mParameterID,
                               &info, &size) == noErr else { return nil }
    if info.flags.contains(.flag_CFNameRelease) { info.cfNameString?.release() }
    return (Double(info.minValue), Double(info.maxValue), info)
}

/// The parameter value at slider position `inLinearValue` (0...1), following the parameter's display flags
/// (logarithmic, square root, squared, cubed, cube root, exponential; linear otherwise). Positions outside
/// 0...1 extrapolate; a parameter the unit does not publish gives 0.
public func AUParameterValueFromLinear(_ inLinearValue: Float32, _ inParameter: UnsafePointer<AudioUnitParameter>) -> AudioUnitParameterValue {
    guard let d = displayInfo(inParameter) else { return 0 }
    return Float(ParameterValueText.fromLinear(Double(inLinearValue), min: d.min, max: d.max,
                                               curve: .init(flags: d.info.flags)))
}

/// The slider position (0...1 inside the range) of a parameter value: the inverse of AUParameterValueFromLinear.
public func AUParameterValueToLinear(_ inParameterValue: AudioUnitParameterValue, _ inParameter: UnsafePointer<AudioUnitParameter>) -> Float32 {
    guard let d = displayInfo(inParameter) else { return 0 }
    return Float(ParameterValueText.toLinear(Double(inParameterValue), min: d.min, max: d.max,
                                             curve: .init(flags: d.info.flags)))
}

/// Formats a value into `inTextBuffer` (at least 32 bytes) with Apple's digit rule: `inDigits - 1 - p` digits
/// after the point, where p is the power of ten of the value for logarithmic (or Hertz) parameters, else of
/// the parameter's range. Returns `inTextBuffer`.
public func AUParameterFormatValue(_ inParameterValue: Float64, _ inParameter: UnsafePointer<AudioUnitParameter>,
                                   _ inTextBuffer: UnsafeMutablePointer<CChar>, _ inDigits: UInt32) -> UnsafeMutablePointer<CChar> {
    var magnitude = inParameterValue
    if let d = displayInfo(inParameter), d.info.unit != .hertz,
       ParameterValueText.Curve(flags: d.info.flags) != .logarithmic {
        magnitude = d.max - d.min
    }
    let text = ParameterValueText.format(inParameterValue, magnitude: magnitude, digits: Int(min(inDigits, 64)))
    let bytes = Array(text.utf8.prefix(31))
    for (i, b) in bytes.enumerated() { inTextBuffer[i] = CChar(bitPattern: b) }
    inTextBuffer[bytes.count] = 0
    return inTextBuffer
}
