import Foundation

/// The events a player sends to graph units, laid out for the render thread: plain values in one
/// preallocated buffer, sorted by frame (relative to the render slice in which the plan is adopted),
/// SysEx bytes in a second buffer. Immutable once built; freed only off the render thread.
final class GraphEventPlan {
    struct Event {
        var frame: Int64
        var unit: AudioUnit
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
        var isSysEx: Bool
        var sysExStart: Int32
        var sysExLength: Int32
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
                list.append(Event(frame: frame, unit: unit, status: s, data1: d1, data2: d2, isSysEx: false, sysExStart: 0, sysExLength: 0))
            case .sysEx(let data):
                guard !data.isEmpty, bytes.count + data.count < Int(Int32.max) else { continue }
                list.append(Event(frame: frame, unit: unit, status: 0, data1: 0, data2: 0, isSysEx: true,
                                  sysExStart: Int32(bytes.count), sysExLength: Int32(data.count)))
                bytes += data
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
