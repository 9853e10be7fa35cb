import Synchronization

/// An audio unit (version 3): subclass it, override `inputBusses`, `outputBusses` and `internalRenderBlock`, set
/// `parameterTree`, and register the subclass with `registerSubclass(_:as:name:version:)`. It is then found and
/// made like any other unit: through `instantiate(with:options:completionHandler:)`, through the C API
/// (AudioComponentFindNext, AudioComponentInstanceNew, AudioUnitRender, AUGraph, ...), and through AVFAudio's
/// AVAudioUnit. Everything runs in process; a unit made through the C API answers its properties and parameters
/// from the subclass (see the bridging notes on each member).
open class AUAudioUnit: NSObject, @unchecked Sendable {
    /// The description the unit was made with.
    public let componentDescription: AudioComponentDescription
    let componentEntry: AudioComponentEntry
    /// The C API's instance of this unit, when it was made through AudioComponentInstanceNew.
    weak var v2Adapter: AUAudioUnitV2Adapter?
    /// The version 2 unit the base class stands for. On Apple, `AUAudioUnit(componentDescription:)` on the base class
    /// returns an AUAudioUnitV2Bridge for a version 2 component (the dynamic type would be AUAudioUnitV2Bridge); Swift
    /// cannot replace `self`, so the base makes a bridge and forwards every member a client uses to it. Set once, in
    /// `init`, and only on instances of the base class itself (subclasses, the bridge included, never have one).
    private var v2Bridge: AUAudioUnitV2Bridge?

    private lazy var emptyInputBusses = AUAudioUnitBusArray(audioUnit: self, busType: .input)
    private lazy var emptyOutputBusses = AUAudioUnitBusArray(audioUnit: self, busType: .output)

    private let allocated = Atomic<Bool>(false)
    private var storedMaximumFrames: AUAudioFrameCount = 512
    private var storedParameterTree: AUParameterTree?
    private var storedPreset: AUAudioUnitPreset?
    private var storedBypass = false
    private var storedOutputProvider: AURenderPullInputBlock?
    private var storedInputHandler: AUInputHandler?

    // Render state, set by allocateRenderResources and read by the render block.
    private var renderInternal: AUInternalRenderBlock?
    private var renderMaximumFrames: AUAudioFrameCount = 0
    /// Per output bus: memory lent to a caller that passes null buffers, with its bytes per buffer.
    private var outputMemory: [(memory: UnsafeMutableRawPointer?, bytesPerBuffer: Int)] = []
    let renderObservers = ObserverList<AURenderObserver>()
    let eventQueue = RenderEventQueue()

