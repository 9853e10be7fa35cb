/// What an `AudioUnit` handle points at: the dispatch surface every instance provides, whether a
/// built-in unit (an `AUBase` subclass) or a client's v2 plug-in (`PlugInAudioUnit`). The default
/// implementations answer like a unit that supports nothing.
class AudioUnitObject: @unchecked Sendable {
    let component: AudioComponentEntry

    init(component: AudioComponentEntry) {
        self.component = component
    }

    /// The handle clients hold. Valid from `AudioComponentInstanceNew` until dispose.
    final var handle: AudioUnit {
        OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called once after the handle exists (plug-ins' Open).
    func open() -> OSStatus { noErr }
    /// Called once at dispose (plug-ins' Close); releases render memory.
    func close() {}

    func initialize() -> OSStatus { noErr }
    func uninitialize() -> OSStatus { noErr }
    func reset(scope: AudioUnitScope, element: AudioUnitElement) -> OSStatus { noErr }

    func getPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                         _ outSize: inout UInt32, _ outWritable: inout Bool) -> OSStatus {
        kAudioUnitErr_InvalidProperty
    }
    /// Writes exactly `ioSize` bytes at most; `ioSize` is at least the size GetPropertyInfo reported
    /// (the API layer guarantees it).
    func getProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                     _ outData: UnsafeMutableRawPointer, _ ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        kAudioUnitErr_InvalidProperty
    }
    func setProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                     _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
        kAudioUnitErr_InvalidProperty
    }
    func addPropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                             _ userData: UnsafeMutableRawPointer?) -> OSStatus { noErr }
    func removePropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                                _ userData: UnsafeMutableRawPointer?, matchUserData: Bool) -> OSStatus { noErr }
    func addRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        kAudio_UnimplementedError
    }
    func removeRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus { noErr }

    func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                      _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        kAudioUnitErr_InvalidParameter
    }
    func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                      _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        kAudioUnitErr_InvalidParameter
    }
    func scheduleParameters(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: UInt32) -> OSStatus {
        kAudio_UnimplementedError
    }

    /// Render entry point. Safe on the render thread in every implementation.
    func render(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                _ bus: UInt32, _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        kAudio_UnimplementedError
    }

    /// In-place processing without pulling inputs (AudioUnitProcess). Render-thread safe.
    func processInPlace(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                 _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        kAudio_UnimplementedError
    }

    // Music devices (MusicDevice.h). Units that are not instruments answer badComponentSelector, as
    // Apple's dispatch does for a selector the unit lacks. MIDI events are safe on the render thread.
    func midiEvent(_ status: UInt32, _ data1: UInt32, _ data2: UInt32, _ offset: UInt32) -> OSStatus { badComponentSelector }
    func sysEx(_ data: UnsafePointer<UInt8>, _ length: UInt32) -> OSStatus { badComponentSelector }
    func startNote(_ instrument: MusicDeviceInstrumentID, _ group: MusicDeviceGroupID, _ outNote: UnsafeMutablePointer<NoteInstanceID>,
                   _ offset: UInt32, _ params: UnsafePointer<MusicDeviceNoteParams>) -> OSStatus { badComponentSelector }
    func stopNote(_ group: MusicDeviceGroupID, _ note: NoteInstanceID, _ offset: UInt32) -> OSStatus { badComponentSelector }
    /// The obsolete MusicDevicePrepareInstrument/ReleaseInstrument selectors (only music devices have them).
    func prepareInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus { badComponentSelector }
    func releaseInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus { badComponentSelector }

    func start() -> OSStatus { kAudio_UnimplementedError }
    func stop() -> OSStatus { kAudio_UnimplementedError }
    func canDo(_ selector: Int16) -> Bool { false }
}

extension AudioUnitObject {
    /// The object behind a handle, if the handle is a live instance. Takes the registry lock: never
    /// call from the render thread.
    static func live(_ unit: AudioUnit?) -> AudioUnitObject? {
        AudioUnitInstances.table.object(unit.map { UnsafeMutableRawPointer($0) }, as: AudioUnitObject.self)
    }

    /// Calls `body` with the object behind a handle without checking it or touching its reference
    /// count: the render-thread path. The handle must be live.
    @inline(__always)
    static func withUnchecked<R>(_ unit: AudioUnit, _ body: (AudioUnitObject) -> R) -> R {
        Unmanaged<AudioUnitObject>.fromOpaque(UnsafeRawPointer(unit))._withUnsafeGuaranteedRef(body)
    }
}
