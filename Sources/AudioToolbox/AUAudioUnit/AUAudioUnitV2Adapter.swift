import Synchronization

/// The C API's face of an AUAudioUnit subclass (the reverse of Apple's AUAudioUnitV2Bridge): what
/// AudioComponentInstanceNew makes for a component registered with `AUAudioUnit.registerSubclass`. An AUBase, so
/// connections, render callbacks, render notifications, element formats and the property rules are the built-in
/// units'; the unit's busses, parameter tree, render resources and render block stand behind them:
///
/// - kAudioUnitProperty_StreamFormat and SampleRate: the busses' formats (kept in step both ways)
/// - kAudioUnitProperty_MaximumFramesPerSlice: `maximumFramesToRender`
/// - AudioUnitInitialize, Uninitialize, Reset: `allocateRenderResources`, `deallocateRenderResources`, `reset`
/// - AudioUnitGetParameter, SetParameter (global scope, ID = address): the tree's `AUParameter` values
/// - AudioUnitScheduleParameters: the render block's event list
/// - ParameterList, ParameterInfo, ClassInfo, Latency, TailTime, BypassEffect, SupportedNumChannels, presets:
///   the unit's properties
/// - AudioUnitRender: the unit's render block, with a pull-input block that renders the input's connection or
///   render callback.
final class AUAudioUnitV2Adapter: AUBase, @unchecked Sendable {
    private let make: () throws -> AUAudioUnit
    private(set) var unit: AUAudioUnit!
    /// Made once at open, so a render allocates nothing.
    private var pullInput: AURenderPullInputBlock!
    /// Set while the adapter itself pushes a format to a bus (the bus's change notice comes back).
    private var pushingFormat = false

    /// Parameters by address for the render thread: published through one atomic pointer; replaced tables are
    /// kept until the adapter dies.
    private final class ParameterIndex {
        let addresses: UnsafeMutablePointer<AUParameterAddress>
        let parameters: [AUParameter]
        let tree: AUParameterTree?

        init(_ tree: AUParameterTree?) {
            self.tree = tree
            let sorted = (tree?.allParameters ?? []).sorted { $0.address < $1.address }
            parameters = sorted
            addresses = .allocate(capacity: max(sorted.count, 1))
            for (i, p) in sorted.enumerated() { addresses[i] = p.address }
        }

        deinit { addresses.deallocate() }

