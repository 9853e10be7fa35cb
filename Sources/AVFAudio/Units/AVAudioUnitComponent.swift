import AudioToolbox
import Foundation

/// Apple's `AVAudioUnitComponent`: what the component registry knows of one audio unit, read without opening it
/// (name, type, manufacturer, version, tags, MIDI and channel capabilities). Made by AVAudioUnitComponentManager.
open class AVAudioUnitComponent: NSObject, @unchecked Sendable {
    /// The unit's name, without the manufacturer ("AUDelay" for "Apple: AUDelay").
    open private(set) var name: String
    /// The type's standard name (AVAudioUnitTypeEffect ...), or the type code's characters for another type.
    open private(set) var typeName: String
    /// The type's name for display (the same as `typeName` here: no localisations).
    open var localizedTypeName: String { typeName }
    /// The manufacturer's name ("Apple" for Apple's units; the part of the component's name before ": ").
    open private(set) var manufacturerName: String
    /// The component's version (AudioComponentGetVersion), e.g. 0x00010000.
    open private(set) var version: Int
    /// The version as "major.minor.bugfix".
    open var versionString: String { "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)" }
    /// True: every unit here runs in the host's process with its rights.
    open var isSandboxSafe: Bool { true }
    /// Whether the unit takes MIDI (instruments, music effects and MIDI processors).
    open var hasMIDIInput: Bool {
        [kAudioUnitType_MusicDevice, kAudioUnitType_MusicEffect, kAudioUnitType_MIDIProcessor].contains(audioComponentDescription.componentType)
    }
    /// Whether the unit sends MIDI (MIDI processors).
    open var hasMIDIOutput: Bool { audioComponentDescription.componentType == kAudioUnitType_MIDIProcessor }
    /// The component itself, for AudioComponentInstanceNew or AVAudioUnit.instantiate.
    open private(set) var audioComponent: AudioComponent
    /// The system tags and the user's tags.
    open var allTagNames: [String] { userTagNames }
    /// Tags the user gave the unit (kept for this process; setting them posts AVAudioUnitComponentTagsDidChangeNotification).
    open var userTagNames: [String] = [] {
        didSet {
            NotificationCenter.default.post(name: NSNotification.Name(AVAudioUnitComponentTagsDidChangeNotification), object: self)
        }
    }
    /// The component's description (type, subtype, manufacturer, flags).
    open private(set) var audioComponentDescription: AudioComponentDescription
    /// Nil: no icons here.
    open var iconURL: URL? { nil }
    /// Whether the unit passed validation: built-in units and registered ones that AudioComponentValidate accepts.
    open var passesAUVal: Bool {
        var result = AudioComponentValidationResult.unknown
        return AudioComponentValidate(audioComponent, nil, &result) == noErr && result == .passed
    }
    /// False: no views here.
    open var hasCustomView: Bool { false }
    /// The architectures the unit's code was built for (this machine's).
    open var availableArchitectures: [NSNumber] { [NSNumber(value: 0x0100_0007)] }  // CPU_TYPE_X86_64
    /// The component's configuration information (AudioComponentCopyConfigurationInfo), empty if it has none.
    open var configurationDictionary: [String: Any] {
        var info: Unmanaged<CFDictionary>?
        guard AudioComponentCopyConfigurationInfo(audioComponent, &info) == noErr, let dictionary = info?.takeRetainedValue() as? [String: Any] else {
            return [:]
        }
        return dictionary
    }

    init(_ component: AudioComponent) {
        audioComponent = component
        var description = AudioComponentDescription()
        AudioComponentGetDescription(component, &description)
        audioComponentDescription = description
        var cfName: Unmanaged<CFString>?
        let full = AudioComponentCopyName(component, &cfName) == noErr ? (cfName?.takeRetainedValue() as String? ?? "") : ""
        if let colon = full.range(of: ": ") {
            manufacturerName = String(full[..<colon.lowerBound])
            name = String(full[colon.upperBound...])
        } else {
            manufacturerName = description.componentManufacturer == kAudioUnitManufacturer_Apple ? AVAudioUnitManufacturerNameApple : ""
            name = full
        }
        typeName = Self.typeName(description.componentType)
        var v: UInt32 = 0
        version = AudioComponentGetVersion(component, &v) == noErr ? Int(v) : 0
        super.init()
    }

    static func typeName(_ type: OSType) -> String {
        switch type {
        case kAudioUnitType_Output: AVAudioUnitTypeOutput
        case kAudioUnitType_MusicDevice: AVAudioUnitTypeMusicDevice
        case kAudioUnitType_MusicEffect: AVAudioUnitTypeMusicEffect
        case kAudioUnitType_FormatConverter: AVAudioUnitTypeFormatConverter
        case kAudioUnitType_Effect: AVAudioUnitTypeEffect
        case kAudioUnitType_Mixer: AVAudioUnitTypeMixer
        case kAudioUnitType_Panner: AVAudioUnitTypePanner
        case kAudioUnitType_Generator: AVAudioUnitTypeGenerator
        case kAudioUnitType_OfflineEffect: AVAudioUnitTypeOfflineEffect
        case kAudioUnitType_MIDIProcessor: AVAudioUnitTypeMIDIProcessor
        default: String(decoding: withUnsafeBytes(of: type.bigEndian) { Array($0) }, as: UTF8.self)
        }
    }

    /// Whether the unit takes this channel configuration: any, unless its SupportedNumChannels property (read from a
    /// short-lived instance) lists the pairs it takes (-1 meaning any count, -2 any with the other side's count equal).
    open func supportsNumberInputChannels(_ numInputChannels: Int, outputChannels numOutputChannels: Int) -> Bool {
        var instance: AudioComponentInstance?
        guard AudioComponentInstanceNew(audioComponent, &instance) == noErr, let unit = instance else { return false }
        defer { AudioComponentInstanceDispose(unit) }
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil) == noErr,
              size >= UInt32(MemoryLayout<AUChannelInfo>.size) else { return true }
        var pairs = [AUChannelInfo](repeating: AUChannelInfo(), count: Int(size) / MemoryLayout<AUChannelInfo>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &pairs, &size) == noErr else {
            return true
        }
        return pairs.contains { pair in
            let i = Int(pair.inChannels), o = Int(pair.outChannels)
            if i == -1 && o == -1 { return true }
            if i == -2 || o == -2 { return numInputChannels == numOutputChannels || i == -1 || o == -1 }
            return (i == -1 || i == numInputChannels) && (o == -1 || o == numOutputChannels)
        }
    }
}
