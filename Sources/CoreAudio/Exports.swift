// The CoreAudio module: Apple's HAL API (AudioObject*, AudioDevice*, host time) over ALSA. C declarations
// in CCoreAudio, functions in Swift. Re-exports CoreAudioTypes, as Apple's does.
@_exported import CoreAudioTypes
@_exported import CCoreAudio
