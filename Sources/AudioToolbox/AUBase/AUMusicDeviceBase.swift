import COCASupport
import Synchronization

/// The base of instrument units (`'aumu'`), as Apple's MusicDeviceBase: no inputs, one output, and the
/// MusicDevice API. MusicDeviceMIDIEvent, StartNote/StopNote, SysEx and group-scope parameters (MIDI
/// controllers, pitch bend, pressure) become events in a lock-free queue from any thread; the render
/// applies each at its sample offset by splitting the slice there, so a note starts on its frame. Events
/// beyond the slice wait for the renders that reach them. Subclasses implement `handle(_:)` and
/// `renderInstrument(_:offset:frames:)`, both on the render thread.
class AUMusicDeviceBase: AUBase, @unchecked Sendable {
    let events = MusicDeviceEventQueue()
    /// Events taken from the queue, sorted by offset, not yet due (the render thread's alone).
    private let pending: UnsafeMutablePointer<MusicDeviceEvent>
    private var pendingCount = 0
    private let pendingCapacity = MusicDeviceEventQueue.capacity
    private let nextNoteID = Atomic<UInt32>(1)
    /// The last value set per group (16 channels) and group parameter ID (0...383), for AudioUnitGetParameter.
    private let groupValues: UnsafeMutablePointer<Float>

    init(component: AudioComponentEntry) {
        pending = .allocate(capacity: pendingCapacity)
        pending.initialize(repeating: MusicDeviceEvent(), count: pendingCapacity)
        groupValues = .allocate(capacity: 16 * 384)
        groupValues.initialize(repeating: 0, count: 16 * 384)
        super.init(component: component, inputs: 0, outputs: 1)
    }

    deinit {
        pending.deallocate()
        groupValues.deallocate()
    }

    // MARK: Subclass hooks

    /// Applies one event, at the frame the render has reached. Render thread.
    func handle(_ event: MusicDeviceEvent) {}
    /// Writes `frames` frames of output starting at frame `offset` of every buffer. Render thread.
    func renderInstrument(_ buffers: UnsafeMutableAudioBufferListPointer, offset: Int, frames: Int) {}

    // MARK: The MusicDevice API

    override func midiEvent(_ status: UInt32, _ data1: UInt32, _ data2: UInt32, _ offset: UInt32) -> OSStatus {
        let statusByte = UInt8(truncatingIfNeeded: status)
        // System messages carry nothing an instrument plays (Apple's base ignores them too).
        guard statusByte >= 0x80, statusByte < 0xF0 else { return noErr }
        var e = MusicDeviceEvent()
        e.status = statusByte
        e.data1 = UInt8(truncatingIfNeeded: data1) & 0x7F
        e.data2 = UInt8(truncatingIfNeeded: data2) & 0x7F
        e.offset = offset & UInt32(kMusicDeviceSampleFrameMask_SampleOffset)
        return enqueue(e)
    }

    override func sysEx(_ data: UnsafePointer<UInt8>, _ length: UInt32) -> OSStatus {
        guard length >= 2, data[0] == 0xF0 else { return kAudio_ParamError }
        // General MIDI System On / GM2 On / GS reset: every channel back to its power-on state.
        let gmOn = length >= 6 && data[1] == 0x7E && data[3] == 0x09 && (data[4] == 0x01 || data[4] == 0x03)
        let gsReset = length >= 11 && data[1] == 0x41 && data[3] == 0x42 && data[5] == 0x40 && data[6] == 0x00 && data[7] == 0x7F
        if gmOn || gsReset {
            var e = MusicDeviceEvent()
            e.status = 0xFF  // system reset
            return enqueue(e)
        }
        return noErr
    }

    /// Obsolete since macOS 10.5: AudioUnitSDK's music device answers kAudio_UnimplementedError, and so do ours
    /// (instruments are loaded through properties such as kAUSamplerProperty_LoadInstrument).
    override func prepareInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus { kAudio_UnimplementedError }
    override func releaseInstrument(_ instrument: MusicDeviceInstrumentID) -> OSStatus { kAudio_UnimplementedError }

    override func startNote(_ instrument: MusicDeviceInstrumentID, _ group: MusicDeviceGroupID, _ outNote: UnsafeMutablePointer<NoteInstanceID>,
                            _ offset: UInt32, _ params: UnsafePointer<MusicDeviceNoteParams>) -> OSStatus {
        guard params.pointee.argCount >= 2 else { return kAudio_ParamError }
        var id = nextNoteID.add(1, ordering: .relaxed).oldValue
        // 0 and 0xFFFFFFFF are not instance IDs (Apple's header).
        if id == 0 || id == 0xFFFF_FFFF { id = nextNoteID.add(2, ordering: .relaxed).oldValue | 1 }
        var e = MusicDeviceEvent()
        e.kind = .startNote
        e.group = group
        e.noteID = id
        e.pitch = params.pointee.mPitch
        e.velocity = params.pointee.mVelocity
        e.offset = offset & UInt32(kMusicDeviceSampleFrameMask_SampleOffset)
        let status = enqueue(e)
        if status == noErr { outNote.pointee = id }
        return status
    }

