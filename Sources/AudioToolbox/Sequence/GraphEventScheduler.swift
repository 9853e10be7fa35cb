import Synchronization

/// Sends a player's graph events from a pre-render notification of the graph's head unit: each slice
/// sends every event whose frame falls in [slice start, slice end) to its unit with
/// MusicDeviceMIDIEvent (MusicDeviceSysEx, AudioUnitScheduleParameters) at its exact offset in the slice. The first slice after a
/// plan is published is the plan's frame 0. Nothing here allocates or locks.
final class GraphEventScheduler: @unchecked Sendable {
    /// The plan to play (published by the player; nil: send nothing).
    private let published = Atomic<UnsafeMutableRawPointer?>(nil)
    /// The sample time at which the current plan's frame 0 was rendered (bit pattern), -1 before that.
    let originSample = Atomic<Int64>(-1)
    /// The end of the last rendered slice in sample time.
    let renderedSample = Atomic<Int64>(0)
    /// How many of the plan's events were sent.
    let sent = Atomic<Int>(0)

    // Render-thread state.
    private var adopted: UnsafeMutableRawPointer?
    private var cursor = 0
    private var origin: Int64 = 0

    /// Installs a plan (retained by the caller until `publish(nil)` and the next slice have passed).
    func publish(_ plan: GraphEventPlan?) {
        originSample.store(-1, ordering: .releasing)
        sent.store(0, ordering: .releasing)
        published.store(plan.map { Unmanaged.passUnretained($0).toOpaque() }, ordering: .releasing)
    }

    /// The render notification (pre-render, bus 0 of the head unit).
    func render(_ flags: AudioUnitRenderActionFlags, _ timeStamp: AudioTimeStamp, _ bus: UInt32, _ frames: UInt32) {
        guard flags.contains(.unitRenderAction_PreRender), bus == 0 else { return }
        let sliceStart = Int64(timeStamp.mSampleTime.rounded())
        renderedSample.store(sliceStart + Int64(frames), ordering: .releasing)
        let current = published.load(ordering: .acquiring)
        if current != adopted {
            adopted = current
            cursor = 0
            origin = sliceStart
            originSample.store(sliceStart, ordering: .releasing)
        }
        guard let current else { return }
        Unmanaged<GraphEventPlan>.fromOpaque(current)._withUnsafeGuaranteedRef { plan in
            let start = sliceStart - origin, end = start + Int64(frames)
            while cursor < plan.count {
                let e = plan.events[cursor]
                guard e.frame < end else { break }
                let offset = UInt32(clamping: max(0, e.frame - start))
                switch e.kind {
                case .midi:
                    MusicDeviceMIDIEvent(e.unit, UInt32(e.status), UInt32(e.data1), UInt32(e.data2), offset)
                case .sysEx:
                    MusicDeviceSysEx(e.unit, plan.sysEx.baseAddress! + Int(e.sysExStart), UInt32(e.sysExLength))
                case .parameter:
                    var event = AudioUnitParameterEvent()
                    event.scope = e.parameter.scope
                    event.element = e.parameter.element
                    event.parameter = e.parameter.parameterID
                    event.eventType = AUParameterEventType(rawValue: 1)!  // immediate
                    event.eventValues.immediate.bufferOffset = offset
                    event.eventValues.immediate.value = e.parameter.value
                    AudioUnitScheduleParameters(e.unit, &event, 1)
                case .startNote:
                    let params = (plan.noteParams.baseAddress! + Int(e.paramsOffset)).assumingMemoryBound(to: MusicDeviceNoteParams.self)
                    MusicDeviceStartNote(e.unit, e.instrument, e.group, plan.noteIDs.baseAddress! + Int(e.slot), offset, params)
                case .stopNote:
                    MusicDeviceStopNote(e.unit, e.group, plan.noteIDs[Int(e.slot)], offset)
                }
                cursor += 1
            }
            sent.store(cursor, ordering: .releasing)
        }
    }
}

/// The C render notification: `refCon` is the scheduler (kept alive by its player).
let graphEventSchedulerNotify: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
    Unmanaged<GraphEventScheduler>.fromOpaque(refCon)._withUnsafeGuaranteedRef {
        $0.render(flags.pointee, timeStamp.pointee, bus, frames)
    }
    return noErr
}
