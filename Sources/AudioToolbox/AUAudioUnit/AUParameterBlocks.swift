// The block types of Apple's AUParameters.h and AUAudioUnitImplementation.h, as Swift imports them.

/// Called after a parameter's value changed: its address and new value.
public typealias AUParameterObserver = (AUParameterAddress, AUValue) -> Void
/// Receives recorded parameter changes (a count and the events).
public typealias AUParameterRecordingObserver = (Int, UnsafePointer<AURecordedParameterEvent>) -> Void
/// Receives parameter automation events, gestures included (a count and the events).
public typealias AUParameterAutomationObserver = (Int, UnsafePointer<AUParameterAutomationEvent>) -> Void
/// Tells an audio unit's implementation that a parameter was given a new value.
public typealias AUImplementorValueObserver = (AUParameter, AUValue) -> Void
/// Asks an audio unit's implementation for a parameter's current value.
public typealias AUImplementorValueProvider = (AUParameter) -> AUValue
/// Turns a parameter value (the current one when nil) into text.
public typealias AUImplementorStringFromValueCallback = (AUParameter, UnsafePointer<AUValue>?) -> String
/// Turns text into a parameter value.
public typealias AUImplementorValueFromStringCallback = (AUParameter, String) -> AUValue
/// A node's display name shortened to at most the given length.
public typealias AUImplementorDisplayNameWithLengthCallback = (AUParameterNode, Int) -> String
