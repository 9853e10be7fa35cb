import Foundation
import CoreAudio

/// Every live parameter/event listener and what each listens for, process-wide: AUParameterSet and the
/// Notify calls find the listeners of a parameter here, and property changes reach event listeners through
/// one internal property listener per (unit, property) that some listener wants. The lock is never taken
/// by a render thread; clients are called after it is released.
final class AUListenerRegistry: @unchecked Sendable {
    static let shared = AUListenerRegistry()

    /// One `AUListenerAddParameter` or `AUEventListenerAddEventType`.
    struct Registration {
        let listener: AUListenerObject
        let object: UnsafeMutableRawPointer?
        let event: AudioUnitEvent
    }

    private struct PropertyKey: Hashable {
        let unit: AudioUnit
        let id: AudioUnitPropertyID
    }

    private struct State {
        var listeners: [UnsafeMutableRawPointer: AUListenerObject] = [:]
        var registrations: [Registration] = []
        /// How many registrations want each unit property (the internal listener is installed while > 0).
        var propertyWatchers: [PropertyKey: Int] = [:]
    }

    private let state = LockedState(State())

    // MARK: Listeners

    /// Makes a listener live and returns its handle (+1; `remove` gives it back).
    func add(_ listener: AUListenerObject) -> AUParameterListenerRef {
        let handle = Unmanaged.passRetained(listener).toOpaque()
        state.withLock { $0.listeners[handle] = listener }
        return AUParameterListenerRef(handle)
    }

    /// The live listener behind a handle, or nil for one never made or already disposed.
    func listener(_ ref: AUParameterListenerRef?) -> AUListenerObject? {
        guard let ref else { return nil }
        return state.withLock { $0.listeners[UnsafeMutableRawPointer(ref)] }
    }

    /// Disposes a listener: no delivery after this returns, queued ones included.
    func remove(_ ref: AUParameterListenerRef) -> OSStatus {
        guard let listener = listener(ref) else { return kAudio_ParamError }
        listener.dispose()
        state.withLock { s in
            s.listeners[UnsafeMutableRawPointer(ref)] = nil
            let watched = s.registrations.filter { $0.listener === listener && $0.event.mEventType == .propertyChange }
            for r in watched { unwatch(r.event.mArgument.mProperty, &s) }
            s.registrations.removeAll { $0.listener === listener }
        }
        Unmanaged<AUListenerObject>.fromOpaque(UnsafeRawPointer(ref)).release()
        return noErr
    }

    // MARK: Registrations

    /// Starts delivering `event`'s kind of events to `listener` for `object`. A property-change registration
    /// installs the internal property listener on the unit the first time that property is wanted.
    func register(_ listener: AUListenerObject, _ object: UnsafeMutableRawPointer?, _ event: AudioUnitEvent) -> OSStatus {
        state.withLock { s in
            if s.registrations.contains(where: { $0.listener === listener && $0.object == object && Self.sameTarget($0.event, event) }) {
                return noErr
            }
            if event.mEventType == .propertyChange {
                let status = watch(event.mArgument.mProperty, &s)
                guard status == noErr else { return status }
            }
            s.registrations.append(Registration(listener: listener, object: object, event: event))
            return noErr
        }
    }

    /// Stops what `register` started (nothing to remove is not an error).
    func unregister(_ listener: AUListenerObject, _ object: UnsafeMutableRawPointer?, _ event: AudioUnitEvent) -> OSStatus {
        state.withLock { s in
            let before = s.registrations.count
            s.registrations.removeAll { $0.listener === listener && $0.object == object && Self.sameTarget($0.event, event) }
            if s.registrations.count < before, event.mEventType == .propertyChange { unwatch(event.mArgument.mProperty, &s) }
            return noErr
        }
    }

    private func watch(_ p: AudioUnitProperty, _ s: inout State) -> OSStatus {
        let key = PropertyKey(unit: p.mAudioUnit, id: p.mPropertyID)
        if let n = s.propertyWatchers[key] {
            s.propertyWatchers[key] = n + 1
            return noErr
        }
        let status = AudioUnitAddPropertyListener(p.mAudioUnit, p.mPropertyID, auListenerPropertyRouter, Self.routerRefCon)
        guard status == noErr else { return status }
        s.propertyWatchers[key] = 1
        return noErr
    }

