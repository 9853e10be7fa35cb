// The AudioToolbox module: Apple's AudioToolbox API (C declarations in CAudioToolbox, functions in
// Swift) and the engine behind it. Re-exports Foundation and CoreAudioTypes, as Apple's does.
@_exported import CoreAudioTypes
@_exported import CoreAudio

@_exported import Foundation
