import OCAProperty
import Foundation

/// The properties every unit has, after AudioUnitSDK's AUBase, as rows of the unit's property table
/// (see `AUProperty`), and the three property calls answered from that table alone.
extension AUBase {
    static let objectSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)

    /// The rows of Apple's audio unit base class: scope rules, sizes, writability and the
    /// "not while initialized" rules.
    static let baseRows: [AUProperty] = [
        .object(kAudioUnitProperty_ClassInfo, of: AUBase.self, place: AUProperty.global, writable: .always, notify: .bySetter,
                get: { unit, _, _ in .success(unit.saveState()) },
                set: { unit, _, _, object in object.map { unit.restoreState($0) } ?? kAudioUnitErr_InvalidPropertyValue }),
        AUProperty(kAudioUnitProperty_MakeConnection, place: AUProperty.inputOrGlobalElement, setPlace: AUProperty.anywhere, writable: .always,
                   size: { _, _, _ in UInt32(MemoryLayout<AudioUnitConnection>.size) },
                   setSize: UInt32(MemoryLayout<AudioUnitConnection>.size), notify: .bySetter,
                   read: { _, _, _, _ in kAudioUnitErr_InvalidProperty },
                   write: { unit, _, _, data in unit.makeConnection(data.loadUnaligned(as: AudioUnitConnection.self)) }),
        AUProperty(kAudioUnitProperty_SetRenderCallback, place: AUProperty.inputOrGlobalElement, setPlace: AUProperty.anywhere, writable: .always,
                   size: { _, _, _ in UInt32(MemoryLayout<AURenderCallbackStruct>.size) },
                   setSize: UInt32(MemoryLayout<AURenderCallbackStruct>.size), notify: .bySetter,
                   read: { _, _, _, _ in kAudioUnitErr_InvalidProperty },
                   write: { unit, _, element, data in unit.setRenderCallback(element, data.loadUnaligned(as: AURenderCallbackStruct.self)) }),
        .value(kAudioUnitProperty_SampleRate, Float64.self, of: AUBase.self, place: AUProperty.ioElement,
               writable: .when { unit, scope, element in unit.streamFormatWritable(scope, element) }, exactSize: true, notify: .bySetter,
               get: { unit, scope, element in unit.ioFormat(scope, element).mSampleRate },
               set: { unit, scope, element, rate in
                   var format = unit.ioFormat(scope, element)
                   format.mSampleRate = rate
                   guard rate.isFinite, rate >= 0 else { return kAudioUnitErr_InvalidPropertyValue }
                   return unit.setStreamFormat(scope, element, format)
               }),
        AUProperty(kAudioUnitProperty_StreamFormat, place: AUProperty.ioElement,
                   writable: .when { unit, scope, element in unit.streamFormatWritable(scope, element) },
                   size: { _, _, _ in UInt32(MemoryLayout<AudioStreamBasicDescription>.size) }, setSize: 36, notify: .bySetter,
                   read: { unit, scope, element, out in
                       out.storeBytes(of: unit.ioFormat(scope, element), as: AudioStreamBasicDescription.self)
                       return noErr
                   },
                   write: { unit, scope, element, data in
                       // The last field (mReserved) may be left out; it is always 0.
                       var format = AudioStreamBasicDescription()
                       withUnsafeMutableBytes(of: &format) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: data.prefix(36))) }
                       guard AUFormatRules.passesMinimalSafetyCheck(format) else { return kAudioUnitErr_FormatNotSupported }
                       return unit.setStreamFormat(scope, element, format)
                   }),
        .array(kAudioUnitProperty_ParameterList, AudioUnitParameterID.self, of: AUBase.self, place: AUProperty.anyScope,
               get: { unit, scope, _ in unit.parameterIDs(scope) }),
        .value(kAudioUnitProperty_ParameterInfo, AudioUnitParameterInfo.self, of: AUBase.self,
               place: { unit, scope, element in
                   guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
                   return unit.parameterInfo(scope, element) == nil ? kAudioUnitErr_InvalidParameter : noErr
               },
               get: { unit, scope, element in
                   var info = unit.parameterInfo(scope, element)!
                   // Hand out +1 names, as Apple's units do (with CFNameRelease set).
                   if let name = info.cfNameString {
                       info.cfNameString = Unmanaged.passRetained(name.takeUnretainedValue())
                       info.flags.insert(.flag_CFNameRelease)
                   }
                   return info
               }),
        .value(kAudioUnitProperty_ElementCount, UInt32.self, of: AUBase.self, place: AUProperty.anyScope,
               writable: .when { unit, scope, _ in unit.isElementCountWritable(scope) }, exactSize: true,
               get: { unit, scope, _ in UInt32(unit.elementCount(scope)) },
               set: { unit, scope, _, count in
                   guard unit.isElementCountWritable(scope) else { return kAudioUnitErr_PropertyNotWritable }
                   guard !unit.isInitialized else { return kAudioUnitErr_Initialized }
                   guard count <= 4096 else { return kAudioUnitErr_InvalidPropertyValue }
                   unit.setElementCount(scope, Int(count))
                   return noErr
               }),
        .value(kAudioUnitProperty_Latency, Float64.self, of: AUBase.self, place: AUProperty.global, get: { unit, _, _ in unit.latency }),
        .value(kAudioUnitProperty_TailTime, Float64.self, of: AUBase.self, place: AUProperty.when({ $0.tailTime != nil }, AUProperty.global),
               get: { unit, _, _ in unit.tailTime ?? 0 }),
        .array(kAudioUnitProperty_SupportedNumChannels, AUChannelInfo.self, of: AUBase.self,
               place: AUProperty.when({ !$0.supportedNumChannels.isEmpty }, AUProperty.global),
               get: { unit, _, _ in unit.supportedNumChannels }),
        .value(kAudioUnitProperty_MaximumFramesPerSlice, UInt32.self, of: AUBase.self, place: AUProperty.global, setPlace: AUProperty.anywhere,
               writable: .uninitializedOnly, exactSize: true, notify: .bySetter,
               get: { unit, _, _ in unit.maxFramesPerSlice },
               set: { unit, _, _, frames in
                   // A cap keeps a hostile value from reserving gigabytes at initialize.
                   guard frames > 0, frames <= 1 << 20 else { return kAudioUnitErr_InvalidPropertyValue }
                   if frames != unit.maxFramesPerSlice {
                       unit.maxFramesPerSlice = frames
                       unit.propertyChanged(kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0)
                   }
                   return noErr
               }),
        .value(kAudioUnitProperty_LastRenderError, OSStatus.self, of: AUBase.self, place: AUProperty.global,
               get: { unit, _, _ in unit.lastRenderError.exchange(0, ordering: .relaxed) }),
        .object(kAudioUnitProperty_FactoryPresets, of: AUBase.self, place: AUProperty.when({ $0.factoryPresets != nil }, AUProperty.global),
                get: { unit, _, _ in .success(unit.factoryPresetArray()) }),
        .value(kAudioUnitProperty_PresentPreset, AUPreset.self, of: AUBase.self, place: AUProperty.global, writable: .always, exactSize: true,
               get: { unit, _, _ in
                   AUPreset(presetNumber: unit.currentPreset.number, presetName: Unmanaged.passRetained(unit.currentPreset.name as NSString))
               },
               set: { unit, _, _, preset in
                   if preset.presetNumber >= 0 { return unit.applyFactoryPreset(preset.presetNumber) }
                   guard let name = preset.presetName else { return kAudioUnitErr_InvalidPropertyValue }
                   unit.currentPreset = (preset.presetNumber, name.takeUnretainedValue() as String)
                   return noErr
               }),
        .value(kAudioUnitProperty_RenderQuality, UInt32.self, of: AUBase.self, place: AUProperty.global, writable: .always, exactSize: true,
               get: { unit, _, _ in unit.renderQuality },
               set: { unit, _, _, quality in
                   unit.renderQuality = min(quality, UInt32(kRenderQuality_Max))
                   return noErr
               }),
        .value(kAudioUnitProperty_CPULoad, Float64.self, of: AUBase.self, place: AUProperty.global, writable: .always, exactSize: true,
               get: { unit, _, _ in unit.cpuLoad },
               set: { unit, _, _, load in
                   guard load.isFinite, load >= 0, load <= 1 else { return kAudioUnitErr_InvalidPropertyValue }
                   unit.cpuLoad = load
                   return noErr
               }),
        .value(kAudioUnitProperty_HostCallbacks, HostCallbackInfo.self, of: AUBase.self, place: AUProperty.global, writable: .always,
               get: { unit, _, _ in unit.hostCallbacks },
               set: { unit, _, _, info in
                   unit.hostCallbacks = info
                   return noErr
               }),
        .value(kAudioUnitProperty_LastRenderSampleTime, Float64.self, of: AUBase.self, place: AUProperty.global,
               get: { unit, _, _ in Double(bitPattern: unit.lastRenderSampleTime.load(ordering: .relaxed)) }),
        .object(kAudioUnitProperty_ElementName, of: AUBase.self, place: AUProperty.anyElement, writable: .always,
                get: { unit, scope, element in
                    guard case .success(let e) = unit.element(scope, element), let name = e.name else {
                        return .failure(OSStatusError(kAudioUnitErr_PropertyNotInUse))
                    }
                    return .success(name as NSString)
                },
                set: { unit, scope, element, object in
                    guard case .success(let e) = unit.element(scope, element) else { return kAudioUnitErr_InvalidElement }
                    guard let object else { e.name = nil; return noErr }
                    guard let name = object as? NSString else { return kAudioUnitErr_InvalidPropertyValue }
                    e.name = name as String
                    return noErr
                }),
        .flag(kAudioUnitProperty_ShouldAllocateBuffer, of: AUBase.self, place: AUProperty.inputOrOutputElement, writable: .uninitializedOnly,
              notify: .bySetter,
              get: { unit, scope, element in unit.ioElementOrOutput(scope, element).shouldAllocateBuffer },
              set: { unit, scope, element, on in
                  unit.ioElementOrOutput(scope, element).shouldAllocateBuffer = on
                  return noErr
              }),
    ]

    /// `kAudioUnitProperty_MeteringMode` on the mixers' input and output elements: turns on the
    /// read-only meter parameters the render thread fills. With `global`, global element 0 has it too
    /// (AUMatrixMixer: every channel metered); else the global scope answers kAudioUnitErr_InvalidScope.
    static func meteringModeRow(global: Bool = false) -> AUProperty {
        /// The element whose switch the row reads and writes (the place has checked it exists).
        @Sendable func element(_ unit: AUBase, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> AUElement {
            scope == kAudioUnitScope_Global ? unit.globalElement : unit.ioElementOrOutput(scope, element)
        }
        return AUProperty.flag(
            kAudioUnitProperty_MeteringMode, of: AUBase.self,
            place: { unit, scope, element in
                global && scope == kAudioUnitScope_Global ? (element == 0 ? noErr : kAudioUnitErr_InvalidElement)
                    : AUProperty.inputOrOutputElement(unit, scope, element)
            },
            get: { unit, scope, e in element(unit, scope, e).meteringMode.load(ordering: .relaxed) },
            set: { unit, scope, e, on in
                element(unit, scope, e).meteringMode.store(on, ordering: .relaxed)
                return noErr
            })
    }

    // MARK: The three calls, answered from the table

    func auGetPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                           _ outSize: inout UInt32, _ outWritable: inout Bool) -> OSStatus {
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        let status = propertyTable.info(AUPropertyRequest(unit: self, scope: scope, element: element), id, &size, &writable)
        if status == noErr {
            outSize = size
            outWritable = writable.boolValue
        }
        return status
    }

    /// The caller (AudioUnitGetProperty) has asked Info first: `ioSize` holds the property's size.
    func auGetProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                       _ out: UnsafeMutableRawPointer, _ ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        propertyTable.get(AUPropertyRequest(unit: self, scope: scope, element: element), id, ioSize, out)
    }

    func auSetProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                       _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
        // Removal (nil data) is supported by none of the built-in properties.
        guard let data else { return kAudioUnitErr_InvalidPropertyValue }
        return propertyTable.set(AUPropertyRequest(unit: self, scope: scope, element: element), id, size, data)
    }

    /// A unit class's table: its `propertyRows` (a later row with the same ID replacing an earlier one) in the shared
    /// model, with Apple's audio-unit statuses. Built once per class.
    static func propertyTable(for unitClass: AUBase.Type) -> ObjectPropertyTable<AUPropertyRequest> {
        let key = ObjectIdentifier(unitClass)
        if let table = propertyTables.withLock({ $0[key] }) { return table }
        var rows: [AUProperty] = []
        var index: [AudioUnitPropertyID: Int] = [:]
        for row in unitClass.propertyRows {
            if let i = index[row.id] { rows[i] = row } else { index[row.id] = rows.count; rows.append(row) }
        }
        // Read-only and unknown properties answer InvalidProperty on set, as Apple's do; a wrong size, InvalidPropertyValue.
        let table = ObjectPropertyTable(rows.map(\.objectProperty), statuses: .init(
            unsupported: kAudioUnitErr_InvalidProperty, badSize: kAudioUnitErr_InvalidPropertyValue,
            notWritable: { _ in kAudioUnitErr_InvalidProperty }))
        return propertyTables.withLock { tables in
            if let built = tables[key] { return built }
            tables[key] = table
            return table
        }
    }

    // MARK: What the base rows use

    func streamFormatWritable(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool {
        switch scope {
        case kAudioUnitScope_Input:
            guard Int(element) < inputs.count else { return false }
            if inputs[Int(element)].source.value.kind == .connection { return false }
            return isStreamFormatWritable(scope, element)
        case kAudioUnitScope_Output: return isStreamFormatWritable(scope, element)
        case kAudioUnitScope_Global: return isStreamFormatWritable(kAudioUnitScope_Output, 0)
        default: return false
        }
    }

    /// The element a row's place has already found (global scope: output 0).
    func ioElementOrOutput(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> AUIOElement {
        guard case .success(let e) = ioElement(scope, element) else { preconditionFailure("the property's place admits only I/O elements") }
        return e
    }

    func ioFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> AudioStreamBasicDescription {
        ioElementOrOutput(scope, element).format
    }

    /// Sets an element's stream format (SampleRate and StreamFormat), telling StreamFormat's listeners.
    func setStreamFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ newFormat: AudioStreamBasicDescription) -> OSStatus {
        var format = newFormat
        format.mReserved = 0
        let e = ioElementOrOutput(scope, element)
        let realScope = scope == kAudioUnitScope_Global ? kAudioUnitScope_Output : scope
        let realElement = scope == kAudioUnitScope_Global ? 0 : element
        guard isValidFormat(realScope, realElement, format) else { return kAudioUnitErr_FormatNotSupported }
        if format.isBitwiseEqual(to: e.format) { return noErr }
        guard streamFormatWritable(scope, element) else { return kAudioUnitErr_PropertyNotWritable }
        e.format = format
        streamFormatChanged(realScope, realElement)
        propertyChanged(kAudioUnitProperty_StreamFormat, scope, element)
        return noErr
    }

    func setRenderCallback(_ element: AudioUnitElement, _ cb: AURenderCallbackStruct) -> OSStatus {
        guard Int(element) < inputs.count else { return kAudioUnitErr_InvalidElement }
        let input = inputs[Int(element)]
        if let proc = cb.inputProc {
            input.publishSource(.init(kind: .callback, callback: proc, refCon: cb.inputProcRefCon))
        } else {
            input.publishSource(.init())
        }
        propertyChanged(kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, element)
        return noErr
    }

    /// A CFArray of AUPreset pointers; the array owns the presets' memory for its lifetime.
    func factoryPresetArray() -> NSMutableArray {
        let array = NSMutableArray()
        for p in factoryPresets ?? [] {
            array.add(AUPresetBox(AUPreset(presetNumber: p.number, presetName: Unmanaged.passRetained(p.name as NSString))))
        }
        return array
    }

    func parameterIDs(_ scope: AudioUnitScope) -> [AudioUnitParameterID] {
        switch scope {
        case kAudioUnitScope_Global: globalElement.parameters.ids
        case kAudioUnitScope_Input: inputs.max { $0.parameters.count < $1.parameters.count }?.parameters.ids ?? []
        case kAudioUnitScope_Output: outputs.max { $0.parameters.count < $1.parameters.count }?.parameters.ids ?? []
        default: []
        }
    }

    /// ParameterInfo's element argument is the parameter ID; any element of the scope that has it answers.
    func parameterInfo(_ scope: AudioUnitScope, _ id: AudioUnitParameterID) -> AudioUnitParameterInfo? {
        let tables: [ParameterTable]
        switch scope {
        case kAudioUnitScope_Global: tables = [globalElement.parameters]
        case kAudioUnitScope_Input: tables = inputs.map(\.parameters)
        case kAudioUnitScope_Output: tables = outputs.map(\.parameters)
        default: tables = []
        }
        for t in tables { if let i = t.index(of: id) { return t.infos[i] } }
        return nil
    }

    /// `kAudioUnitProperty_MakeConnection`: takes the source's output format, then connects (a nil
    /// source disconnects).
    func makeConnection(_ c: AudioUnitConnection) -> OSStatus {
        guard Int(c.destInputNumber) < inputs.count else { return kAudioUnitErr_InvalidElement }
        let input = inputs[Int(c.destInputNumber)]
        guard let source = c.sourceAudioUnit else {
            input.publishSource(.init())
            propertyChanged(kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, c.destInputNumber)
            return noErr
        }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = AudioUnitGetProperty(source, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output,
                                          c.sourceOutputNumber, &format, &size)
        guard status == noErr else { return status }
        if !format.isBitwiseEqual(to: input.format) {
            let setStatus = setProperty(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, c.destInputNumber,
                                        &format, size)
            guard setStatus == noErr else { return setStatus }
        }
        input.publishSource(.init(kind: .connection, sourceUnit: source, sourceBus: c.sourceOutputNumber))
        propertyChanged(kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, c.destInputNumber)
        return noErr
    }
}

/// An AUPreset stored in a FactoryPresets array; `CFArrayGetValueAtIndex` returns a pointer to it.
final class AUPresetBox: _CFRawPointerBox, @unchecked Sendable {
    let storage: UnsafeMutablePointer<AUPreset>

    init(_ preset: AUPreset) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: preset)
        super.init(UnsafeRawPointer(storage))
    }

    deinit {
        storage.pointee.presetName?.release()
        storage.deallocate()
    }
}
