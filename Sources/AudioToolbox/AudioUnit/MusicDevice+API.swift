// The music device API (MusicDevice.h): MIDI and notes for instrument units. Every call looks the unit up
// without the registry lock, as AudioUnitRender does, so it is safe on the render thread (MusicPlayer and
// AUGraph clients send from render notifications); the handle must be live.

/// Apple's `MusicDeviceMIDIEvent`: a MIDI channel message (status with its channel, two data bytes) applied
/// at `inOffsetSampleFrame` within the unit's next render (0 when not called from the render thread).
@discardableResult
public func MusicDeviceMIDIEvent(_ inUnit: MusicDeviceComponent, _ inStatus: UInt32, _ inData1: UInt32, _ inData2: UInt32,
                                 _ inOffsetSampleFrame: UInt32) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.midiEvent(inStatus, inData1, inData2, inOffsetSampleFrame) }
}

/// Apple's `MusicDeviceSysEx`: a complete system-exclusive message, F0 through F7.
@discardableResult
public func MusicDeviceSysEx(_ inUnit: MusicDeviceComponent, _ inData: UnsafePointer<UInt8>, _ inLength: UInt32) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.sysEx(inData, inLength) }
}

/// Apple's `MusicDeviceMIDIEventList`: Universal MIDI Packets (MIDI 1.0 in UMP or MIDI 2.0 channel voice,
/// SysEx in 7-bit packets) at `inOffsetSampleFrame` plus each packet's time stamp (in frames, as Apple's
/// header says). MIDI 2.0 values are reduced to MIDI 1.0 resolution.
@discardableResult
public func MusicDeviceMIDIEventList(_ inUnit: MusicDeviceComponent, _ inOffsetSampleFrame: UInt32,
                                     _ evtList: UnsafePointer<MIDIEventList>) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { target in
        var status = noErr
        for packet in evtList.unsafeSequence() {
            let offset = UInt32(truncatingIfNeeded: UInt64(inOffsetSampleFrame) &+ packet.pointee.timeStamp)
            MusicDeviceUMP.forEachMessage(in: packet) { bytes, _ in
                let s = target.midiEvent(UInt32(bytes.0), UInt32(bytes.1), UInt32(bytes.2), offset)
                if s != noErr && status == noErr { status = s }
            } sysEx: { data, length in
                let s = target.sysEx(data, length)
                if s != noErr && status == noErr { status = s }
            }
        }
        return status
    }
}

/// Apple's `MusicDeviceStartNote`: starts a note of fractional pitch and velocity on a group (MIDI channel)
/// and returns its instance ID, which `MusicDeviceStopNote` takes. `inInstrument` is ignored (pass
/// `kMusicNoteEvent_Unused`): the group's current patch plays.
@discardableResult
public func MusicDeviceStartNote(_ inUnit: MusicDeviceComponent, _ inInstrument: MusicDeviceInstrumentID, _ inGroupID: MusicDeviceGroupID,
                                 _ outNoteInstanceID: UnsafeMutablePointer<NoteInstanceID>, _ inOffsetSampleFrame: UInt32,
                                 _ inParams: UnsafePointer<MusicDeviceNoteParams>) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) {
        $0.startNote(inInstrument, inGroupID, outNoteInstanceID, inOffsetSampleFrame, inParams)
    }
}

/// Apple's `MusicDeviceStopNote`: releases a note `MusicDeviceStartNote` started, on the same group.
@discardableResult
public func MusicDeviceStopNote(_ inUnit: MusicDeviceComponent, _ inGroupID: MusicDeviceGroupID, _ inNoteInstanceID: NoteInstanceID,
                                _ inOffsetSampleFrame: UInt32) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.stopNote(inGroupID, inNoteInstanceID, inOffsetSampleFrame) }
}

/// Apple's deprecated `MusicDevicePrepareInstrument` (obsolete since macOS 10.5): built-in instruments answer
/// kAudio_UnimplementedError as AudioUnitSDK's do; a registered plug-in's own selector is called if it has one;
/// a unit that is not a music device answers badComponentSelector.
@discardableResult
public func MusicDevicePrepareInstrument(_ inUnit: MusicDeviceComponent, _ inInstrument: MusicDeviceInstrumentID) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.prepareInstrument(inInstrument) }
}

/// Apple's deprecated `MusicDeviceReleaseInstrument`: as MusicDevicePrepareInstrument.
@discardableResult
public func MusicDeviceReleaseInstrument(_ inUnit: MusicDeviceComponent, _ inInstrument: MusicDeviceInstrumentID) -> OSStatus {
    AudioUnitObject.withUnchecked(inUnit) { $0.releaseInstrument(inInstrument) }
}
