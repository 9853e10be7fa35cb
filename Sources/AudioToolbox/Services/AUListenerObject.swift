import Foundation
import CoreAudio
internal import OCARunLoop

/// One listener made by `AUListenerCreate` or `AUEventListenerCreate` (or their dispatch-queue forms): what
/// it calls, where, and the events waiting for the next delivery. Events queued within the notification
/// interval are delivered together, in time order; value changes of one parameter closer together than the
/// granularity collapse into the later one. An interval of 0 calls the client at once on the notifying
/// thread, as Apple's header says. Never touched by a render thread.
final class AUListenerObject: @unchecked Sendable {
    /// The client's callback in one of the four shapes AudioUnitUtilities.h offers.
    enum Callback {
        case parameterProc(AUParameterListenerProc, UnsafeMutableRawPointer?)
        case parameterBlock(AUParameterListenerBlock)
        case eventProc(AUEventListenerProc, UnsafeMutableRawPointer?)
        case eventBlock(AUEventListenerBlock)

        /// Made by an AUEventListenerCreate form (may listen for gestures and properties).
        var takesEvents: Bool {
            switch self {
            case .parameterProc, .parameterBlock: false
            case .eventProc, .eventBlock: true
            }
        }
    }

    /// Where deliveries run.
    enum Target {
        /// On the notifying thread, at once (a notification interval of 0).
        case immediate
        /// On a run loop's thread while it runs in the mode; the source is signalled when the interval ends.
        case runLoop(CFRunLoop, mode: String)
        case queue(DispatchQueue)
    }

    /// An event waiting for delivery.
    struct Pending {
        var event: AudioUnitEvent
        var object: UnsafeMutableRawPointer?
        var hostTime: UInt64
        var value: AudioUnitParameterValue
    }

    private struct State {
        var pending: [Pending] = []
        var flushScheduled = false
        var disposed = false
    }

    let callback: Callback
    private let target: Target
    private let interval: Double
    private let granularityNanos: UInt64
    private let state = LockedState(State())
    private var source: RunLoopSignalSource?

    init(callback: Callback, target: Target, interval: Float32, granularity: Float32) {
        self.callback = callback
        let seconds = interval.isFinite ? max(Double(interval), 0) : 0
        self.interval = seconds
        self.target = seconds == 0 ? .immediate : target
        let g = granularity.isFinite ? max(Double(granularity), 0) : 0
        granularityNanos = UInt64(min(g, 1e6) * 1e9)
        if case .runLoop(let loop, let mode) = self.target {
            source = RunLoopSignalSource(loop: loop._loop, mode: mode) { [weak self] in self?.flush() }
        }
    }

    /// Queues one event (or delivers it at once with an interval of 0). Any thread but a render thread.
    func enqueue(_ p: Pending) {
        if case .immediate = target {
            if !state.withLock({ $0.disposed }) { deliver(p) }
            return
        }
        let schedule = state.withLock { s -> Bool in
            if s.disposed { return false }
            coalesce(p, into: &s.pending)
            if s.flushScheduled { return false }
            s.flushScheduled = true
            return true
        }
        guard schedule else { return }
        switch target {
        case .immediate: break
        case .runLoop:
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [weak self] in self?.source?.signal() }
        case .queue(let queue):
            queue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.flush() }
        }
    }

    /// A value change replaces an earlier one of the same parameter and object less than the granularity
    /// before it; a property change replaces the same pending property change. The newer moves to the end,
    /// keeping deliveries in time order.
    private func coalesce(_ p: Pending, into pending: inout [Pending]) {
        switch p.event.mEventType {
        case .parameterValueChange:
            if let i = pending.lastIndex(where: {
                $0.event.mEventType == .parameterValueChange && $0.object == p.object
                    && Self.sameParameter($0.event.mArgument.mParameter, p.event.mArgument.mParameter)
            }), p.hostTime &- pending[i].hostTime < granularityNanos {
                pending.remove(at: i)
            }
        case .propertyChange:
            pending.removeAll {
                $0.event.mEventType == .propertyChange && $0.object == p.object
                    && Self.sameProperty($0.event.mArgument.mProperty, p.event.mArgument.mProperty)
            }
        default:
            break
        }
        pending.append(p)
    }

    /// Delivers everything queued, on the target's thread; stops as soon as the listener is disposed.
    private func flush() {
        let batch = state.withLock { s -> [Pending] in
            s.flushScheduled = false
            let b = s.pending
            s.pending.removeAll()
            return s.disposed ? [] : b
        }
        for p in batch {
            if state.withLock({ $0.disposed }) { return }
            deliver(p)
        }
    }

    private func deliver(_ p: Pending) {
        var event = p.event
        switch callback {
        case .parameterProc(let proc, let user):
            var parameter = event.mArgument.mParameter
            proc(user, p.object, &parameter, p.value)
        case .parameterBlock(let block):
            var parameter = event.mArgument.mParameter
            block(p.object, &parameter, p.value)
        case .eventProc(let proc, let user):
            proc(user, p.object, &event, p.hostTime, p.value)
        case .eventBlock(let block):
            block(p.object, &event, p.hostTime, p.value)
        }
    }

    /// Stops every delivery, queued ones included.
    func dispose() {
        state.withLock {
            $0.disposed = true
            $0.pending.removeAll()
        }
        source?.invalidate()
    }

    static func sameParameter(_ a: AudioUnitParameter, _ b: AudioUnitParameter) -> Bool {
        a.mAudioUnit == b.mAudioUnit && a.mParameterID == b.mParameterID && a.mScope == b.mScope && a.mElement == b.mElement
    }

    static func sameProperty(_ a: AudioUnitProperty, _ b: AudioUnitProperty) -> Bool {
        a.mAudioUnit == b.mAudioUnit && a.mPropertyID == b.mPropertyID && a.mScope == b.mScope && a.mElement == b.mElement
    }
}
