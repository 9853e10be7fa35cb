// The CoreAudio module: Apple's HAL API (AudioObject*, AudioDevice*, host time) over ALSA. C declarations
// in CCoreAudio, functions in Swift. Re-exports CoreAudioTypes, as Apple's does.
//
// Threading: every AudioObject*/AudioDevice* call may come from any thread except a device's IO thread
// (inside an IOProc), where only AudioDeviceGetCurrentTime and the host-time functions are safe. IOProcs
// run on the device's own real-time thread. Listener procs are called asynchronously on the HAL's serial
// notification queue, listener blocks on the queue they were added with (else that queue); never on the
// IO thread. Calls take the HAL's lock: they may block briefly.
@_exported import CoreAudioTypes
@_exported import CCoreAudio
