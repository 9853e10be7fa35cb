import Foundation

/// A shorter name for a parameter or a clump (`kAudioUnitProperty_ParameterIDName`,
/// `kAudioUnitProperty_ParameterClumpName`), with Apple's layout. A Swift struct (not C) because its name is
/// a CoreFoundation object, handed out +1 (the caller releases it).
public struct AudioUnitParameterNameInfo {
    /// The parameter ID (ParameterIDName) or clump ID (ParameterClumpName) asked about.
    public var inID: AudioUnitParameterID
    /// The longest name the host wants, or `kAudioUnitParameterName_Full`.
    public var inDesiredLength: Int32
    /// The name, +1.
    public var outName: Unmanaged<CFString>?

    /// The zero value, as the imported C type's.
    public init() {
        inID = 0
        inDesiredLength = 0
        outName = nil
    }

    /// A value with every field given (the memberwise initializer of the C type).
    public init(inID: AudioUnitParameterID, inDesiredLength: Int32, outName: Unmanaged<CFString>?) {
        self.inID = inID
        self.inDesiredLength = inDesiredLength
        self.outName = outName
    }
}

/// Apple's second name for `AudioUnitParameterNameInfo`.
public typealias AudioUnitParameterIDName = AudioUnitParameterNameInfo
