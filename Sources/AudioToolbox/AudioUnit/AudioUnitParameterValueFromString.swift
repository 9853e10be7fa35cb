import Foundation

/// `kAudioUnitProperty_ParameterValueFromString`'s value, with Apple's layout: the value `inString` names.
/// A Swift struct (not C) because its string is a CoreFoundation object.
public struct AudioUnitParameterValueFromString {
    /// The parameter, in the scope and element the property is asked in.
    public var inParamID: AudioUnitParameterID
    /// The text to read.
    public var inString: Unmanaged<CFString>
    /// The value it names.
    public var outValue: AudioUnitParameterValue

    /// A value with every field given (the memberwise initializer of the C type).
    public init(inParamID: AudioUnitParameterID, inString: Unmanaged<CFString>, outValue: AudioUnitParameterValue) {
        self.inParamID = inParamID
        self.inString = inString
        self.outValue = outValue
    }
}
