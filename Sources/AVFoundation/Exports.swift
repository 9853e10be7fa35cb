// The AVFoundation umbrella, as client code imports it on Apple's platforms: it re-exports AudioToolbox,
// CoreAudio, CoreAudioTypes and Foundation. AVFAudio (AVAudioEngine, AVAudioFile, ...) joins it when that
// module exists (issue 18); CoreMIDI when it does.
//
// Threading: that of the modules it re-exports (AudioToolbox's Exports.swift states it).
@_exported import AudioToolbox
@_exported import CoreAudio
@_exported import CoreAudioTypes
@_exported import Foundation
