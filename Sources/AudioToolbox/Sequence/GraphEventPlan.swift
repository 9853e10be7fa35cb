import Foundation

/// The events a player sends to graph units, laid out for the render thread: plain values in one
/// preallocated buffer, sorted by frame (relative to the render slice in which the plan is adopted),
/// SysEx bytes in a second buffer. Parameter events go out as immediate scheduled parameters. Immutable once built; freed only off the render thread.
final class GraphEventPlan: @unchecked Sendable {
    enum Kind: UInt8 { case midi, sysEx, parameter }
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
    }
    let events: UnsafeMutableBufferPointer<Event>
    let sysEx: UnsafeMutableBufferPointer<UInt8>
    /// Index into the schedule's items of each event (to find sounding notes when stopping).
    let scheduleIndex: [Int]

    init(schedule: PlayerSchedule, sampleRate: Double, rate: Double) {
        var list: [Event] = []
        var bytes: [UInt8] = []
        var indices: [Int] = []
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
            default:
                continue
            }
            indices.append(i)
        }
        events = .allocate(capacity: max(list.count, 1))
        _ = events.initialize(from: list)
        sysEx = .allocate(capacity: max(bytes.count, 1))
        _ = sysEx.initialize(from: bytes)
        scheduleIndex = indices
        count = list.count
    }

    let count: Int

    deinit {
        events.deallocate()
        sysEx.deallocate()
    }
}
