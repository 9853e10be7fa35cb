import CoreAudio
import Foundation

/// An AUAudioUnit over a version 2 unit (the built-in ones), as Apple's AUAudioUnitV2Bridge: the parameter tree is
/// the unit's global-scope parameters (address = parameter ID; reading and writing go to AudioUnitGet/SetParameter),
/// the busses show its stream formats, and latency, tail time, bypass, presets and full state are its properties.
/// Made by `AUAudioUnit.instantiate` for a version 2 component (it owns that unit and can render it through
/// `renderBlock`), or over a unit someone else owns (AVAudioNode's `auAudioUnit`: there the unit renders in its
/// graph, and the bridge's own `renderBlock` answers kAudioUnitErr_InvalidProperty). `AUAudioUnit(componentDescription:)`
/// on the base class makes one too and forwards to it (on Apple that initializer returns the bridge itself).
/// Over an output unit it is also Apple's I/O unit: `outputProvider`, `inputHandler`, `startHardware()`, ...
open class AUAudioUnitV2Bridge: AUAudioUnit, @unchecked Sendable {
    /// The version 2 unit behind the bridge.
    package let audioUnit: AudioUnit
    private let ownsUnit: Bool
    private lazy var inputs = makeBusses(.input)
    private lazy var outputs = makeBusses(.output)
    /// Whether the busses have been made (a format change before then is read when they are).
    private var busesMade = false
    private var tree: AUParameterTree?
    /// The pull block of the render in progress (owned units only), reached from the unit's input callback.
    private var currentPull: AURenderPullInputBlock?
    private var storedOutputProvider: AURenderPullInputBlock?
    private var storedInputHandler: AUInputHandler?

