import Foundation

/// A node on any registered audio unit, found by its component description.
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {
    /// The description the unit was made from.
    public let audioComponentDescription: AudioComponentDescription

    init(description: AudioComponentDescription, unit: AudioUnit) {
        audioComponentDescription = description
        super.init(unit: unit)
    }

    /// Makes the right AVAudioUnit subclass (effect, generator, time effect, MIDI instrument) for a registered
    /// unit and hands it to `completionHandler` (at once, on this thread), or nil with an error.
    public class func instantiate(with audioComponentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = [],
                                  completionHandler: @escaping (AVAudioUnit?, Error?) -> Void) {
        var d = audioComponentDescription
        var unit: AudioUnit?
        guard let component = AudioComponentFindNext(nil, &d) else {
            completionHandler(nil, AVAudioError.make(-3000)  /* invalidComponentID, as AudioComponentInstanceNew answers */)
            return
        }
        let status = AudioComponentInstanceNew(component, &unit)
        guard status == noErr, let unit else {
            completionHandler(nil, AVAudioError.make(status == noErr ? kAudioComponentErr_InstanceInvalidated : status))
            return
        }
        let node: AVAudioUnit = switch audioComponentDescription.componentType {
        case kAudioUnitType_Effect, kAudioUnitType_MusicEffect: AVAudioUnitEffect(description: audioComponentDescription, unit: unit)
        case kAudioUnitType_Generator: AVAudioUnitGenerator(description: audioComponentDescription, unit: unit)
        case kAudioUnitType_FormatConverter: AVAudioUnitTimeEffect(description: audioComponentDescription, unit: unit)
        case kAudioUnitType_MusicDevice:
            audioComponentDescription.componentSubType == kAudioUnitSubType_Sampler
                && audioComponentDescription.componentManufacturer == kAudioUnitManufacturer_Apple
                ? AVAudioUnitSampler(description: audioComponentDescription, unit: unit)
                : AVAudioUnitMIDIInstrument(description: audioComponentDescription, unit: unit)
        default: AVAudioUnit(description: audioComponentDescription, unit: unit)
        }
        completionHandler(node, nil)
    }

    /// Loads an .aupreset file (a property list holding the unit's ClassInfo).
    public func loadPreset(at url: URL) throws {
        let data = try Data(contentsOf: url)
        guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary else {
            throw AVAudioError.make(kAudioUnitErr_InvalidPropertyValue)
        }
        var info: CFPropertyList? = plist
        try AVAudioError.check(AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &info,
                                                    UInt32(MemoryLayout<CFPropertyList?>.size)))
    }

    /// The unit itself.
    public var audioUnit: AudioUnit { unit }

    private var componentName: (manufacturer: String, name: String) {
        let component = AudioComponentInstanceGetComponent(unit)
        var name: Unmanaged<CFString>?
        guard AudioComponentCopyName(component, &name) == noErr, let full = name?.takeRetainedValue() as String? else { return ("", "") }
        let parts = full.components(separatedBy: ": ")
        return parts.count > 1 ? (parts[0], parts.dropFirst().joined(separator: ": ")) : ("", full)
    }

    /// The unit's name (after the manufacturer in the component's name).
    public var name: String { componentName.name }
    /// The manufacturer's name.
    public var manufacturerName: String { componentName.manufacturer }

    /// The component's version.
    public var version: Int {
        let component = AudioComponentInstanceGetComponent(unit)
        var version: UInt32 = 0
        AudioComponentGetVersion(component, &version)
        return Int(version)
    }

    // Parameter access for the subclasses.
    func parameter(_ id: AudioUnitParameterID, scope: AudioUnitScope = kAudioUnitScope_Global, element: AudioUnitElement = 0) -> Float {
        var value: AudioUnitParameterValue = 0
        AudioUnitGetParameter(unit, id, scope, element, &value)
        return value
    }

    func setParameter(_ id: AudioUnitParameterID, _ value: Float, scope: AudioUnitScope = kAudioUnitScope_Global, element: AudioUnitElement = 0) {
        AudioUnitSetParameter(unit, id, scope, element, value, 0)
    }

    /// Loads factory preset `number` through kAudioUnitProperty_PresentPreset.
    func loadFactoryPreset(number: Int) {
        var preset = AUPreset(presetNumber: Int32(number), presetName: nil)
        AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
    }

    /// Whether the unit is bypassed (kAudioUnitProperty_BypassEffect).
    var bypassed: Bool {
        get {
            var value: UInt32 = 0
            var size: UInt32 = 4
            AudioUnitGetProperty(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &value, &size)
            return value != 0
        }
        set {
            var value: UInt32 = newValue ? 1 : 0
            AudioUnitSetProperty(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &value, 4)
        }
    }
}