    /// Makes the unit. Subclasses override this initializer (calling super first), make their busses and
    /// parameter tree, and may throw to refuse the description.
    public init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        self.componentDescription = componentDescription
        componentEntry = AUAudioUnit.entry(for: componentDescription)
        super.init()
        if type(of: self) == AUAudioUnit.self && AUAudioUnit.isVersion2(componentEntry) {
            v2Bridge = try AUAudioUnitV2Bridge(componentDescription: componentDescription, options: options)
        }
    }

    /// Makes the unit with no options. (Required: the registry makes registered subclasses through it; a
    /// subclass inherits it by overriding `init(componentDescription:options:)`.)
    public required convenience init(componentDescription: AudioComponentDescription) throws {
        try self.init(componentDescription: componentDescription, options: [])
    }

    // MARK: Identity

    /// The component the unit was made from.
    public var component: AudioComponent { componentEntry.handle }
    /// The component's name, "Manufacturer: Unit" by convention.
    public var componentName: String? { componentEntry.name }
    /// The unit's name (the component name after the manufacturer's).
    public var audioUnitName: String? { nameParts.unit }
    /// The manufacturer's name (the component name before ": ").
    public var manufacturerName: String? { nameParts.manufacturer }
    /// A short name for tight places (here, `audioUnitName`).
    open var audioUnitShortName: String? { v2Bridge?.audioUnitShortName ?? audioUnitName }
    /// The component's version.
    public var componentVersion: UInt32 { componentEntry.version }

    private var nameParts: (manufacturer: String?, unit: String?) {
        let name = componentEntry.name
        guard let range = name.range(of: ": ") else { return (nil, name) }
        return (String(name[..<range.lowerBound]), String(name[range.upperBound...]))
    }

    // MARK: Render resources

    /// Prepares to render (bridged to AudioUnitInitialize): checks the busses, allocates output memory for
    /// busses that allocate their own, fetches `internalRenderBlock`. Subclasses call super first.
    open func allocateRenderResources() throws {
        if let v2Bridge { return try v2Bridge.allocateRenderResources() }
        let maxFrames = maximumFramesToRender
        guard maxFrames > 0 else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidPropertyValue)) }
        releaseOutputMemory()
        var memory: [(memory: UnsafeMutableRawPointer?, bytesPerBuffer: Int)] = []
        let busses = outputBusses
        for i in 0..<busses.count {
            let bus = busses[i]
            let f = bus.streamDescription
            let buffers = f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 ? Int(f.mChannelsPerFrame) : 1
            let bytes = Int(maxFrames) * Int(f.mBytesPerFrame)
            if bus.shouldAllocateBuffer && bytes > 0 {
                let p = UnsafeMutableRawPointer.allocate(byteCount: bytes * buffers, alignment: 16)
                p.initializeMemory(as: UInt8.self, repeating: 0, count: bytes * buffers)
                memory.append((p, bytes))
            } else {
                memory.append((nil, bytes))
            }
        }
        outputMemory = memory
        renderMaximumFrames = maxFrames
        renderInternal = internalRenderBlock
        eventQueue.clear()
        setRenderResourcesAllocated(true)
    }

    /// Ends rendering (bridged to AudioUnitUninitialize). Subclasses call super.
    open func deallocateRenderResources() {
        if let v2Bridge { return v2Bridge.deallocateRenderResources() }
        setRenderResourcesAllocated(false)
        renderInternal = nil
        releaseOutputMemory()
    }

    private func releaseOutputMemory() {
        for m in outputMemory { m.memory?.deallocate() }
        outputMemory = []
    }

    deinit {
        releaseOutputMemory()
    }

    /// Whether render resources are allocated.
    public var renderResourcesAllocated: Bool { v2Bridge?.renderResourcesAllocated ?? allocated.load(ordering: .acquiring) }

    /// For subclasses whose `allocateRenderResources` fails after calling super: marks the resources released.
    public func setRenderResourcesAllocated(_ flag: Bool) {
        allocated.store(flag, ordering: .releasing)
    }

    /// Clears the unit's render state at a discontinuity (bridged to AudioUnitReset). Subclasses call super.
    open func reset() { v2Bridge?.reset() }

    // MARK: Busses

    /// The input busses. Subclasses override it, answering the same object every time (the base has none).
    open var inputBusses: AUAudioUnitBusArray { v2Bridge?.inputBusses ?? emptyInputBusses }
    /// The output busses. Subclasses override it, answering the same object every time (the base has none).
    open var outputBusses: AUAudioUnitBusArray { v2Bridge?.outputBusses ?? emptyOutputBusses }

    /// A bus is about to take `format`: a unit over a version 2 unit sets it there first and throws its refusal.
    func busWillChangeFormat(_ bus: AUAudioUnitBus, to format: AudioStreamBasicDescription) throws {}

    /// A bus changed format: the C API's instance follows (and tells its StreamFormat listeners).
    func busFormatChanged(_ bus: AUAudioUnitBus) {
        v2Adapter?.busFormatChanged(bus)
    }

    /// A bus array changed its busses.
    func busCountChanged(_ busses: AUAudioUnitBusArray) {
        v2Adapter?.busCountChanged(busses)
    }

    // MARK: Rendering

    /// What subclasses render with (they override the getter; the block is fetched once, at
    /// `allocateRenderResources`). The base's answers kAudio_UnimplementedError.
    open var internalRenderBlock: AUInternalRenderBlock {
        if let v2Bridge { return v2Bridge.internalRenderBlock }
        return { _, _, _, _, _, _, _ in kAudio_UnimplementedError }
    }

    /// The block hosts render with (bridged to AudioUnitRender): checks the frame count, lends the bus's own
    /// memory when the output buffers are null, hands the cycle's scheduled events to `internalRenderBlock`
    /// and calls the render observers around it. Fetch it once; calling it neither locks nor allocates.
    open var renderBlock: AURenderBlock { v2Bridge?.renderBlock ?? cachedRenderBlock }

    private lazy var cachedRenderBlock: AURenderBlock = { [unowned self] flags, timestamp, frames, bus, output, pull in
        self.render(flags, timestamp, frames, bus, output, pull)
    }

    /// One render cycle (the render block's body; the C API's instance calls it directly).
    @inline(__always)
    func render(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timestamp: UnsafePointer<AudioTimeStamp>,
                _ frames: AUAudioFrameCount, _ bus: Int, _ output: UnsafeMutablePointer<AudioBufferList>,
                _ pull: AURenderPullInputBlock?) -> AUAudioUnitStatus {
        guard allocated.load(ordering: .acquiring), let renderer = renderInternal else { return kAudioUnitErr_Uninitialized }
        guard frames <= renderMaximumFrames else { return kAudioUnitErr_TooManyFramesToProcess }
        guard bus >= 0, bus < outputMemory.count else { return kAudioUnitErr_InvalidElement }
        let abl = UnsafeMutableAudioBufferListPointer(output)
        let own = outputMemory[bus]
        for i in 0..<abl.count where abl[i].mData == nil {
            guard let memory = own.memory else { return kAudioUnitErr_InvalidPropertyValue }
            abl[i].mData = memory + i * own.bytesPerBuffer
            abl[i].mDataByteSize = UInt32(Int(frames) * own.bytesPerBuffer / Int(renderMaximumFrames))
        }
        let start = timestamp.pointee.mFlags.contains(.sampleTimeValid) ? AUEventSampleTime(timestamp.pointee.mSampleTime) : 0
        let events = eventQueue.take(start: start, frames: frames)
        let pre = flags.pointee.union(.unitRenderAction_PreRender)
        renderObservers.forEach { _, observer in observer(pre, timestamp, frames, bus) }
        let status = renderer(flags, timestamp, frames, bus, output, events, pull)
        var post = flags.pointee.union(.unitRenderAction_PostRender)
        if status != noErr { post.insert(.unitRenderAction_PostRenderError) }
        renderObservers.forEach { _, observer in observer(post, timestamp, frames, bus) }
        return status
    }

    /// Adds a block called before and after every render (bridged to AudioUnitAddRenderNotify); returns its token.
    public func token(byAddingRenderObserver observer: @escaping AURenderObserver) -> Int {
        if let v2Bridge { return v2Bridge.token(byAddingRenderObserver: observer) }
        return Int(bitPattern: renderObservers.add(observer))
    }

    /// Removes a render observer.
    public func removeRenderObserver(_ token: Int) {
        if let v2Bridge { return v2Bridge.removeRenderObserver(token) }
        if let p = UnsafeMutableRawPointer(bitPattern: token) { renderObservers.remove(p) }
    }

    /// Schedules parameter changes for the internal render block's event list (bridged to
    /// AudioUnitScheduleParameters). No lock, no allocation; one calling thread at a time.
    public var scheduleParameterBlock: AUScheduleParameterBlock { v2Bridge?.scheduleParameterBlock ?? cachedScheduleBlock }

    private lazy var cachedScheduleBlock: AUScheduleParameterBlock = { [unowned self] time, ramp, address, value in
        self.eventQueue.push(AUParameterEvent(next: nil, eventSampleTime: time, eventType: ramp > 0 ? .parameterRamp : .parameter,
                                              reserved: (0, 0, 0), rampDurationSampleFrames: ramp, parameterAddress: address, value: value))
    }

    /// The most frames one render may ask for (bridged to kAudioUnitProperty_MaximumFramesPerSlice). Set it before
    /// allocating render resources; changes while they are allocated are ignored.
    open var maximumFramesToRender: AUAudioFrameCount {
        get { v2Bridge?.maximumFramesToRender ?? storedMaximumFrames }
        set {
            if let v2Bridge { v2Bridge.maximumFramesToRender = newValue; return }
            if !renderResourcesAllocated { storedMaximumFrames = newValue }
        }
    }

    // MARK: Parameters

    /// The unit's parameters (bridged to kAudioUnitProperty_ParameterList and ParameterInfo, global scope, the
    /// address as the parameter ID). Subclasses set it, or override the getter.
    open var parameterTree: AUParameterTree? {
        get { v2Bridge?.parameterTree ?? storedParameterTree }
        set {
            if let v2Bridge { v2Bridge.parameterTree = newValue; return }
            storedParameterTree = newValue
            v2Adapter?.parameterTreeChanged()
        }
    }

    /// The addresses of the `count` most important parameters (the base answers none).
    open func parametersForOverview(withCount count: Int) -> [NSNumber] { v2Bridge?.parametersForOverview(withCount: count) ?? [] }

    /// A pseudo-property for key-value observing in Apple's framework; always false.
    public var allParameterValues: Bool { false }

    /// Whether the unit takes MIDI (a music device or music effect).
    open var isMusicDeviceOrEffect: Bool {
        componentDescription.componentType == kAudioUnitType_MusicDevice || componentDescription.componentType == kAudioUnitType_MusicEffect
    }

    /// The number of virtual MIDI cables the unit takes.
    open var virtualMIDICableCount: Int { 0 }

    /// The block the unit calls from its render with the MIDI it makes (set by the host, e.g. AVAudioEngine's
    /// connectMIDI; called on the render thread, so it must be real-time safe).
    open var midiOutputEventBlock: AUMIDIOutputEventBlock?

    /// The names of the unit's MIDI outputs (none unless a subclass makes MIDI).
    open var midiOutputNames: [String] { [] }

    /// Schedules MIDI events. Nil here: a subclass's MIDI is not delivered yet; the bridge over a version 2 music
    /// device answers a block that plays them through the MusicDevice API.
    open var scheduleMIDIEventBlock: AUScheduleMIDIEventBlock? { v2Bridge?.scheduleMIDIEventBlock }

    /// Whether the unit has a user interface (never, here).
    public var providesUserInterface: Bool { false }

    // MARK: State and presets

    /// The unit's state for a user preset (bridged to kAudioUnitProperty_ClassInfo): the component's type, subtype,
    /// manufacturer and version, the preset's name, and every parameter's address and value (depth-first order)
    /// in "data". Setting it restores the parameters it names, telling observers.
    open var fullState: [String: Any]? {
        get {
            if let v2Bridge { return v2Bridge.fullState }
            let d = componentDescription
            var state: [String: Any] = [
                kAUPresetVersionKey: NSNumber(value: 0),
                kAUPresetTypeKey: NSNumber(value: Int32(bitPattern: d.componentType)),
                kAUPresetSubtypeKey: NSNumber(value: Int32(bitPattern: d.componentSubType)),
                kAUPresetManufacturerKey: NSNumber(value: Int32(bitPattern: d.componentManufacturer)),
                kAUPresetNameKey: currentPreset?.name ?? "Untitled",
            ]
            var blob = Data()
            for p in parameterTree?.allParameters ?? [] {
                withUnsafeBytes(of: p.address.bigEndian) { blob.append(contentsOf: $0) }
                withUnsafeBytes(of: p.value.bitPattern.bigEndian) { blob.append(contentsOf: $0) }
            }
            state[kAUPresetDataKey] = blob
            if let preset = currentPreset, preset.number >= 0 { state[kAUPresetNumberKey] = NSNumber(value: preset.number) }
            return state
        }
        set {
            if let v2Bridge { v2Bridge.fullState = newValue; return }
            guard let state = newValue else { return }
            let blob = (state[kAUPresetDataKey] as? Data) ?? (state[kAUPresetDataKey] as? NSData).map { Data(referencing: $0) }
            if let blob, let tree = parameterTree {
                let bytes = [UInt8](blob)
                var i = 0
                while i + 12 <= bytes.count {
                    var address: UInt64 = 0
                    for k in 0..<8 { address = address << 8 | UInt64(bytes[i + k]) }
                    var bits: UInt32 = 0
                    for k in 8..<12 { bits = bits << 8 | UInt32(bytes[i + k]) }
                    tree.parameter(withAddress: address)?.setValue(Float(bitPattern: bits), originator: nil)
                    i += 12
                }
            }
            if let name = state[kAUPresetNameKey] as? String {
                let preset = AUAudioUnitPreset()
                preset.name = name
                preset.number = (state[kAUPresetNumberKey] as? NSNumber)?.intValue ?? -1
                currentPreset = preset
            }
        }
    }

    /// The unit's state for a document (bridged to kAudioUnitProperty_ClassInfoFromDocument); the base class
    /// answers and sets `fullState`.
    open var fullStateForDocument: [String: Any]? {
        get { v2Bridge?.fullStateForDocument ?? fullState }
        set {
            if let v2Bridge { v2Bridge.fullStateForDocument = newValue; return }
            fullState = newValue
        }
    }

    /// The developer's presets (bridged to kAudioUnitProperty_FactoryPresets); the base has none.
    open var factoryPresets: [AUAudioUnitPreset]? { v2Bridge?.factoryPresets }

    /// Presets the user saved (none are kept here).
    open var userPresets: [AUAudioUnitPreset] { [] }

    /// Whether the unit takes user presets as `currentPreset`.
    open var supportsUserPresets: Bool { false }

    /// Whether the unit runs in the host's process (always, here).
    open var isLoadedInProcess: Bool { true }

    /// The preset last selected (bridged to kAudioUnitProperty_PresentPreset). Subclasses override the setter to
    /// apply factory presets.
    open var currentPreset: AUAudioUnitPreset? {
        get { v2Bridge?.currentPreset ?? storedPreset }
        set {
            if let v2Bridge { v2Bridge.currentPreset = newValue; return }
            storedPreset = newValue
        }
    }

    // MARK: Processing properties

    /// The unit's processing delay in seconds (bridged to kAudioUnitProperty_Latency).
    open var latency: TimeInterval { v2Bridge?.latency ?? 0 }
    /// How long output continues after the input stops, in seconds (bridged to kAudioUnitProperty_TailTime).
    open var tailTime: TimeInterval { v2Bridge?.tailTime ?? 0 }
    /// Quality against CPU use, 0...127 (bridged to kAudioUnitProperty_RenderQuality).
    open var renderQuality: Int = Int(kRenderQuality_High)
    /// Whether an effect passes its input through unprocessed (bridged to kAudioUnitProperty_BypassEffect); the
    /// subclass's render block honours it.
    open var shouldBypassEffect: Bool {
        get { v2Bridge?.shouldBypassEffect ?? storedBypass }
        set {
            if let v2Bridge { v2Bridge.shouldBypassEffect = newValue; return }
            storedBypass = newValue
        }
    }
    /// Whether the unit may render its output into its input's buffers.
    open var canProcessInPlace: Bool { false }
    /// Whether the unit renders offline, not against a clock (bridged to kAudioUnitProperty_OfflineRender).
    open var isRenderingOffline = false
    /// Pairs of input and output channel counts the unit supports (bridged to kAudioUnitProperty_SupportedNumChannels;
    /// -1 means any, as in AUChannelInfo). Nil: any count, as long as input and output agree.
    open var channelCapabilities: [NSNumber]? { v2Bridge?.channelCapabilities }
    /// The host's musical context, for the unit to call while rendering.
    open var musicalContextBlock: AUHostMusicalContextBlock?
    /// The host's transport state, for the unit to call while rendering.
    open var transportStateBlock: AUHostTransportStateBlock?
    /// The host's name for the unit's context (bridged to kAudioUnitProperty_ContextName).
    open var contextName: String?
    /// Whether the unit supports MIDI polyphonic expression.
    open var supportsMPE: Bool { false }
    /// The output channel map (nil: not supported).
    open var channelMap: [NSNumber]?

    // MARK: Input and output (Apple's AUAudioInputOutputUnit category)
    // Only I/O units (a bridge over a version 2 output unit) do anything here; any other unit answers false and
    // throws kAudioUnitErr_InvalidProperty, as Apple's do. Subclasses may override every member.

    /// Whether the unit's device can record (bridged to kAudioOutputUnitProperty_HasIO, input scope, element 1).
    open var canPerformInput: Bool { v2Bridge?.canPerformInput ?? false }
    /// Whether the unit's device can play (bridged to kAudioOutputUnitProperty_HasIO, output scope, element 0).
    open var canPerformOutput: Bool { v2Bridge?.canPerformOutput ?? false }

    /// Whether the unit records (bridged to kAudioOutputUnitProperty_EnableIO, input scope, element 1); off by
    /// default. Set it before allocating render resources.
    open var isInputEnabled: Bool {
        get { v2Bridge?.isInputEnabled ?? false }
        set { v2Bridge?.isInputEnabled = newValue }
    }

    /// Whether the unit plays (bridged to kAudioOutputUnitProperty_EnableIO, output scope, element 0); on by default
    /// on units that can play. Set it before allocating render resources.
    open var isOutputEnabled: Bool {
        get { v2Bridge?.isOutputEnabled ?? false }
        set { v2Bridge?.isOutputEnabled = newValue }
    }

    /// Supplies what the unit plays (bridged to kAudioUnitProperty_SetRenderCallback, input element 0); called on the
    /// device's thread, so it must be real-time safe.
    open var outputProvider: AURenderPullInputBlock? {
        get { v2Bridge.map { $0.outputProvider } ?? storedOutputProvider }
        set {
            if let v2Bridge { v2Bridge.outputProvider = newValue; return }
            storedOutputProvider = newValue
        }
    }

    /// Told when recorded input is ready (bridged to kAudioOutputUnitProperty_SetInputCallback); it fetches the audio
    /// by calling `renderBlock` on the bus it is given. Called on the device's thread.
    open var inputHandler: AUInputHandler? {
        get { v2Bridge.map { $0.inputHandler } ?? storedInputHandler }
        set {
            if let v2Bridge { v2Bridge.inputHandler = newValue; return }
            storedInputHandler = newValue
        }
    }

    /// Whether the unit's hardware is running (bridged to kAudioOutputUnitProperty_IsRunning).
    open var isRunning: Bool { v2Bridge?.isRunning ?? false }

    /// Starts the hardware (AudioOutputUnitStart); allocate render resources first. Throws the status as an
    /// NSOSStatusErrorDomain error. Never call from the render thread.
    open func startHardware() throws {
        guard let v2Bridge else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidProperty)) }
        try v2Bridge.startHardware()
    }

    /// Stops the hardware (AudioOutputUnitStop). Never call from the render thread.
    open func stopHardware() { v2Bridge?.stopHardware() }

    /// The unit's device (macOS; bridged to kAudioOutputUnitProperty_CurrentDevice); kAudioObjectUnknown otherwise.
    open var deviceID: AUAudioObjectID { v2Bridge?.deviceID ?? 0 }

    /// Selects the unit's device (macOS; bridged to kAudioOutputUnitProperty_CurrentDevice). Throws the status as an
    /// NSOSStatusErrorDomain error (kAudioUnitErr_Initialized while render resources are allocated).
    open func setDeviceID(_ deviceID: AUAudioObjectID) throws {
        guard let v2Bridge else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidProperty)) }
        try v2Bridge.setDeviceID(deviceID)
    }

    /// The device's input latency in seconds (macOS; kAudioDevicePropertyLatency of the device's input side).
    open var deviceInputLatency: TimeInterval { v2Bridge?.deviceInputLatency ?? 0 }
    /// The device's output latency in seconds (macOS; kAudioDevicePropertyLatency of the device's output side).
    open var deviceOutputLatency: TimeInterval { v2Bridge?.deviceOutputLatency ?? 0 }

    // MARK: Registration and instantiation

    /// The registered subclass behind each component `registerSubclass` added.
    private static let registered = LockedState<[ObjectIdentifier: AUAudioUnit.Type]>([:])

    /// Registers an AUAudioUnit subclass as a component of this process: AudioComponentFindNext finds it,
    /// AudioComponentInstanceNew, `instantiate(with:options:completionHandler:)`, AUGraph and AVAudioUnit make it.
    public class func registerSubclass(_ cls: AnyClass, as componentDescription: AudioComponentDescription, name: String, version: UInt32) {
        guard let unitClass = cls as? AUAudioUnit.Type else { preconditionFailure("registerSubclass: \(cls) is not an AUAudioUnit subclass") }
        let entry = AudioComponentEntry(description: componentDescription, name: name, version: version, maker: .builtIn { entry in
            AUAudioUnitV2Adapter(component: entry) { try unitClass.init(componentDescription: entry.description) }
        })
        registered.withLock { $0[ObjectIdentifier(entry)] = unitClass }
        AudioComponentRegistry.shared.register(entry)
    }

    /// Makes the unit of the first component matching `componentDescription` and hands it to `completionHandler`
    /// (at once, on this thread: every unit here loads in process). A version 2 unit (the built-in ones) comes
    /// wrapped in an AUAudioUnitV2Bridge.
    public class func instantiate(with componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = [],
                                  completionHandler: @escaping (AUAudioUnit?, Error?) -> Void) {
        var d = componentDescription
        guard let component = AudioComponentFindNext(nil, &d), let entry = AudioComponentRegistry.shared.entry(for: component) else {
            completionHandler(nil, NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioComponentErr_InstanceInvalidated)))
            return
        }
        guard let unitClass = registered.withLock({ $0[ObjectIdentifier(entry)] }) else {
            // A version 2 unit: wrapped, as Apple's AUAudioUnitV2Bridge does.
            do {
                completionHandler(try AUAudioUnitV2Bridge(componentDescription: entry.description, options: options), nil)
            } catch {
                completionHandler(nil, error)
            }
            return
        }
        do {
            completionHandler(try unitClass.init(componentDescription: entry.description), nil)
        } catch {
            completionHandler(nil, error)
        }
    }

    /// Whether `entry` is a version 2 unit (built in, or a plug-in registered with AudioComponentRegister): listed,
    /// and not a registered subclass.
    private static func isVersion2(_ entry: AudioComponentEntry) -> Bool {
        switch entry.maker {
        case .builtIn, .plugIn:
            return AudioComponentRegistry.shared.entry(for: entry.handle) != nil
                && registered.withLock { $0[ObjectIdentifier(entry)] == nil }
        case .codec, .audioFile:
            return false
        }
    }

    /// The registry entry a unit made with `description` belongs to: the first registered subclass component with
    /// that type, subtype and manufacturer, else an unlisted entry of its own (a subclass made directly, never
    /// registered).
    private static func entry(for description: AudioComponentDescription) -> AudioComponentEntry {
        var exact = description
        exact.componentFlags = 0
        exact.componentFlagsMask = 0
        var component = AudioComponentFindNext(nil, &exact)
        while let c = component {
            if let entry = AudioComponentRegistry.shared.entry(for: c), registered.withLock({ $0[ObjectIdentifier(entry)] != nil }),
               entry.description.componentType == description.componentType,
               entry.description.componentSubType == description.componentSubType,
               entry.description.componentManufacturer == description.componentManufacturer {
                return entry
            }
            component = AudioComponentFindNext(c, &exact)
        }
        // A version 2 unit's own entry (AUAudioUnitV2Bridge wraps built-in units): its name and version.
        if let c = AudioComponentFindNext(nil, &exact), let entry = AudioComponentRegistry.shared.entry(for: c) { return entry }
        // Never listed, so never instantiated through it: the maker is only a placeholder.
        return AudioComponentEntry(description: description, name: "", version: 0, maker: .codec)
    }
}