    /// A bridge over a new instance of the version 2 unit `componentDescription` finds.
    public override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        var d = componentDescription
        var unit: AudioUnit?
        guard let component = AudioComponentFindNext(nil, &d) else { throw NSError(domain: NSOSStatusErrorDomain, code: -3000) }
        let status = AudioComponentInstanceNew(component, &unit)
        guard status == noErr, let unit else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status == noErr ? -3000 : status)) }
        audioUnit = unit
        ownsUnit = true
        try super.init(componentDescription: componentDescription, options: options)
        followStreamFormats()
    }

    /// A bridge over `unit`, which its owner keeps (and disposes of).
    package init(wrapping unit: AudioUnit) throws {
        var d = AudioComponentDescription()
        AudioComponentGetDescription(AudioComponentInstanceGetComponent(unit), &d)
        audioUnit = unit
        ownsUnit = false
        try super.init(componentDescription: d, options: [])
        followStreamFormats()
    }

    deinit {
        AudioUnitRemovePropertyListenerWithUserData(audioUnit, kAudioUnitProperty_StreamFormat, Self.streamFormatListener,
                                                    Unmanaged.passUnretained(self).toOpaque())
        if ownsUnit { AudioComponentInstanceDispose(audioUnit) }
    }

    /// The busses follow the version 2 unit's formats however they change there (an engine connecting the node, a
    /// host calling AudioUnitSetProperty), as Apple's bridge's do: a StreamFormat listener re-reads them.
    private func followStreamFormats() {
        AudioUnitAddPropertyListener(audioUnit, kAudioUnitProperty_StreamFormat, Self.streamFormatListener,
                                     Unmanaged.passUnretained(self).toOpaque())
    }

    private static let streamFormatListener: AudioUnitPropertyListenerProc = { refCon, _, _, scope, element in
        Unmanaged<AUAudioUnitV2Bridge>.fromOpaque(refCon).takeUnretainedValue().streamFormatChanged(scope, element)
    }

    /// One bus's format changed on the version 2 unit: that bus takes it (a bus not made yet reads it when it is).
    private func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        guard busesMade, scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { return }
        let busses = scope == kAudioUnitScope_Input ? inputs : outputs
        guard Int(element) < busses.count else { return }
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        if AudioUnitGetProperty(audioUnit, kAudioUnitProperty_StreamFormat, scope, element, &f, &size) == noErr {
            busses[Int(element)].followFormat(f)
        }
    }

    // MARK: Properties

    private func uint32(_ id: AudioUnitPropertyID) -> UInt32? {
        var value: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioUnitGetProperty(audioUnit, id, kAudioUnitScope_Global, 0, &value, &size) == noErr ? value : nil
    }

    private func flag(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool {
        var value: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioUnitGetProperty(audioUnit, id, scope, element, &value, &size) == noErr && value != 0
    }

    private func setUInt32(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ value: UInt32) -> OSStatus {
        var value = value
        return AudioUnitSetProperty(audioUnit, id, scope, element, &value, UInt32(MemoryLayout<UInt32>.size))
    }

    private func double(_ id: AudioUnitPropertyID) -> Double {
        var value: Double = 0
        var size = UInt32(MemoryLayout<Double>.size)
        return AudioUnitGetProperty(audioUnit, id, kAudioUnitScope_Global, 0, &value, &size) == noErr ? value : 0
    }

    private func elementCount(_ scope: AudioUnitScope) -> Int {
        var count: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioUnitGetProperty(audioUnit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr ? Int(count) : 0
    }

    private func makeBusses(_ type: AUAudioUnitBusType) -> AUAudioUnitBusArray {
        busesMade = true
        let scope = type == .input ? kAudioUnitScope_Input : kAudioUnitScope_Output
        var busses: [AUAudioUnitBus] = []
        for element in 0..<elementCount(scope) {
            var f = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            guard AudioUnitGetProperty(audioUnit, kAudioUnitProperty_StreamFormat, scope, UInt32(element), &f, &size) == noErr,
                  let bus = try? AUAudioUnitBus(streamDescription: f) else { continue }
            busses.append(bus)
        }
        return AUAudioUnitBusArray(audioUnit: self, busType: type, busses: busses)
    }

    /// The unit's inputs with their formats (as they were when first asked for).
    open override var inputBusses: AUAudioUnitBusArray { inputs }
    /// The unit's outputs with their formats (as they were when first asked for).
    open override var outputBusses: AUAudioUnitBusArray { outputs }

    /// A bus's new format goes to the version 2 unit first (StreamFormat on the bus's scope and element); its
    /// refusal is the bus's (a device-facing side of an I/O unit, a format the unit does not take).
    override func busWillChangeFormat(_ bus: AUAudioUnitBus, to format: AudioStreamBasicDescription) throws {
        var f = format
        let scope = bus.busType == .input ? kAudioUnitScope_Input : kAudioUnitScope_Output
        let status = AudioUnitSetProperty(audioUnit, kAudioUnitProperty_StreamFormat, scope, UInt32(bus.index), &f,
                                          UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        guard status == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    /// Re-reads the busses' formats from the version 2 unit (after something there changed them: a new device).
    private func refreshBusFormats() {
        for (busses, scope) in [(inputs, kAudioUnitScope_Input), (outputs, kAudioUnitScope_Output)] {
            for i in 0..<busses.count { streamFormatChanged(scope, AudioUnitElement(i)) }
        }
    }

    /// The unit's kAudioUnitProperty_MaximumFramesPerSlice (which the render block's frame check uses too).
    open override var maximumFramesToRender: AUAudioFrameCount {
        get {
            if let frames = uint32(kAudioUnitProperty_MaximumFramesPerSlice) { return frames }
            return super.maximumFramesToRender
        }
        set {
            guard !renderResourcesAllocated else { return }
            _ = setUInt32(kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, newValue)
            super.maximumFramesToRender = newValue
        }
    }

    /// kAudioUnitProperty_BypassEffect, for units that have it.
    open override var shouldBypassEffect: Bool {
        get {
            if let bypass = uint32(kAudioUnitProperty_BypassEffect) { return bypass != 0 }
            return super.shouldBypassEffect
        }
        set {
            super.shouldBypassEffect = newValue
            _ = setUInt32(kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, newValue ? 1 : 0)
        }
    }

    /// kAudioUnitProperty_SupportedNumChannels as pairs of input and output counts; nil when the unit has none.
    open override var channelCapabilities: [NSNumber]? {
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(audioUnit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil) == noErr,
              size > 0 else { return nil }
        var infos = [AUChannelInfo](repeating: AUChannelInfo(inChannels: 0, outChannels: 0), count: Int(size) / MemoryLayout<AUChannelInfo>.size)
        guard AudioUnitGetProperty(audioUnit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &infos, &size) == noErr else {
            return nil
        }
        return infos.flatMap { [NSNumber(value: $0.inChannels), NSNumber(value: $0.outChannels)] }
    }

    /// kAudioUnitProperty_PresentPreset; setting a factory preset (number >= 0) applies it.
    open override var currentPreset: AUAudioUnitPreset? {
        get {
            var preset = AUPreset(presetNumber: 0, presetName: nil)
            var size = UInt32(MemoryLayout<AUPreset>.size)
            guard AudioUnitGetProperty(audioUnit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, &size) == noErr else {
                return super.currentPreset
            }
            let made = AUAudioUnitPreset()
            made.number = Int(preset.presetNumber)
            made.name = preset.presetName.map { $0.takeRetainedValue() as String } ?? ""
            return made
        }
        set {
            super.currentPreset = newValue
            guard let newValue else { return }
            let name = newValue.name as NSString
            var preset = AUPreset(presetNumber: Int32(truncatingIfNeeded: newValue.number), presetName: Unmanaged.passUnretained(name))
            withExtendedLifetime(name) {
                _ = AudioUnitSetProperty(audioUnit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                                         UInt32(MemoryLayout<AUPreset>.size))
            }
        }
    }

    /// The unit's global parameters, read and written through the version 2 calls.
    open override var parameterTree: AUParameterTree? {
        get {
            if let tree { return tree }
            let made = makeTree()
            tree = made
            return made
        }
        set { tree = newValue }
    }

    private func makeTree() -> AUParameterTree {
        var size: UInt32 = 0
        AudioUnitGetPropertyInfo(audioUnit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil)
        var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / MemoryLayout<AudioUnitParameterID>.size)
        if !ids.isEmpty { AudioUnitGetProperty(audioUnit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) }
        let unit = audioUnit
        let parameters: [AUParameterNode] = ids.compactMap { id -> AUParameterNode? in
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            guard AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize) == noErr else { return nil }
            let cName = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var name = cName
            if let cf = info.cfNameString { name = String(describing: cf.takeUnretainedValue()) }
            // Indexed parameters name their values (kAudioUnitProperty_ParameterValueStrings, +1).
            var strings: Unmanaged<CFArray>?
            var stringsSize = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
            let valueStrings: [String]? = AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, id,
                                                               &strings, &stringsSize) == noErr
                ? strings.map { ($0.takeRetainedValue() as NSArray).compactMap { ($0 as? NSString).map { $0 as String } } } : nil
            let parameter = AUParameterTree.createParameter(withIdentifier: "\(id)", name: name, address: AUParameterAddress(id),
                                                            min: info.minValue, max: info.maxValue, unit: info.unit,
                                                            unitName: info.unitName.map { String(describing: $0.takeUnretainedValue()) },
                                                            flags: info.flags, valueStrings: valueStrings, dependentParameters: nil)
            return parameter
        }
        let made = AUParameterTree.createTree(withChildren: parameters)
        made.implementorValueObserver = { parameter, value in
            AudioUnitSetParameter(unit, AudioUnitParameterID(parameter.address), kAudioUnitScope_Global, 0, value, 0)
        }
        made.implementorValueProvider = { parameter in
            var value: AudioUnitParameterValue = 0
            AudioUnitGetParameter(unit, AudioUnitParameterID(parameter.address), kAudioUnitScope_Global, 0, &value)
            return value
        }
        return made
    }

    /// The unit's latency (kAudioUnitProperty_Latency).
    /// For a music device or music effect: MIDI messages (several may follow each other in the bytes; SysEx whole)
    /// played through MusicDeviceMIDIEvent / MusicDeviceSysEx at the start of the unit's next render. A sample time
    /// other than AUEventSampleTimeImmediate + offset is taken as immediate too (the bridge does not see the render's
    /// time). Safe on the render thread, as the MusicDevice calls are.
    open override var scheduleMIDIEventBlock: AUScheduleMIDIEventBlock? {
        guard isMusicDeviceOrEffect else { return nil }
        let unit = audioUnit
        return { time, _, length, bytes in
            let offset = time >= AUEventSampleTimeImmediate && time - AUEventSampleTimeImmediate < 0x0100_0000
                ? UInt32(time - AUEventSampleTimeImmediate) : 0
            var i = 0
            while i < length {
                let status = bytes[i]
                if status == 0xF0 {
                    var end = i + 1
                    while end < length && bytes[end] != 0xF7 { end += 1 }
                    guard end < length else { return }
                    MusicDeviceSysEx(unit, bytes + i, UInt32(end - i + 1))
                    i = end + 1
                    continue
                }
                guard status >= 0x80 else { i += 1; continue }  // no running status in a scheduled event
                let size = status < 0xC0 || (status >= 0xE0 && status < 0xF0) ? 3 : status < 0xE0 ? 2 : 1
                guard i + size <= length else { return }
                if status < 0xF0 {
                    MusicDeviceMIDIEvent(unit, UInt32(status), size > 1 ? UInt32(bytes[i + 1]) : 0, size > 2 ? UInt32(bytes[i + 2]) : 0, offset)
                }
                i += size
            }
        }
    }

    open override var latency: TimeInterval { double(kAudioUnitProperty_Latency) }
    /// The unit's tail time (kAudioUnitProperty_TailTime).
    open override var tailTime: TimeInterval { double(kAudioUnitProperty_TailTime) }

    /// The unit's factory presets (kAudioUnitProperty_FactoryPresets).
    open override var factoryPresets: [AUAudioUnitPreset]? {
        var presets: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        guard AudioUnitGetProperty(audioUnit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presets, &size) == noErr,
              let array = presets?.takeRetainedValue() as? [Any] else { return nil }
        return array.compactMap { item -> AUAudioUnitPreset? in
            guard let p = item as? AUPresetBox else { return nil }
            let preset = AUAudioUnitPreset()
            preset.number = Int(p.storage.pointee.presetNumber)
            preset.name = p.storage.pointee.presetName?.takeUnretainedValue() as String? ?? ""
            return preset
        }
    }

    /// The unit's state as its ClassInfo dictionary.
    open override var fullState: [String: Any]? {
        get {
            var info: Unmanaged<CFPropertyList>?
            var size = UInt32(MemoryLayout<Unmanaged<CFPropertyList>?>.size)
            guard AudioUnitGetProperty(audioUnit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &info, &size) == noErr else { return nil }
            return info?.takeRetainedValue() as? [String: Any]
        }
        set {
            guard let newValue else { return }
            var info: CFPropertyList? = newValue as NSDictionary
            AudioUnitSetProperty(audioUnit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &info, UInt32(MemoryLayout<CFPropertyList?>.size))
        }
    }

    // MARK: Rendering (owned units)

    /// Initializes the unit (the owner's graph does that for a wrapped one).
    open override func allocateRenderResources() throws {
        try super.allocateRenderResources()
        guard ownsUnit else { return }
        for bus in 0..<elementCount(kAudioUnitScope_Input) {
            var callback = AURenderCallbackStruct(inputProc: Self.pullProc, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
            AudioUnitSetProperty(audioUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(bus), &callback,
                                 UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        _ = renderBlock  // made here, not on the thread that first renders
        let status = AudioUnitInitialize(audioUnit)
        guard status == noErr else {
            super.deallocateRenderResources()
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
    }

    /// Uninitializes an owned unit.
    open override func deallocateRenderResources() {
        if ownsUnit { AudioUnitUninitialize(audioUnit) }
        super.deallocateRenderResources()
    }

    /// Clears the unit's render state (AudioUnitReset, global scope).
    open override func reset() {
        super.reset()
        _ = AudioUnitReset(audioUnit, kAudioUnitScope_Global, 0)
    }

    /// An input of the version 2 unit asks for audio: the pull block of the render in progress, else (an I/O unit
    /// playing on its own thread) the output provider.
    private static let pullProc: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
        let bridge = Unmanaged<AUAudioUnitV2Bridge>.fromOpaque(refCon).takeUnretainedValue()
        guard let pull = bridge.currentPull ?? bridge.storedOutputProvider, let ioData else { return kAudioUnitErr_NoConnection }
        return pull(flags, timeStamp, frames, Int(bus), ioData)
    }

    /// An I/O unit's input is ready: tell the input handler (it renders bus 1 through `renderBlock` to fetch it).
    private static let inputProc: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
        let bridge = Unmanaged<AUAudioUnitV2Bridge>.fromOpaque(refCon).takeUnretainedValue()
        bridge.storedInputHandler?(flags, timeStamp, frames, Int(bus))
        return noErr
    }

    /// Renders the version 2 unit, its inputs pulled through the host's block.
    open override var internalRenderBlock: AUInternalRenderBlock {
        let unit = audioUnit, owns = ownsUnit
        return { [unowned self] flags, timeStamp, frames, bus, output, _, pull in
            guard owns else { return kAudioUnitErr_InvalidProperty }
            currentPull = pull
            defer { currentPull = nil }
            return AudioUnitRender(unit, flags, timeStamp, UInt32(bus), frames, output)
        }
    }

    // MARK: Input and output (an owned version 2 output unit)

    private var isOutputUnit: Bool { componentDescription.componentType == kAudioUnitType_Output }

    private func check(_ status: OSStatus) throws {
        guard status == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    /// kAudioOutputUnitProperty_HasIO, input scope, element 1.
    open override var canPerformInput: Bool { flag(kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Input, 1) }
    /// kAudioOutputUnitProperty_HasIO, output scope, element 0.
    open override var canPerformOutput: Bool { flag(kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Output, 0) }

    /// kAudioOutputUnitProperty_EnableIO, input scope, element 1 (a refusal, e.g. while allocated, leaves it).
    open override var isInputEnabled: Bool {
        get { flag(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1) }
        set { _ = setUInt32(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, newValue ? 1 : 0) }
    }

    /// kAudioOutputUnitProperty_EnableIO, output scope, element 0 (a refusal, e.g. while allocated, leaves it).
    open override var isOutputEnabled: Bool {
        get { flag(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0) }
        set { _ = setUInt32(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, newValue ? 1 : 0) }
    }

    /// Feeds input element 0 through the render callback `allocateRenderResources` installs (read on the device's
    /// thread each cycle, so set it before starting the hardware).
    open override var outputProvider: AURenderPullInputBlock? {
        get { storedOutputProvider }
        set { storedOutputProvider = newValue }
    }

    /// Installed as kAudioOutputUnitProperty_SetInputCallback (owned units only: a unit someone else owns keeps its
    /// own callback).
    open override var inputHandler: AUInputHandler? {
        get { storedInputHandler }
        set {
            storedInputHandler = newValue
            guard ownsUnit, isOutputUnit else { return }
            var callback = AURenderCallbackStruct(inputProc: newValue == nil ? nil : Self.inputProc,
                                                  inputProcRefCon: newValue == nil ? nil : Unmanaged.passUnretained(self).toOpaque())
            AudioUnitSetProperty(audioUnit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                                 UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
    }

    /// kAudioOutputUnitProperty_IsRunning.
    open override var isRunning: Bool { flag(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) }

    /// AudioOutputUnitStart; a unit that is not an output unit throws kAudioUnitErr_InvalidProperty.
    open override func startHardware() throws {
        guard isOutputUnit else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidProperty)) }
        try check(AudioOutputUnitStart(audioUnit))
    }

    /// AudioOutputUnitStop.
    open override func stopHardware() {
        if isOutputUnit { AudioOutputUnitStop(audioUnit) }
    }

    /// kAudioOutputUnitProperty_CurrentDevice (kAudioObjectUnknown for a unit without one).
    open override var deviceID: AUAudioObjectID { uint32(kAudioOutputUnitProperty_CurrentDevice) ?? 0 }

    /// Sets kAudioOutputUnitProperty_CurrentDevice, then the busses take the new device's formats.
    open override func setDeviceID(_ deviceID: AUAudioObjectID) throws {
        var id = deviceID
        try check(AudioUnitSetProperty(audioUnit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &id,
                                       UInt32(MemoryLayout<AUAudioObjectID>.size)))
        refreshBusFormats()
    }

    /// The device's kAudioDevicePropertyLatency on its input side, in seconds.
    open override var deviceInputLatency: TimeInterval { deviceLatency(kAudioObjectPropertyScopeInput) }
    /// The device's kAudioDevicePropertyLatency on its output side, in seconds.
    open override var deviceOutputLatency: TimeInterval { deviceLatency(kAudioObjectPropertyScopeOutput) }

    private func deviceLatency(_ scope: AudioObjectPropertyScope) -> TimeInterval {
        let device = deviceID
        guard device != 0 else { return 0 }
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyLatency, mScope: scope, mElement: kAudioObjectPropertyElementMain)
        var frames: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        guard AudioObjectGetPropertyData(device, &address, 0, nil, &size, &frames) == noErr else { return 0 }
        address.mSelector = kAudioDevicePropertyNominalSampleRate
        address.mScope = kAudioObjectPropertyScopeGlobal
        var rate: Float64 = 0
        size = UInt32(MemoryLayout<Float64>.size)
        guard AudioObjectGetPropertyData(device, &address, 0, nil, &size, &rate) == noErr, rate > 0 else { return 0 }
        return Double(frames) / rate
    }
}

extension AUAudioUnit {
    /// Not Apple API: the AUAudioUnit behind a C API instance — the registered subclass itself when the instance is
    /// one, else a bridge over the version 2 unit (its owner keeps the unit). AVFAudio's `auAudioUnit` uses it.
    package static func unit(forInstance instance: AudioUnit) -> AUAudioUnit? {
        if let adapter = AudioUnitObject.live(instance) as? AUAudioUnitV2Adapter { return adapter.unit }
        return try? AUAudioUnitV2Bridge(wrapping: instance)
    }
}
