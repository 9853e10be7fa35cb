/// Information about one parameter (`kAudioUnitProperty_ParameterInfo`), with Apple's layout of
/// members. A Swift struct (not C) because its names are CoreFoundation objects.
public struct AudioUnitParameterInfo {
    /// UTF-8 name, NUL-terminated, for hosts that ignore `cfNameString`.
    public var name: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public var unitName: Unmanaged<CFString>?
    public var clumpID: UInt32
    public var cfNameString: Unmanaged<CFString>?
    public var unit: AudioUnitParameterUnit
    public var minValue: AudioUnitParameterValue
    public var maxValue: AudioUnitParameterValue
    public var defaultValue: AudioUnitParameterValue
    public var flags: AudioUnitParameterOptions

    /// The zero value, as the imported C type's.
    public init() {
        name = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        unitName = nil
        clumpID = 0
        cfNameString = nil
        unit = .generic
        minValue = 0
        maxValue = 0
        defaultValue = 0
        flags = []
    }

    /// A value with every field given (the memberwise initializer of the C type).
    public init(name: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar), unitName: Unmanaged<CFString>?, clumpID: UInt32,
                cfNameString: Unmanaged<CFString>?, unit: AudioUnitParameterUnit,
                minValue: AudioUnitParameterValue, maxValue: AudioUnitParameterValue,
                defaultValue: AudioUnitParameterValue, flags: AudioUnitParameterOptions) {
        self.name = name
        self.unitName = unitName
        self.clumpID = clumpID
        self.cfNameString = cfNameString
        self.unit = unit
        self.minValue = minValue
        self.maxValue = maxValue
        self.defaultValue = defaultValue
        self.flags = flags
    }
}

extension AudioUnitParameterInfo {
    /// OpenCoreAudio helper (not Apple API): a filled-in description, with `name` and `cfNameString`
    /// set from `displayName` and the readable/writable/has-CF-name flags added.
    public static func oca(_ displayName: String, unit: AudioUnitParameterUnit, min: Float, max: Float,
                           default defaultValue: Float, flags: AudioUnitParameterOptions = []) -> AudioUnitParameterInfo {
        var info = AudioUnitParameterInfo()
        withUnsafeMutableBytes(of: &info.name) { raw in
            let bytes = Array(displayName.utf8.prefix(51))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        info.cfNameString = Unmanaged.passRetained(displayName as NSString)
        info.unit = unit
        info.minValue = min
        info.maxValue = max
        info.defaultValue = defaultValue
        info.flags = flags.union([.flag_IsReadable, .flag_IsWritable, .flag_HasCFNameString])
        return info
    }
}