    private func unwatch(_ p: AudioUnitProperty, _ s: inout State) {
        let key = PropertyKey(unit: p.mAudioUnit, id: p.mPropertyID)
        guard let n = s.propertyWatchers[key] else { return }
        if n > 1 { s.propertyWatchers[key] = n - 1; return }
        s.propertyWatchers[key] = nil
        // The unit may be gone already; then there is nothing to remove.
        _ = AudioUnitRemovePropertyListenerWithUserData(p.mAudioUnit, p.mPropertyID, auListenerPropertyRouter, Self.routerRefCon)
    }

    /// The user data of the internal property listener (AudioUnitPropertyListenerProc's refCon is non-null):
    /// the registry, which lives as long as the process.
    static var routerRefCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(shared).toOpaque() }

    // MARK: Notifying

    /// Tells every listener of `parameter` (every parameter of its unit for kAUParameterListener_AnyParameter)
    /// about an event of `type`, except the sender. `value` is the new value; nil reads each parameter's
    /// current value.
    func notifyParameter(_ type: AudioUnitEventType, _ parameter: AudioUnitParameter, value: AudioUnitParameterValue?,
                         sender: AUListenerObject?, senderObject: UnsafeMutableRawPointer?) {
        let wildcard = parameter.mParameterID == kAUParameterListener_AnyParameter
        let matches = state.withLock { s in
            s.registrations.filter { r in
                guard r.event.mEventType == type else { return false }
                if let sender, r.listener === sender, senderObject == nil || r.object == senderObject { return false }
                let p = r.event.mArgument.mParameter
                guard p.mAudioUnit == parameter.mAudioUnit else { return false }
                return wildcard || (p.mParameterID == parameter.mParameterID && p.mScope == parameter.mScope && p.mElement == parameter.mElement)
            }
        }
        guard !matches.isEmpty else { return }
        let hostTime = AudioGetCurrentHostTime()
        for r in matches {
            let p = r.event.mArgument.mParameter
            var current = AudioUnitParameterValue(0)
            if wildcard || value == nil {
                let status = AudioUnitGetParameter(p.mAudioUnit, p.mParameterID, p.mScope, p.mElement, &current)
                if status != noErr && type == .parameterValueChange { continue }
            } else {
                current = value!
            }
            let event = AudioUnitEvent(mEventType: type, mArgument: .init(mParameter: p))
            r.listener.enqueue(.init(event: event, object: r.object, hostTime: hostTime, value: current))
        }
    }

    /// Tells the event listeners of a unit property that it changed (from the unit's property listener).
    func notifyProperty(_ property: AudioUnitProperty) {
        let matches = state.withLock { s in
            s.registrations.filter { r in
                r.event.mEventType == .propertyChange && AUListenerObject.sameProperty(r.event.mArgument.mProperty, property)
            }
        }
        guard !matches.isEmpty else { return }
        let hostTime = AudioGetCurrentHostTime()
        for r in matches {
            let event = AudioUnitEvent(mEventType: .propertyChange, mArgument: .init(mProperty: property))
            r.listener.enqueue(.init(event: event, object: r.object, hostTime: hostTime, value: 0))
        }
    }

    /// Two registrations name the same thing: the same event type and parameter (or property).
    private static func sameTarget(_ a: AudioUnitEvent, _ b: AudioUnitEvent) -> Bool {
        guard a.mEventType == b.mEventType else { return false }
        return a.mEventType == .propertyChange
            ? AUListenerObject.sameProperty(a.mArgument.mProperty, b.mArgument.mProperty)
            : AUListenerObject.sameParameter(a.mArgument.mParameter, b.mArgument.mParameter)
    }
}

/// The internal property listener: routes a unit's property change to the event listeners that want it.
private func auListenerPropertyRouter(_ refCon: UnsafeMutableRawPointer, _ unit: AudioUnit, _ id: AudioUnitPropertyID,
                                      _ scope: AudioUnitScope, _ element: AudioUnitElement) {
    AUListenerRegistry.shared.notifyProperty(AudioUnitProperty(mAudioUnit: unit, mPropertyID: id, mScope: scope, mElement: element))
}
