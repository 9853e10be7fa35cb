/// Parameters: get/set from any thread without locks, and sample-accurate scheduled events.
extension AUBase {
    /// Defines a parameter on an element (subclasses, at construction or while uninitialized).
    func defineParameter(_ id: AudioUnitParameterID, scope: AudioUnitScope, element: AudioUnitElement,
                         _ info: AudioUnitParameterInfo) {
        guard case .success(let e) = self.element(scope, element) else { return }
        e.parameters.define(id, info, value: info.defaultValue)
    }

    /// The parameter table and index of a parameter, or Apple's status for a bad scope, element or ID.
    @inline(__always)
    func parameterSlot(_ id: AudioUnitParameterID, _ scope: AudioUnitScope,
                       _ element: AudioUnitElement) -> (ParameterTable, Int)? {
        let table: ParameterTable
        switch scope {
        case kAudioUnitScope_Global where element == 0: table = globalElement.parameters
        case kAudioUnitScope_Input where Int(element) < inputs.count: table = inputs[Int(element)].parameters
        case kAudioUnitScope_Output where Int(element) < outputs.count: table = outputs[Int(element)].parameters
        default: return nil
        }
        guard let i = table.index(of: id) else { return nil }
        return (table, i)
    }

    @inline(__always)
    func parameterError(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> OSStatus {
        if scope > kAudioUnitScope_Group { return kAudioUnitErr_InvalidScope }
        if case .failure(let e) = self.element(scope, element) { return e.status }
        return kAudioUnitErr_InvalidParameter
    }

    func auGetParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        guard let (table, i) = parameterSlot(id, scope, element) else { return parameterError(scope, element) }
        outValue.pointee = table.value(at: i)
        return noErr
    }

    func auSetParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        guard value.isFinite else { return kAudioUnitErr_InvalidParameterValue }
        guard let (table, i) = parameterSlot(id, scope, element) else { return parameterError(scope, element) }
        table.setValue(at: i, value)
        return noErr
    }

    func auScheduleParameters(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: UInt32) -> OSStatus {
        for k in 0..<Int(count) {
            let e = events[k]
            switch e.eventType {
            case .parameterEvent_Immediate:
                guard e.eventValues.immediate.value.isFinite else { return kAudioUnitErr_InvalidParameterValue }
            case .parameterEvent_Ramped:
                guard e.eventValues.ramp.startValue.isFinite, e.eventValues.ramp.endValue.isFinite else {
                    return kAudioUnitErr_InvalidParameterValue
                }
            default:
                return kAudio_ParamError
            }
            guard parameterSlot(e.parameter, e.scope, e.element) != nil else { return parameterError(e.scope, e.element) }
        }
        guard eventQueue.push(events, Int(count)) else { return kAudioUnitErr_CannotDoInCurrentContext }
        setRenderWork(.parameters, true)
        return noErr
    }

    /// Builds this slice's automation curves from the scheduled events. Render thread.
    @inline(__always)
    func applyScheduledParameters(frames: UInt32) {
        // Nothing queued and no curve from the last slice: every table's curves are already off.
        guard hasRenderWork(.parameters) else { return }
        // Cleared before draining, so events pushed meanwhile set it again for the next slice.
        renderWork.bitwiseAnd(~RenderWork.parameters.rawValue, ordering: .acquiringAndReleasing)
        let n = eventQueue.drain(into: sliceEvents)
        // Each table's beginSlice returns at once when it had no curve in the last slice.
        withUnretained(globalElement.parameters) { $0.beginSlice(frames: Int(frames)) }
        // Index loops: iterating an array with for-in allocates a coroutine frame in debug builds.
        for i in 0..<inputs.count { withInput(i) { $0.parameters.beginSlice(frames: Int(frames)) } }
        for i in 0..<outputs.count { withOutput(i) { $0.parameters.beginSlice(frames: Int(frames)) } }
        for k in 0..<n {
            let e = sliceEvents[k]
            guard let (table, i) = parameterSlot(e.parameter, e.scope, e.element) else { continue }
            table.apply(e, at: i, frames: Int(frames))
        }
        // A curve active in this slice must be reset (or a ramp carried) by the next slice's beginSlice.
        var curves = globalElement.parameters.hasActiveCurves
        for i in 0..<inputs.count where !curves { curves = withInput(i) { $0.parameters.hasActiveCurves } }
        for i in 0..<outputs.count where !curves { curves = withOutput(i) { $0.parameters.hasActiveCurves } }
        if curves { renderWork.bitwiseOr(RenderWork.parameters.rawValue, ordering: .relaxed) }
    }

    /// For kernels: the parameter's per-frame values in this slice, or nil when constant (then read
    /// `parameterValue`). Render thread.
    @inline(__always)
    func parameterCurve(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> UnsafePointer<Float>? {
        guard let (table, i) = parameterSlot(id, scope, element) else { return nil }
        return table.curve(at: i)
    }

    @inline(__always)
    func parameterValue(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> Float {
        guard let (table, i) = parameterSlot(id, scope, element) else { return 0 }
        return table.value(at: i)
    }
}
