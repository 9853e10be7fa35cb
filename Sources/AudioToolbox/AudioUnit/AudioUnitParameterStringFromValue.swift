import Foundation

/// `kAudioUnitProperty_ParameterStringFromValue`'s value, with Apple's layout: the text of `inValue` (or of
/// the current value when `inValue` points at nothing the unit can use) comes back +1 in `outString`.
/// A Swift struct (not C) because its string is a CoreFoundation object.
public struct AudioUnitParameterStringFromValue {
    /// The parameter, in the scope and element the property is asked in.
    public var inParamID: AudioUnitParameterID
    /// The value to name.
    public var inValue: UnsafePointer<AudioUnitParameterValue>
    /// The text, +1 (the caller releases it).
    public var outString: Unmanaged<CFString>?

    /// A value with every field given (the memberwise initializer of the C type).
    public init(inParamID: AudioUnitParameterID, inValue: UnsafePointer<AudioUnitParameterValue>, outString: Unmanaged<CFString>?) {
        self.inParamID = inParamID
        self.inValue = inValue
        self.outString = outString
    }
}
