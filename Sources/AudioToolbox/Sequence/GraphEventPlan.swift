import Foundation

/// The events a player sends to graph units, laid out for the render thread: plain values in one
/// preallocated buffer, sorted by frame (relative to the render slice in which the plan is adopted),
/// SysEx bytes and extended notes' parameters in byte buffers. Parameter events go out as immediate
/// scheduled parameters, extended notes through MusicDeviceStartNote/StopNote (the note instance IDs in a
/// slot table the render thread writes). Immutable once built apart from those slots; freed only off the
/// render thread.
final class GraphEventPlan: @unchecked Sendable {
    enum Kind: UInt8 { case midi, sysEx, parameter, startNote, stopNote }
    struct Event {
        var frame: Int64
        var unit: AudioUnit
        var kind: Kind
        var status: UInt8 = 0
        var data1: UInt8 = 0
        var data2: UInt8 = 0
        var sysExStart: Int32 = 0
        var sysExLength: Int32 = 0
        var parameter = ParameterEvent()
        var instrument: MusicDeviceInstrumentID = 0
        var group: MusicDeviceGroupID = 0
        var slot: Int32 = 0
        var paramsOffset: Int32 = 0
    }
    let events: UnsafeMutableBufferPointer<Event>
    let sysEx: UnsafeMutableBufferPointer<UInt8>
    /// Extended notes' MusicDeviceNoteParams, each at a 16-byte aligned offset.
    let noteParams: UnsafeMutableRawBufferPointer
    /// Note instance IDs by slot (written by the render thread's MusicDeviceStartNote).
    let noteIDs: UnsafeMutableBufferPointer<NoteInstanceID>
    /// Index into the schedule's items of each event (to find sounding notes when stopping).
    let scheduleIndex: [Int]

    init(schedule: PlayerSchedule, sampleRate: Double, rate: Double) {
        var list: [Event] = []
        var bytes: [UInt8] = []
        var indices: [Int] = []
        var params: [UInt8] = []
        for (i, item) in schedule.items.enumerated() {
            guard case .unit(let unit) = item.target else { continue }
            let frame = Int64(((item.seconds - schedule.startSeconds) * sampleRate / rate).rounded())
            switch item.action {
            case .midi(let s, let d1, let d2):
                list.append(Event(frame: frame, unit: unit, kind: .midi, status: s, data1: d1, data2: d2))
            case .sysEx(let data):
                guard !data.isEmpty, bytes.count + data.count < Int(Int32.max) else { continue }
                list.append(Event(frame: frame, unit: unit, kind: .sysEx, sysExStart: Int32(bytes.count), sysExLength: Int32(data.count)))
                bytes += data
            case .parameter(let p):
                list.append(Event(frame: frame, unit: unit, kind: .parameter, parameter: p))
            case .startNote(let payload, let slot):
                let noteParams = payload.data(from: 12)  // argCount, pitch, velocity, controls
                guard params.count + noteParams.count + 16 < Int(Int32.max) else { continue }
                let offset = params.count
                params += noteParams
                // At least a whole MusicDeviceNoteParams (one control) readable, then 16-byte alignment.
                params += [UInt8](repeating: 0, count: max(0, MemoryLayout<MusicDeviceNoteParams>.size - noteParams.count))
                params += [UInt8](repeating: 0, count: (16 - params.count % 16) % 16)
                list.append(Event(frame: frame, unit: unit, kind: .startNote, instrument: payload.uint32(at: 0), group: payload.uint32(at: 4),
                                  slot: Int32(slot), paramsOffset: Int32(offset)))
            case .stopNote(let group, let slot):
                list.append(Event(frame: frame, unit: unit, kind: .stopNote, group: group, slot: Int32(slot)))
            default:
                continue
            }
            indices.append(i)
        }
        events = .allocate(capacity: max(list.count, 1))
        _ = events.initialize(from: list)
        sysEx = .allocate(capacity: max(bytes.count, 1))
        _ = sysEx.initialize(from: bytes)
        noteParams = .allocate(byteCount: max(params.count, 16), alignment: 16)
        noteParams.copyBytes(from: params)
        noteIDs = .allocate(capacity: max(schedule.noteSlots, 1))
        noteIDs.initialize(repeating: 0)
        scheduleIndex = indices
        count = list.count
    }

    let count: Int

    deinit {
        events.deallocate()
        sysEx.deallocate()
        noteParams.deallocate()
        noteIDs.deallocate()
    }
}
