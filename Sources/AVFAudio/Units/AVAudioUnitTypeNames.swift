import Foundation

// Apple's names for the standard audio unit types (AVAudioUnitComponent.typeName) and Apple's manufacturer name.

/// Apple's `AVAudioUnitTypeOutput`.
public let AVAudioUnitTypeOutput = "Output"
/// Apple's `AVAudioUnitTypeMusicDevice`.
public let AVAudioUnitTypeMusicDevice = "Music Device"
/// Apple's `AVAudioUnitTypeMusicEffect`.
public let AVAudioUnitTypeMusicEffect = "Music Effect"
/// Apple's `AVAudioUnitTypeFormatConverter`.
public let AVAudioUnitTypeFormatConverter = "Format Converter"
/// Apple's `AVAudioUnitTypeEffect`.
public let AVAudioUnitTypeEffect = "Effect"
/// Apple's `AVAudioUnitTypeMixer`.
public let AVAudioUnitTypeMixer = "Mixer"
/// Apple's `AVAudioUnitTypePanner`.
public let AVAudioUnitTypePanner = "Panner"
/// Apple's `AVAudioUnitTypeGenerator`.
public let AVAudioUnitTypeGenerator = "Generator"
/// Apple's `AVAudioUnitTypeOfflineEffect`.
public let AVAudioUnitTypeOfflineEffect = "Offline Effect"
/// Apple's `AVAudioUnitTypeMIDIProcessor`.
public let AVAudioUnitTypeMIDIProcessor = "MIDI Processor"
/// Apple's `AVAudioUnitManufacturerNameApple`.
public let AVAudioUnitManufacturerNameApple = "Apple"
/// Apple's `AVAudioUnitComponentTagsDidChangeNotification` (posted when a component's user tags change).
public let AVAudioUnitComponentTagsDidChangeNotification = "AVAudioUnitComponentTagsDidChangeNotification"