    override func stopNote(_ group: MusicDeviceGroupID, _ note: NoteInstanceID, _ offset: UInt32) -> OSStatus {
        var e = MusicDeviceEvent()
        e.kind = .stopNote
        e.group = group
        e.noteID = note
        e.offset = offset & UInt32(kMusicDeviceSampleFrameMask_SampleOffset)
        return enqueue(e)
    }

    private func enqueue(_ e: MusicDeviceEvent) -> OSStatus {
        events.push(e) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }

    override func canDo(_ selector: Int16) -> Bool {
        switch Int(selector) {
        case kMusicDeviceMIDIEventSelect, kMusicDeviceSysExSelect, kMusicDeviceStartNoteSelect, kMusicDeviceStopNoteSelect,
             kMusicDeviceMIDIEventListSelect:
            return true
        default:
            return super.canDo(selector)
        }
    }

    // MARK: Group scope: MIDI controllers as parameters

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        guard scope == kAudioUnitScope_Group else { return super.setParameter(id, scope, element, value, bufferOffset) }
        guard element < 16, id < 384 else { return kAudioUnitErr_InvalidElement }
        let channel = UInt32(element)
        let status: OSStatus
        switch id {
        case 0..<128:
            status = midiEvent(0xB0 | channel, id, UInt32(clamp7(value)), bufferOffset)
        case AudioUnitParameterID(kAUGroupParameterID_PitchBend):
            let bend = UInt32(min(max(Int(value.rounded()) + 8192, 0), 16383))
            status = midiEvent(0xE0 | channel, bend & 0x7F, bend >> 7, bufferOffset)
        case AudioUnitParameterID(kAUGroupParameterID_ChannelPressure):
            status = midiEvent(0xD0 | channel, UInt32(clamp7(value)), 0, bufferOffset)
        case AudioUnitParameterID(kAUGroupParameterID_KeyPressure_FirstKey)...AudioUnitParameterID(kAUGroupParameterID_KeyPressure_LastKey):
            status = midiEvent(0xA0 | channel, id - AudioUnitParameterID(kAUGroupParameterID_KeyPressure_FirstKey), UInt32(clamp7(value)),
                               bufferOffset)
        default:
            return kAudioUnitErr_InvalidParameter
        }
        if status == noErr { groupValues[Int(element) * 384 + Int(id)] = value }
        return status
    }

    override func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        guard scope == kAudioUnitScope_Group else { return super.getParameter(id, scope, element, outValue) }
        guard element < 16, id < 384 else { return kAudioUnitErr_InvalidElement }
        outValue.pointee = groupValues[Int(element) * 384 + Int(id)]
        return noErr
    }

    @inline(__always) private func clamp7(_ v: Float) -> UInt8 { UInt8(min(max(v.rounded(), 0), 127)) }

    // MARK: Render

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        while events.pop() != nil {}
        pendingCount = 0
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        takeQueuedEvents()
        let buffers = UnsafeMutableAudioBufferListPointer(output)
        let total = Int(frames)
        var position = 0
        var next = 0
        while true {
            while next < pendingCount && Int(pending[next].offset) <= position {
                handle(pending[next])
                next += 1
            }
            let until = next < pendingCount ? min(Int(pending[next].offset), total) : total
            if until > position {
                renderInstrument(buffers, offset: position, frames: until - position)
                position = until
            }
            if position >= total { break }
        }
        // What is left lies beyond this slice: keep it, nearer by a slice.
        let left = pendingCount - next
        for i in 0..<left {
            pending[i] = pending[next + i]
            pending[i].offset -= frames
        }
        pendingCount = left
        return noErr
    }

    /// Moves queued events into `pending`, keeping it sorted by offset (stable: equal offsets keep their
    /// arrival order). A full `pending` drops the newest events. (The queue's own methods carry the compiler's
    /// real-time annotations; this caller's retain of `events` keeps it out of them, RTSan covers it.)
    private func takeQueuedEvents() {
        while pendingCount < pendingCapacity, let e = events.pop() {
            var j = pendingCount
            while j > 0 && pending[j - 1].offset > e.offset { pending[j] = pending[j - 1]; j -= 1 }
            pending[j] = e
            pendingCount += 1
        }
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kMusicDeviceProperty_SupportsStartStopNote, UInt32.self, of: AUMusicDeviceBase.self,
                   place: AUProperty.globalScope, get: { _, _, _ in 1 }),
        ]
    }
}
