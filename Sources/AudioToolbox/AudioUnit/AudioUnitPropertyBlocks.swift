// The block types of AudioUnitProperties.h as Swift imports them (Objective-C blocks are Swift closures).

/// Apple's `AUMIDIEventListBlock`: MIDI 2.0 (UMP) event lists to or from a unit, at a sample time on a virtual
/// cable (kAudioUnitProperty_MIDIOutputEventListCallback).
public typealias AUMIDIEventListBlock = (AUEventSampleTime, UInt8, UnsafePointer<MIDIEventList>) -> OSStatus

/// Apple's `AudioUnitRemoteControlEventListener`: a remote-control event (play/pause, record, rewind) sent to an
/// inter-app audio host (kAudioUnitProperty_RemoteControlEventListener).
public typealias AudioUnitRemoteControlEventListener = (AudioUnitRemoteControlEvent) -> Void

/// Apple's `AUVoiceIOMutedSpeechActivityEventListener`: told when speech starts or ends while the voice processing
/// unit's output is muted (kAUVoiceIOProperty_MutedSpeechActivityEventListener).
public typealias AUVoiceIOMutedSpeechActivityEventListener = (AUVoiceIOSpeechActivityEvent) -> Void
