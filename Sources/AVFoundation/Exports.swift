// The AVFoundation umbrella, as client code imports it on Apple's platforms: it re-exports AVFAudio
// (AVAudioEngine, AVAudioFile, ...), AudioToolbox, CoreAudio, CoreAudioTypes and Foundation. CoreMIDI joins it
// when that module exists.
//
// Threading: that of the modules it re-exports (AudioToolbox's Exports.swift states it; AVFAudio's Exports.swift).
@_exported import AVFAudio
@_exported import AudioToolbox
@_exported import CoreAudio
@_exported import CoreAudioTypes
@_exported import Foundation
