/// The property table of Apple's audio unit base class: scope rules, sizes, writability, the
/// "not while initialized" rules and listener notifications (see AudioUnitSDK's AUBase).
extension AUBase {
    static let objectSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)

    func auGetPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                                  _ outSize: inout UInt32, _ outWritable: inout Bool) -> OSStatus {
        if let (status, size, writable) = extraPropertyInfo(id, scope, element) {
            outSize = size; outWritable = writable
            return status
        }
        func globalOnly(_ size: UInt32, _ writable: Bool) -> OSStatus {
            guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            guard element == 0 else { return kAudioUnitErr_InvalidElement }
            outSize = size; outWritable = writable
            return noErr
        }
        switch id {
        case kAudioUnitProperty_ClassInfo:
            return globalOnly(Self.objectSize, true)
        case kAudioUnitProperty_MakeConnection, kAudioUnitProperty_SetRenderCallback:
            guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            if case .failure(let e) = self.element(scope, element) { return e.status }
            outSize = UInt32(id == kAudioUnitProperty_MakeConnection ? MemoryLayout<AudioUnitConnection>.size
                                                                    : MemoryLayout<AURenderCallbackStruct>.size)
            outWritable = true
            return noErr
        case kAudioUnitProperty_SampleRate, kAudioUnitProperty_StreamFormat:
            switch ioElement(scope, element) {
            case .failure(let e): return e.status
            case .success: break
            }
            outSize = UInt32(id == kAudioUnitProperty_SampleRate ? MemoryLayout<Float64>.size
                                                                : MemoryLayout<AudioStreamBasicDescription>.size)
            outWritable = streamFormatWritable(scope, element)
            return noErr
        case kAudioUnitProperty_ParameterList:
            guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
            outSize = UInt32(maxParameterCount(scope) * MemoryLayout<AudioUnitParameterID>.size)
            outWritable = false
            return noErr
        case kAudioUnitProperty_ParameterInfo:
            guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
            guard parameterInfo(scope, element) != nil else { return kAudioUnitErr_InvalidParameter }
            outSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            outWritable = false
            return noErr
        case kAudioUnitProperty_ElementCount:
            guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
            outSize = 4
            outWritable = isElementCountWritable(scope)
            return noErr
        case kAudioUnitProperty_Latency:
            return globalOnly(8, false)
        case kAudioUnitProperty_TailTime:
            guard tailTime != nil else { return kAudioUnitErr_InvalidProperty }
            return globalOnly(8, false)
        case kAudioUnitProperty_SupportedNumChannels:
            guard !supportedNumChannels.isEmpty else { return kAudioUnitErr_InvalidProperty }
            return globalOnly(UInt32(supportedNumChannels.count * MemoryLayout<AUChannelInfo>.size), false)
        case kAudioUnitProperty_MaximumFramesPerSlice:
            return globalOnly(4, true)
        case kAudioUnitProperty_LastRenderError:
            return globalOnly(4, false)
        case kAudioUnitProperty_FactoryPresets:
            guard factoryPresets != nil else { return kAudioUnitErr_InvalidProperty }
            return globalOnly(Self.objectSize, false)
        case kAudioUnitProperty_PresentPreset:
            return globalOnly(UInt32(MemoryLayout<AUPreset>.size), true)
        case kAudioUnitProperty_RenderQuality:
            return globalOnly(4, true)
        case kAudioUnitProperty_CPULoad:
            return globalOnly(8, true)
        case kAudioUnitProperty_LastRenderSampleTime:
            return globalOnly(8, false)
        case kAudioUnitProperty_ElementName:
            if case .failure(let e) = self.element(scope, element) { return e.status }
            outSize = Self.objectSize; outWritable = true
            return noErr
        case kAudioUnitProperty_ShouldAllocateBuffer:
            guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { return kAudioUnitErr_InvalidScope }
            if case .failure(let e) = self.element(scope, element) { return e.status }
            outSize = 4; outWritable = true
            return noErr
        default:
            return kAudioUnitErr_InvalidProperty
        }
    }

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

    func maxParameterCount(_ scope: AudioUnitScope) -> Int {
        switch scope {
        case kAudioUnitScope_Global: globalElement.parameters.count
        case kAudioUnitScope_Input: inputs.map(\.parameters.count).max() ?? 0
        case kAudioUnitScope_Output: outputs.map(\.parameters.count).max() ?? 0
        default: 0
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

    func parameterIDs(_ scope: AudioUnitScope) -> [AudioUnitParameterID] {
        switch scope {
        case kAudioUnitScope_Global: globalElement.parameters.ids
        case kAudioUnitScope_Input: inputs.max { $0.parameters.count < $1.parameters.count }?.parameters.ids ?? []
        case kAudioUnitScope_Output: outputs.max { $0.parameters.count < $1.parameters.count }?.parameters.ids ?? []
        default: []
        }
    }

    func auGetProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ out: UnsafeMutableRawPointer, _ ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        if let status = extraGetProperty(id, scope, element, out) { return status }
        func put<T>(_ value: T) -> OSStatus {
            out.storeBytes(of: value, as: T.self)
            return noErr
        }
        func putObject(_ object: AnyObject) -> OSStatus {
            put(UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque()))
        }
        switch id {
        case kAudioUnitProperty_ClassInfo:
            return putObject(saveState())
        case kAudioUnitProperty_SampleRate:
            guard case .success(let e) = ioElement(scope, element) else { return kAudioUnitErr_InvalidElement }
            return put(e.format.mSampleRate)
        case kAudioUnitProperty_StreamFormat:
            guard case .success(let e) = ioElement(scope, element) else { return kAudioUnitErr_InvalidElement }
            return put(e.format)
        case kAudioUnitProperty_ParameterList:
            let ids = parameterIDs(scope)
            out.copyMemory(from: ids, byteCount: ids.count * MemoryLayout<AudioUnitParameterID>.size)
            return noErr
        case kAudioUnitProperty_ParameterInfo:
            guard var info = parameterInfo(scope, element) else { return kAudioUnitErr_InvalidParameter }
            // Hand out +1 names, as Apple's units do (with CFNameRelease set).
            if let name = info.cfNameString {
                info.cfNameString = Unmanaged.passRetained(name.takeUnretainedValue())
                info.flags.insert(.flag_CFNameRelease)
            }
            return put(info)
        case kAudioUnitProperty_ElementCount:
            return put(UInt32(elementCount(scope)))
        case kAudioUnitProperty_Latency:
            return put(latency)
        case kAudioUnitProperty_TailTime:
            return put(tailTime ?? 0)
        case kAudioUnitProperty_SupportedNumChannels:
            let configs = supportedNumChannels
            out.copyMemory(from: configs, byteCount: configs.count * MemoryLayout<AUChannelInfo>.size)
            return noErr
        case kAudioUnitProperty_MaximumFramesPerSlice:
            return put(maxFramesPerSlice)
        case kAudioUnitProperty_LastRenderError:
            return put(lastRenderError.exchange(0, ordering: .relaxed))
        case kAudioUnitProperty_FactoryPresets:
            let presets = factoryPresets ?? []
            // A CFArray of AUPreset pointers; the array owns the presets' memory for its lifetime.
            let array = NSMutableArray()
            for p in presets {
                let box = AUPresetBox(AUPreset(presetNumber: p.number, presetName: Unmanaged.passRetained(p.name as NSString)))
                array.add(box)
            }
            return putObject(array)
        case kAudioUnitProperty_PresentPreset:
            return put(AUPreset(presetNumber: currentPreset.number,
                                presetName: Unmanaged.passRetained(currentPreset.name as NSString)))
        case kAudioUnitProperty_RenderQuality:
            return put(renderQuality)
        case kAudioUnitProperty_CPULoad:
            return put(cpuLoad)
        case kAudioUnitProperty_LastRenderSampleTime:
            return put(Double(bitPattern: lastRenderSampleTime.load(ordering: .relaxed)))
        case kAudioUnitProperty_ElementName:
            guard case .success(let e) = self.element(scope, element) else { return kAudioUnitErr_InvalidElement }
            guard let name = e.name else { return kAudioUnitErr_PropertyNotInUse }
            return putObject(name as NSString)
        case kAudioUnitProperty_ShouldAllocateBuffer:
            guard case .success(let e) = ioElement(scope, element) else { return kAudioUnitErr_InvalidElement }
            return put(UInt32(e.shouldAllocateBuffer ? 1 : 0))
        default:
            return kAudioUnitErr_InvalidProperty
        }
    }

    func auSetProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
        // Removal (nil data) is supported by none of the base properties.
        guard let data else { return kAudioUnitErr_InvalidPropertyValue }
        if let status = extraSetProperty(id, scope, element, data, size) {
            if status == noErr { propertyChanged(id, scope, element) }
            return status
        }
        switch id {
        case kAudioUnitProperty_ClassInfo:
            guard size == Self.objectSize else { return kAudioUnitErr_InvalidPropertyValue }
            guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            guard let raw = data.load(as: UnsafeRawPointer?.self) else { return kAudioUnitErr_InvalidPropertyValue }
            return restoreState(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue())

        case kAudioUnitProperty_MakeConnection:
            guard size >= UInt32(MemoryLayout<AudioUnitConnection>.size) else { return kAudioUnitErr_InvalidPropertyValue }
            let connection = data.loadUnaligned(as: AudioUnitConnection.self)
            return makeConnection(connection)

        case kAudioUnitProperty_SetRenderCallback:
            guard size >= UInt32(MemoryLayout<AURenderCallbackStruct>.size) else { return kAudioUnitErr_InvalidPropertyValue }
            guard Int(element) < inputs.count else { return kAudioUnitErr_InvalidElement }
            let cb = data.loadUnaligned(as: AURenderCallbackStruct.self)
            let input = inputs[Int(element)]
            if let proc = cb.inputProc {
                input.source.publish(.init(kind: .callback, callback: proc, refCon: cb.inputProcRefCon))
            } else {
                input.source.publish(.init())
            }
            propertyChanged(id, kAudioUnitScope_Input, element)
            return noErr

        case kAudioUnitProperty_StreamFormat, kAudioUnitProperty_SampleRate:
            let e: AUIOElement
            switch ioElement(scope, element) {
            case .failure(let err): return err.status
            case .success(let found): e = found
            }
            var format = e.format
            if id == kAudioUnitProperty_SampleRate {
                guard size == 8 else { return kAudioUnitErr_InvalidPropertyValue }
                format.mSampleRate = data.loadUnaligned(as: Float64.self)
                guard format.mSampleRate.isFinite, format.mSampleRate >= 0 else { return kAudioUnitErr_InvalidPropertyValue }
            } else {
                guard size >= 36 else { return kAudioUnitErr_InvalidPropertyValue }
                withUnsafeMutableBytes(of: &format) { $0.copyMemory(from: UnsafeRawBufferPointer(start: data, count: 36)) }
                format.mReserved = 0
                guard AUFormatRules.passesMinimalSafetyCheck(format) else { return kAudioUnitErr_FormatNotSupported }
            }
            let realScope = scope == kAudioUnitScope_Global ? kAudioUnitScope_Output : scope
            let realElement = scope == kAudioUnitScope_Global ? 0 : element
            guard isValidFormat(realScope, realElement, format) else { return kAudioUnitErr_FormatNotSupported }
            if Self.same(format, e.format) { return noErr }
            guard streamFormatWritable(scope, element) else { return kAudioUnitErr_PropertyNotWritable }
            e.format = format
            streamFormatChanged(realScope, realElement)
            propertyChanged(kAudioUnitProperty_StreamFormat, scope, element)
            return noErr

        case kAudioUnitProperty_ElementCount:
            guard size == 4 else { return kAudioUnitErr_InvalidPropertyValue }
            guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
            guard isElementCountWritable(scope) else { return kAudioUnitErr_PropertyNotWritable }
            guard !isInitialized else { return kAudioUnitErr_Initialized }
            let count = data.loadUnaligned(as: UInt32.self)
            guard count <= 4096 else { return kAudioUnitErr_InvalidPropertyValue }
            setElementCount(scope, Int(count))
            propertyChanged(id, scope, element)
            return noErr

        case kAudioUnitProperty_MaximumFramesPerSlice:
            guard size == 4 else { return kAudioUnitErr_InvalidPropertyValue }
            guard !isInitialized else { return kAudioUnitErr_Initialized }
            let frames = data.loadUnaligned(as: UInt32.self)
            // A cap keeps a hostile value from reserving gigabytes at initialize.
            guard frames > 0, frames <= 1 << 20 else { return kAudioUnitErr_InvalidPropertyValue }
            if frames != maxFramesPerSlice {
                maxFramesPerSlice = frames
                propertyChanged(id, kAudioUnitScope_Global, 0)
            }
            return noErr

        case kAudioUnitProperty_PresentPreset:
            guard size == UInt32(MemoryLayout<AUPreset>.size) else { return kAudioUnitErr_InvalidPropertyValue }
            guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            let preset = data.loadUnaligned(as: AUPreset.self)
            let status: OSStatus
            if preset.presetNumber >= 0 {
                status = applyFactoryPreset(preset.presetNumber)
            } else if let name = preset.presetName {
                currentPreset = (preset.presetNumber, name.takeUnretainedValue() as String)
                status = noErr
            } else {
                status = kAudioUnitErr_InvalidPropertyValue
            }
            if status == noErr { propertyChanged(id, kAudioUnitScope_Global, element) }
            return status

        case kAudioUnitProperty_RenderQuality:
            guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            guard size == 4 else { return kAudioUnitErr_InvalidPropertyValue }
            renderQuality = min(data.loadUnaligned(as: UInt32.self), UInt32(kRenderQuality_Max))
            propertyChanged(id, scope, element)
            return noErr

        case kAudioUnitProperty_CPULoad:
            guard scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
            guard size == 8 else { return kAudioUnitErr_InvalidPropertyValue }
            let load = data.loadUnaligned(as: Float64.self)
            guard load.isFinite, load >= 0, load <= 1 else { return kAudioUnitErr_InvalidPropertyValue }
            cpuLoad = load
            propertyChanged(id, scope, element)
            return noErr

        case kAudioUnitProperty_ElementName:
            let e: AUElement
            switch self.element(scope, element) {
            case .failure(let err): return err.status
            case .success(let found): e = found
            }
            guard size == Self.objectSize else { return kAudioUnitErr_InvalidPropertyValue }
            if let raw = data.load(as: UnsafeRawPointer?.self) {
                let object = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()
                guard let name = object as? NSString else { return kAudioUnitErr_InvalidPropertyValue }
                e.name = name as String
            } else {
                e.name = nil
            }
            propertyChanged(id, scope, element)
            return noErr

        case kAudioUnitProperty_ShouldAllocateBuffer:
            guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { return kAudioUnitErr_InvalidScope }
            guard case .success(let e) = ioElement(scope, element) else { return kAudioUnitErr_InvalidElement }
            guard size == 4 else { return kAudioUnitErr_InvalidPropertyValue }
            guard !isInitialized else { return kAudioUnitErr_Initialized }
            e.shouldAllocateBuffer = data.loadUnaligned(as: UInt32.self) != 0
            return noErr

        default:
            // Read-only properties the base knows answer InvalidProperty on set, as Apple's do.
            return kAudioUnitErr_InvalidProperty
        }
    }


    static func same(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
        withUnsafeBytes(of: a) { ra in withUnsafeBytes(of: b) { rb in ra.elementsEqual(rb) } }
    }

    /// `kAudioUnitProperty_MakeConnection`: takes the source's output format, then connects (a nil
    /// source disconnects).
    func makeConnection(_ c: AudioUnitConnection) -> OSStatus {
        guard Int(c.destInputNumber) < inputs.count else { return kAudioUnitErr_InvalidElement }
        let input = inputs[Int(c.destInputNumber)]
        guard let source = c.sourceAudioUnit else {
            input.source.publish(.init())
            propertyChanged(kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, c.destInputNumber)
            return noErr
        }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = AudioUnitGetProperty(source, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output,
                                          c.sourceOutputNumber, &format, &size)
        guard status == noErr else { return status }
        if !Self.same(format, input.format) {
            let setStatus = setProperty(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, c.destInputNumber,
                                        &format, size)
            guard setStatus == noErr else { return setStatus }
        }
        input.source.publish(.init(kind: .connection, sourceUnit: source, sourceBus: c.sourceOutputNumber))
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