        @inline(__always)
        func parameter(_ address: AUParameterAddress) -> AUParameter? {
            var lo = 0, hi = parameters.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if addresses[mid] < address { lo = mid + 1 } else { hi = mid }
            }
            return lo < parameters.count && addresses[lo] == address ? parameters[lo] : nil
        }
    }
    private let index = Atomic<UnsafeMutableRawPointer?>(nil)
    private let indexes = LockedState<[ParameterIndex]>([])

    init(component: AudioComponentEntry, make: @escaping () throws -> AUAudioUnit) {
        self.make = make
        super.init(component: component, inputs: 0, outputs: 0)
    }

    /// Makes the unit (its initializer may throw: the status, or kAudioComponentErr_InstanceInvalidated, goes
    /// back to AudioComponentInstanceNew).
    override func open() -> OSStatus {
        do {
            unit = try make()
        } catch {
            let code = (error as NSError).domain == NSOSStatusErrorDomain ? OSStatus(truncatingIfNeeded: (error as NSError).code) : 0
            return code != noErr ? code : kAudioComponentErr_InstanceInvalidated
        }
        unit.v2Adapter = self
        syncElements()
        maxFramesPerSlice = unit.maximumFramesToRender
        parameterTreeChanged()
        pullInput = { [unowned self] flags, timestamp, frames, bus, data in
            self.pull(flags, timestamp, frames, bus, data)
        }
        return noErr
    }

    override func close() {
        super.close()
        unit?.v2Adapter = nil
    }

    // MARK: Busses and formats

    /// Element counts and formats from the unit's busses (while uninitialized).
    private func syncElements() {
        let inputBusses = unit.inputBusses, outputBusses = unit.outputBusses
        setElementCount(kAudioUnitScope_Input, inputBusses.count)
        setElementCount(kAudioUnitScope_Output, outputBusses.count)
        for i in 0..<inputBusses.count { inputs[i].format = inputBusses[i].streamDescription }
        for i in 0..<outputBusses.count { outputs[i].format = outputBusses[i].streamDescription }
    }

    private func bus(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> AUAudioUnitBus? {
        let busses: AUAudioUnitBusArray
        switch scope {
        case kAudioUnitScope_Input: busses = unit.inputBusses
        case kAudioUnitScope_Output, kAudioUnitScope_Global: busses = unit.outputBusses
        default: return nil
        }
        let i = scope == kAudioUnitScope_Global ? 0 : Int(element)
        return i < busses.count ? busses[i] : nil
    }

    /// Any consistent linear PCM the bus's channel constraints admit.
    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        guard AUFormatRules.isConsistentLinearPCM(f), let bus = bus(scope, element) else { return false }
        return bus.accepts(channels: f.mChannelsPerFrame)
    }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        guard let bus = bus(scope, element), case .success(let e) = ioElement(scope, element) else { return }
        pushingFormat = true
        defer { pushingFormat = false }
        try? bus.setStreamDescription(e.format)
    }

    /// The unit changed a bus's format itself: the element follows and StreamFormat's listeners hear of it.
    func busFormatChanged(_ bus: AUAudioUnitBus) {
        guard !pushingFormat else { return }
        let scope = bus.busType == .input ? kAudioUnitScope_Input : kAudioUnitScope_Output
        guard case .success(let e) = ioElement(scope, AudioUnitElement(bus.index)) else { return }
        e.format = bus.streamDescription
        propertyChanged(kAudioUnitProperty_StreamFormat, scope, AudioUnitElement(bus.index))
    }

    /// The unit replaced its busses: the elements follow (while uninitialized).
    func busCountChanged(_ busses: AUAudioUnitBusArray) {
        guard !isInitialized else { return }
        syncElements()
        propertyChanged(kAudioUnitProperty_ElementCount, busses.busType == .input ? kAudioUnitScope_Input : kAudioUnitScope_Output, 0)
    }

    // MARK: Lifecycle

    override func initialize() -> OSStatus {
        if isInitialized { return noErr }
        syncElements()
        maxFramesPerSlice = unit.maximumFramesToRender
        parameterTreeChanged()
        return super.initialize()
    }

    override func initializeUnit() -> OSStatus {
        do {
            try unit.allocateRenderResources()
        } catch {
            let code = OSStatus(truncatingIfNeeded: (error as NSError).code)
            return code != noErr ? code : kAudioUnitErr_FailedInitialization
        }
        return noErr
    }

    override func cleanupUnit() {
        unit.deallocateRenderResources()
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        unit.eventQueue.clear()
        unit.reset()
    }

    // MARK: Rendering

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        unit.render(flags, timeStamp, frames, Int(bus), output, inputs.isEmpty ? nil : pullInput)
    }

    /// The pull-input block: renders input `bus`'s connection or callback into `data`, or, when `data`'s buffers are
    /// null, into the element's memory and lends it. Render thread.
    private func pull(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timestamp: UnsafePointer<AudioTimeStamp>,
                      _ frames: AUAudioFrameCount, _ bus: Int, _ data: UnsafeMutablePointer<AudioBufferList>) -> AUAudioUnitStatus {
        guard bus >= 0, bus < inputs.count else { return kAudioUnitErr_InvalidElement }
        let input = inputs[bus]
        let target = UnsafeMutableAudioBufferListPointer(data)
        guard target.count > 0, target[0].mData == nil else {
            return input.pull(flags: flags, timeStamp: timestamp, bus: UInt32(bus), frames: frames, into: data).0
        }
        let (status, own) = input.pull(flags: flags, timeStamp: timestamp, bus: UInt32(bus), frames: frames)
        let lent = UnsafeMutableAudioBufferListPointer(own)
        for i in 0..<min(target.count, lent.count) { target[i] = lent[i] }
        return status
    }

    // MARK: Parameters

    /// Rebuilds the render thread's address table from the unit's current tree (when the tree is another object).
    func parameterTreeChanged() {
        let tree = unit.parameterTree
        if let p = index.load(ordering: .acquiring), Unmanaged<ParameterIndex>.fromOpaque(p).takeUnretainedValue().tree === tree { return }
        let table = ParameterIndex(tree)
        indexes.withLock { $0.append(table) }
        index.store(Unmanaged.passUnretained(table).toOpaque(), ordering: .releasing)
    }

    @inline(__always)
    private func parameter(_ id: AudioUnitParameterID) -> AUParameter? {
        guard let p = index.load(ordering: .acquiring) else { return nil }
        return Unmanaged<ParameterIndex>.fromOpaque(p)._withUnsafeGuaranteedRef { $0.parameter(AUParameterAddress(id)) }
    }

    private func parameterStatus(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> OSStatus {
        if scope > kAudioUnitScope_Group { return kAudioUnitErr_InvalidScope }
        if scope == kAudioUnitScope_Global && element != 0 { return kAudioUnitErr_InvalidElement }
        return kAudioUnitErr_InvalidParameter
    }

    override func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        guard scope == kAudioUnitScope_Global, element == 0, let p = parameter(id) else { return parameterStatus(scope, element) }
        outValue.pointee = p.value
        return noErr
    }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        guard value.isFinite else { return kAudioUnitErr_InvalidParameterValue }
        guard scope == kAudioUnitScope_Global, element == 0, let p = parameter(id) else { return parameterStatus(scope, element) }
        p.setValue(value, originator: nil)
        return noErr
    }

    /// Scheduled v2 events become the render block's parameter events (immediate ones at their buffer offset).
    override func scheduleParameters(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: UInt32) -> OSStatus {
        for k in 0..<Int(count) {
            let e = events[k]
            guard e.scope == kAudioUnitScope_Global, e.element == 0, parameter(e.parameter) != nil else { return parameterStatus(e.scope, e.element) }
        }
        for k in 0..<Int(count) {
            let e = events[k]
            let event: AUParameterEvent
            if e.eventType == .parameterEvent_Ramped {
                let r = e.eventValues.ramp
                event = AUParameterEvent(next: nil, eventSampleTime: AUEventSampleTimeImmediate + AUEventSampleTime(max(r.startBufferOffset, 0)),
                                         eventType: .parameterRamp, reserved: (0, 0, 0), rampDurationSampleFrames: r.durationInFrames,
                                         parameterAddress: AUParameterAddress(e.parameter), value: r.endValue)
            } else {
                let i = e.eventValues.immediate
                event = AUParameterEvent(next: nil, eventSampleTime: AUEventSampleTimeImmediate + AUEventSampleTime(i.bufferOffset),
                                         eventType: .parameter, reserved: (0, 0, 0), rampDurationSampleFrames: 0,
                                         parameterAddress: AUParameterAddress(e.parameter), value: i.value)
            }
            guard unit.eventQueue.push(event) else { return kAudioUnitErr_CannotDoInCurrentContext }
        }
        return noErr
    }

    /// ParameterInfo of a tree parameter: its name, unit, range, current value as the default, and flags.
    fileprivate func parameterInfo(_ id: AudioUnitParameterID) -> AudioUnitParameterInfo? {
        parameterTreeChanged()
        guard let p = parameter(id) else { return nil }
        var info = AudioUnitParameterInfo.oca(p.displayName, unit: p.unit, min: p.minValue, max: p.maxValue, default: p.value,
                                              flags: p.flags)
        if let unitName = p.unitName { info.unitName = Unmanaged.passRetained(unitName as NSString) }
        if p.valueStrings != nil { info.flags.insert(.flag_ValuesHaveStrings) }
        return info
    }

    fileprivate func parameterIDs(scope: AudioUnitScope) -> [AudioUnitParameterID] {
        guard scope == kAudioUnitScope_Global else { return [] }
        parameterTreeChanged()
        return (unit.parameterTree?.allParameters ?? []).compactMap { AudioUnitParameterID(exactly: $0.address) }
    }

    // MARK: Properties

    override var latency: Double { unit.latency }
    override var tailTime: Double? { unit.tailTime }

    override var supportedNumChannels: [AUChannelInfo] {
        guard let caps = unit.channelCapabilities else { return [] }
        return stride(from: 0, to: caps.count - 1, by: 2).map { AUChannelInfo(inChannels: caps[$0].int16Value, outChannels: caps[$0 + 1].int16Value) }
    }

    override var factoryPresets: [(number: Int32, name: String)]? {
        unit.factoryPresets.map { $0.map { (Int32(truncatingIfNeeded: $0.number), $0.name) } }
    }

    override func applyFactoryPreset(_ number: Int32) -> OSStatus {
        guard let preset = unit.factoryPresets?.first(where: { $0.number == Int(number) }) else { return kAudioUnitErr_InvalidPropertyValue }
        unit.currentPreset = preset
        return noErr
    }

    override class var propertyRows: [AUProperty] {
        let global: AUProperty.Place = AUProperty.global
        return super.propertyRows + [
            .array(kAudioUnitProperty_ParameterList, AudioUnitParameterID.self, of: AUAudioUnitV2Adapter.self, place: AUProperty.anyScope,
                   get: { adapter, scope, _ in adapter.parameterIDs(scope: scope) }),
            .value(kAudioUnitProperty_ParameterInfo, AudioUnitParameterInfo.self, of: AUAudioUnitV2Adapter.self,
                   place: { unit, scope, element in
                       guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
                       guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidParameter }
                       return unsafeDowncast(unit, to: AUAudioUnitV2Adapter.self).parameterInfo(element) == nil ? kAudioUnitErr_InvalidParameter : noErr
                   },
                   get: { adapter, _, element in adapter.parameterInfo(element)! }),
            .object(kAudioUnitProperty_ClassInfo, of: AUAudioUnitV2Adapter.self, place: global, writable: .always,
                    get: { adapter, _, _ in
                        guard let state = adapter.unit.fullState else { return .failure(OSStatusError(kAudioUnitErr_PropertyNotInUse)) }
                        return .success(state as NSDictionary)
                    },
                    set: { adapter, _, _, object in
                        guard let state = object as? NSDictionary else { return kAudioUnitErr_InvalidPropertyValue }
                        adapter.unit.fullState = state as? [String: Any]
                        return noErr
                    }),
            .object(kAudioUnitProperty_ClassInfoFromDocument, of: AUAudioUnitV2Adapter.self, place: global, writable: .always,
                    get: { adapter, _, _ in
                        guard let state = adapter.unit.fullStateForDocument else { return .failure(OSStatusError(kAudioUnitErr_PropertyNotInUse)) }
                        return .success(state as NSDictionary)
                    },
                    set: { adapter, _, _, object in
                        guard let state = object as? NSDictionary else { return kAudioUnitErr_InvalidPropertyValue }
                        adapter.unit.fullStateForDocument = state as? [String: Any]
                        return noErr
                    }),
            .value(kAudioUnitProperty_MaximumFramesPerSlice, UInt32.self, of: AUAudioUnitV2Adapter.self, place: global,
                   setPlace: AUProperty.anywhere, writable: .uninitializedOnly, exactSize: true, notify: .bySetter,
                   get: { adapter, _, _ in adapter.unit.maximumFramesToRender },
                   set: { adapter, _, _, frames in
                       guard frames > 0, frames <= 1 << 20 else { return kAudioUnitErr_InvalidPropertyValue }
                       if frames != adapter.unit.maximumFramesToRender || frames != adapter.maxFramesPerSlice {
                           adapter.unit.maximumFramesToRender = frames
                           adapter.maxFramesPerSlice = frames
                           adapter.propertyChanged(kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0)
                       }
                       return noErr
                   }),
            .flag(kAudioUnitProperty_BypassEffect, of: AUAudioUnitV2Adapter.self, place: global,
                  get: { adapter, _, _ in adapter.unit.shouldBypassEffect },
                  set: { adapter, _, _, on in adapter.unit.shouldBypassEffect = on; return noErr }),
            .flag(kAudioUnitProperty_InPlaceProcessing, of: AUAudioUnitV2Adapter.self, place: global, writable: .never,
                  get: { adapter, _, _ in adapter.unit.canProcessInPlace }),
            .flag(kAudioUnitProperty_OfflineRender, of: AUAudioUnitV2Adapter.self, place: global,
                  get: { adapter, _, _ in adapter.unit.isRenderingOffline },
                  set: { adapter, _, _, on in adapter.unit.isRenderingOffline = on; return noErr }),
            .value(kAudioUnitProperty_RenderQuality, UInt32.self, of: AUAudioUnitV2Adapter.self, place: global, writable: .always, exactSize: true,
                   get: { adapter, _, _ in UInt32(clamping: adapter.unit.renderQuality) },
                   set: { adapter, _, _, quality in
                       adapter.unit.renderQuality = Int(min(quality, UInt32(kRenderQuality_Max)))
                       return noErr
                   }),
            .value(kAudioUnitProperty_PresentPreset, AUPreset.self, of: AUAudioUnitV2Adapter.self, place: global, writable: .always,
                   exactSize: true,
                   get: { adapter, _, _ in
                       let preset = adapter.unit.currentPreset
                       return AUPreset(presetNumber: Int32(truncatingIfNeeded: preset?.number ?? -1),
                                       presetName: Unmanaged.passRetained((preset?.name ?? "Untitled") as NSString))
                   },
                   set: { adapter, _, _, preset in
                       if preset.presetNumber >= 0 { return adapter.applyFactoryPreset(preset.presetNumber) }
                       guard let name = preset.presetName else { return kAudioUnitErr_InvalidPropertyValue }
                       let user = AUAudioUnitPreset()
                       user.number = Int(preset.presetNumber)
                       user.name = name.takeUnretainedValue() as String
                       adapter.unit.currentPreset = user
                       return noErr
                   }),
        ]
    }
}
