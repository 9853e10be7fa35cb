/// Apple's `AUMIDIOutputCallback`: how a unit hands MIDI it generates to its host (user data, the time stamp of the
/// render it came from, the unit's MIDI output number, the packets). Swift because MIDIPacketList is CoreMIDI's.
public typealias AUMIDIOutputCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<AudioTimeStamp>, UInt32,
                                                        UnsafePointer<MIDIPacketList>) -> OSStatus

/// Apple's `AUMIDIOutputCallbackStruct`, the value of kAudioUnitProperty_MIDIOutputCallback: the callback and its
/// user data. No built-in unit produces MIDI, so none calls it.
public struct AUMIDIOutputCallbackStruct {
    public var midiOutputCallback: AUMIDIOutputCallback
    public var userData: UnsafeMutableRawPointer?

    /// The memberwise initializer Swift gives the imported C struct.
    public init(midiOutputCallback: @escaping AUMIDIOutputCallback, userData: UnsafeMutableRawPointer?) {
        self.midiOutputCallback = midiOutputCallback
        self.userData = userData
    }
}
