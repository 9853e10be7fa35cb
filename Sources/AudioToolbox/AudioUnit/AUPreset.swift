/// A preset: a number (negative for user presets) and a name (`kAudioUnitProperty_PresentPreset`,
/// `kAudioUnitProperty_FactoryPresets`).
public struct AUPreset {
    public var presetNumber: Int32
    public var presetName: Unmanaged<CFString>?

    /// The zero value, as the imported C type's.
    public init() {
        presetNumber = 0
        presetName = nil
    }

    /// A value with every field given (the memberwise initializer of the C type).
    public init(presetNumber: Int32, presetName: Unmanaged<CFString>?) {
        self.presetNumber = presetNumber
        self.presetName = presetName
    }
}

/// The keys of the `kAudioUnitProperty_ClassInfo` dictionary (AUPreset keys in Apple's headers).
public let kAUPresetVersionKey = "version"
public let kAUPresetTypeKey = "type"
public let kAUPresetSubtypeKey = "subtype"
public let kAUPresetManufacturerKey = "manufacturer"
public let kAUPresetDataKey = "data"
public let kAUPresetNameKey = "name"
public let kAUPresetNumberKey = "preset-number"
public let kAUPresetRenderQualityKey = "render-quality"
public let kAUPresetCPULoadKey = "cpu-load"
public let kAUPresetElementNameKey = "element-name"
public let kAUPresetExternalFileRefs = "file-references"
public let kAUPresetPartKey = "part"
