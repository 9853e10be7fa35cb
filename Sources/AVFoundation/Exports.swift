// The AVFoundation umbrella, as client code imports it on Apple's platforms: it re-exports AVFAudio
// (AVAudioEngine, AVAudioFile, ...), AudioToolbox, CoreAudio, CoreAudioTypes, CoreMIDI and Foundation.
//
// Threading: that of the modules it re-exports (AudioToolbox's Exports.swift states it; AVFAudio's Exports.swift).
@_exported import AVFAudio
@_exported import AudioToolbox
@_exported import CoreAudio
@_exported import CoreAudioTypes
@_exported import CoreMIDI
@_exported import Foundation
