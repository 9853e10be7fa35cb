// The AudioUnit module: re-exports AudioToolbox, as Apple's does.
//
// Threading: AudioToolbox's contract (see its Exports.swift).
@_exported import AudioToolbox
