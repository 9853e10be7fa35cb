/// A client-written unit registered with `AudioComponentRegister`: every call goes through Apple's
/// v2 plug-in interface (the factory's `AudioComponentPlugInInterface`, methods found by selector).
final class PlugInAudioUnit: AudioUnitObject, @unchecked Sendable {
    private let interface: UnsafeMutablePointer<AudioComponentPlugInInterface>
    private var selfPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(interface) }
    /// The render method, looked up once at open so the render path does no lookup.
    private var renderMethod: AudioUnitRenderProc?

    init(component: AudioComponentEntry, interface: UnsafeMutablePointer<AudioComponentPlugInInterface>) {
        self.interface = interface
        super.init(component: component)
    }

    private func method<T>(_ selector: Int, as: T.Type) -> T? {
        guard let m = interface.pointee.Lookup(Int16(selector)) else { return nil }
        return unsafeBitCast(m, to: T.self)
    }

    override func open() -> OSStatus {
        let status = interface.pointee.Open(selfPointer, handle)
        renderMethod = method(kAudioUnitRenderSelect, as: AudioUnitRenderProc.self)
        return status
    }

    override func close() {
        _ = interface.pointee.Close(selfPointer)
    }

    override func initialize() -> OSStatus {
        method(kAudioUnitInitializeSelect, as: AudioUnitInitializeProc.self)?(selfPointer) ?? badComponentSelector
    }

    override func uninitialize() -> OSStatus {
        method(kAudioUnitUninitializeSelect, as: AudioUnitUninitializeProc.self)?(selfPointer) ?? badComponentSelector
    }

    override func reset(scope: AudioUnitScope, element: AudioUnitElement) -> OSStatus {
        method(kAudioUnitResetSelect, as: AudioUnitResetProc.self)?(selfPointer, scope, element) ?? badComponentSelector
    }

    override func getPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                                  _ outSize: inout UInt32, _ outWritable: inout Bool) -> OSStatus {
        guard let m = method(kAudioUnitGetPropertyInfoSelect, as: AudioUnitGetPropertyInfoProc.self) else { return badComponentSelector }
        var writable: DarwinBoolean = false
        let status = m(selfPointer, id, scope, element, &outSize, &writable)
        outWritable = writable.boolValue
        return status
    }

    override func getProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ outData: UnsafeMutableRawPointer, _ ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        method(kAudioUnitGetPropertySelect, as: AudioUnitGetPropertyProc.self)?(selfPointer, id, scope, element, outData, ioSize)
            ?? badComponentSelector
    }

    override func setProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
        method(kAudioUnitSetPropertySelect, as: AudioUnitSetPropertyProc.self)?(selfPointer, id, scope, element, data, size)
            ?? badComponentSelector
    }

    override func addPropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                                      _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        method(kAudioUnitAddPropertyListenerSelect, as: AudioUnitAddPropertyListenerProc.self)?(selfPointer, id, proc, userData)
            ?? badComponentSelector
    }

    override func removePropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                                         _ userData: UnsafeMutableRawPointer?, matchUserData: Bool) -> OSStatus {
        if matchUserData {
            return method(kAudioUnitRemovePropertyListenerWithUserDataSelect, as: AudioUnitRemovePropertyListenerWithUserDataProc.self)?(
                selfPointer, id, proc, userData) ?? badComponentSelector
        }
        return method(kAudioUnitRemovePropertyListenerSelect, as: AudioUnitRemovePropertyListenerProc.self)?(selfPointer, id, proc)
            ?? badComponentSelector
    }

    override func addRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        method(kAudioUnitAddRenderNotifySelect, as: AudioUnitAddRenderNotifyProc.self)?(selfPointer, proc, userData)
            ?? badComponentSelector
    }

    override func removeRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        method(kAudioUnitRemoveRenderNotifySelect, as: AudioUnitRemoveRenderNotifyProc.self)?(selfPointer, proc, userData)
            ?? badComponentSelector
    }

    override func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        method(kAudioUnitGetParameterSelect, as: AudioUnitGetParameterProc.self)?(selfPointer, id, scope, element, outValue)
            ?? badComponentSelector
    }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        method(kAudioUnitSetParameterSelect, as: AudioUnitSetParameterProc.self)?(selfPointer, id, scope, element, value, bufferOffset)
            ?? badComponentSelector
    }

    override func scheduleParameters(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: UInt32) -> OSStatus {
        method(kAudioUnitScheduleParametersSelect, as: AudioUnitScheduleParametersProc.self)?(selfPointer, events, count)
            ?? badComponentSelector
    }

    override func render(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                         _ bus: UInt32, _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let renderMethod else { return badComponentSelector }
        return renderMethod(selfPointer, flags, timeStamp, bus, frames, ioData)
    }

    override func start() -> OSStatus {
        method(kAudioOutputUnitStartSelect, as: AudioOutputUnitStartProc.self)?(selfPointer) ?? badComponentSelector
    }

    override func stop() -> OSStatus {
        method(kAudioOutputUnitStopSelect, as: AudioOutputUnitStopProc.self)?(selfPointer) ?? badComponentSelector
    }

    override func midiEvent(_ status: UInt32, _ data1: UInt32, _ data2: UInt32, _ offset: UInt32) -> OSStatus {
        method(kMusicDeviceMIDIEventSelect, as: MusicDeviceMIDIEventProc.self)?(selfPointer, status, data1, data2, offset)
            ?? badComponentSelector
    }

    override func sysEx(_ data: UnsafePointer<UInt8>, _ length: UInt32) -> OSStatus {
        method(kMusicDeviceSysExSelect, as: MusicDeviceSysExProc.self)?(selfPointer, data, length) ?? badComponentSelector
    }

    override func startNote(_ instrument: MusicDeviceInstrumentID, _ group: MusicDeviceGroupID, _ outNote: UnsafeMutablePointer<NoteInstanceID>,
                            _ offset: UInt32, _ params: UnsafePointer<MusicDeviceNoteParams>) -> OSStatus {
        method(kMusicDeviceStartNoteSelect, as: MusicDeviceStartNoteProc.self)?(selfPointer, instrument, group, outNote, offset, params)
            ?? badComponentSelector
    }

    override func stopNote(_ group: MusicDeviceGroupID, _ note: NoteInstanceID, _ offset: UInt32) -> OSStatus {
        method(kMusicDeviceStopNoteSelect, as: MusicDeviceStopNoteProc.self)?(selfPointer, group, note, offset) ?? badComponentSelector
    }

    override func prepareInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus {
        method(kMusicDevicePrepareInstrumentSelect, as: InstrumentProc.self)?(selfPointer, instrument) ?? badComponentSelector
    }

    override func releaseInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus {
        method(kMusicDeviceReleaseInstrumentSelect, as: InstrumentProc.self)?(selfPointer, instrument) ?? badComponentSelector
    }

    /// The signature of the prepare and release selectors (Apple's header names no type for them).
    private typealias InstrumentProc = @convention(c) (UnsafeMutableRawPointer, MusicDeviceInstrumentID) -> OSStatus

    override func canDo(_ selector: Int16) -> Bool {
        interface.pointee.Lookup(selector) != nil
    }
}
