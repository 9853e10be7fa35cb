// The AudioToolbox module: Apple's AudioToolbox API (C declarations in CAudioToolbox, functions in
// Swift) and the engine behind it. Re-exports Foundation, CoreAudioTypes, CoreAudio and CoreMIDI, as Apple's
// does (its MusicDevice.h and MusicPlayer.h include CoreMIDI's headers).
//
// Threading: from the render thread (inside a render callback, render notification or IOProc) only
// AudioUnitRender, AudioUnitProcess, AudioUnitGetParameter/SetParameter, AudioUnitScheduleParameters,
// ExtAudioFileWriteAsync, CARingBuffer's Store/Fetch, an AUAudioUnit's renderBlock and scheduleParameterBlock
// (one scheduling thread at a time) and AUParameter's value and setValue may be called: they take no lock and
// allocate nothing (AUParameter observers and implementor blocks run on the setting thread and must be as
// careful). Everything else (properties, initialize, graph edits and AUGraphUpdate, files, converters made
// or disposed) may come from any other thread, one thread per object at a time, and may block or
// allocate. Property listeners are called synchronously on the thread that made the change, never on
// the render thread. AudioConverterFillComplexBuffer on one converter is one thread at a time and
// allocates nothing once running. Music sequences, tracks, iterators and players (MusicPlayer.h) may be
// used from any thread except the render thread (one lock guards them all); a playing MusicPlayer sends
// graph-bound MIDI from a pre-render notification of the graph's output unit, and endpoint MIDI,
// parameter events and user-event callbacks from its own thread.
@_exported import CoreAudioTypes
@_exported import CoreAudio
@_exported import CoreMIDI

@_exported import Foundation
