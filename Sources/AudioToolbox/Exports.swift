@_exported import CoreAudioTypes
@_exported import CAudioToolbox
