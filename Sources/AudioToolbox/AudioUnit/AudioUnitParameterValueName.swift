import Foundation

/// The deprecated form of `AudioUnitParameterStringFromValue` (`kAudioUnitProperty_ParameterValueName`), with
/// Apple's layout and field names.
public struct AudioUnitParameterValueName {
    /// The parameter.
    public var inParamID: AudioUnitParameterID
    /// The value to name.
    public var inValue: UnsafePointer<Float32>
    /// The text, +1.
    public var outName: Unmanaged<CFString>

    /// A value with every field given (the memberwise initializer of the C type).
    public init(inParamID: AudioUnitParameterID, inValue: UnsafePointer<Float32>, outName: Unmanaged<CFString>) {
        self.inParamID = inParamID
        self.inValue = inValue
        self.outName = outName
    }
}
