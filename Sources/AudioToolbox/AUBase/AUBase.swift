import OCAProperty
import Synchronization

/// The object model every built-in unit shares, after Apple's AudioUnitSDK `AUBase`: a global
/// element and input/output elements with formats and parameters, the property table with Apple's
/// scope, size and state rules, listeners, render notifications, scheduled parameters and the
/// lifecycle (uninitialized -> initialized, with render memory sized by MaximumFramesPerSlice).
/// Subclasses override the hooks in the "Subclass hooks" section.
class AUBase: AudioUnitObject, @unchecked Sendable {
    static let defaultMaxFramesPerSlice: UInt32 = 1156
    static let defaultFormat = OCAFormat.canonical(sampleRate: 44100, channels: 2)

    // What the render path reads of every unit comes first and together (Swift lays stored properties out in
    // declaration order), so that an idle unit's dispatch touches one or two cache lines of it: in a 64-unit chain
    // the units' scattered fields did not fit the L1 cache beside the stack.
    // The properties the render path reads are declared @exclusivity(unchecked): they change only while the
    // unit is uninitialized (or through atomics), and Swift's dynamic check (a thread-local access set probed on
    // every read, which sees only same-thread overlaps anyway) was a tenth of the render dispatch's cost.

    /// What the render path must do besides rendering (RenderWork bits); set by whoever adds the work.
    let renderWork = Atomic<UInt32>(0)
    private let initializedFlag = Atomic<Bool>(false)
    /// Output 0 is input 0's audio unchanged, rendered in place (AUGenericOutput): a connected input 0 is then
    /// rendered by this unit's own AudioUnitRender, one call per unit down a chain instead of two (a chain's nested
    /// returns outnumber what the CPU's return predictor holds, so each extra level is a mispredicted return).
    @exclusivity(unchecked) var passesInput0Through = false
    @exclusivity(unchecked) var maxFramesPerSlice = AUBase.defaultMaxFramesPerSlice
    /// Output 0's buffer count and bytes per frame, for the render's argument checks without visiting the element
    /// (kept by `elementFormatChanged`).
    @exclusivity(unchecked) private(set) var output0Buffers: UInt32 = 0
    @exclusivity(unchecked) private(set) var output0BytesPerFrame: UInt32 = 0
    @exclusivity(unchecked) private(set) var outputCount = 0
    /// The unit connected to input 0's bus 0 (a connection from its output 0), else nil: the case that repeats down a
    /// chain, read from this line of the unit instead of through input 0's source cell and its current copy (two
    /// dependent loads from two other objects, the profile's cache misses). Kept by `inputSourceChanged`.
    let input0Upstream = Atomic<UnsafeMutableRawPointer?>(nil)
    /// A graph's pending render plan (an unmanaged GraphRenderPlan), adopted at the start of the next
    /// render of this unit when it heads a running graph.
    let pendingPlan = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Sample time of the last render (render thread writes, others read; 64-bit atomic store).
    let lastRenderSampleTime = Atomic<UInt64>(Double(-Double.greatestFiniteMagnitude).bitPattern)
    /// The elements as unretained references, for the render path: a class reference read out of a Swift
    /// array is retained and released around its use (the profile's retain/release); one read out of raw memory
    /// as Unmanaged is not. The arrays keep the elements alive; rebuilt whenever the counts change.
    @exclusivity(unchecked) private var inputRefs = UnsafeMutablePointer<Unmanaged<AUInputElement>>.allocate(capacity: 1)
    @exclusivity(unchecked) private var outputRefs = UnsafeMutablePointer<Unmanaged<AUOutputElement>>.allocate(capacity: 1)
    let lastRenderError = Atomic<Int32>(0)
    @exclusivity(unchecked) private var inputCount = 0

    let globalElement = AUElement()
    @exclusivity(unchecked) private(set) var inputs: [AUInputElement] = []
    @exclusivity(unchecked) private(set) var outputs: [AUOutputElement] = []

    var isInitialized: Bool { initializedFlag.load(ordering: .acquiring) }
    var renderQuality = UInt32(kRenderQuality_High)
    var cpuLoad: Double = 0
    /// kAudioUnitProperty_HostCallbacks: the host's musical-time and transport callbacks, kept for units that ask
    /// (AudioUnitSDK's AUBase keeps them for every unit; none of the built-in units uses tempo yet).
    var hostCallbacks = HostCallbackInfo()
    var currentPreset = (number: Int32(-1), name: "Untitled")

    private let listeners = PropertyListenerList<AudioUnitPropertyID, AudioUnitPropertyListenerProc>()
    let renderNotifies = RenderNotifyList()
    let eventQueue = ParameterEventQueue()
    /// Render-time load measurement for AUGraphGetCPULoad (off unless a graph asks).
    let loadMeter = RenderLoadMeter()
    let sliceEvents = UnsafeMutablePointer<AudioUnitParameterEvent>.allocate(capacity: ParameterEventQueue.capacity)

    /// The unit class's property table (`propertyRows` in the shared model), built once per class.
    let propertyTable: ObjectPropertyTable<AUPropertyRequest>
    /// Every unit class's table, built the first time a unit of the class is made (under an NSLock, which the thread
    /// sanitizer sees; it cannot see Synchronization's futex-based Mutex).
    static let propertyTables = LockedState<[ObjectIdentifier: ObjectPropertyTable<AUPropertyRequest>]>([:])

    /// Render memory units take while they initialize; AUBase frees it when they uninitialize (see AURenderMemory).
    let renderMemory = AURenderMemory()

    init(component: AudioComponentEntry, inputs inputCount: Int, outputs outputCount: Int) {
        propertyTable = AUBase.propertyTable(for: Self.self)
        super.init(component: component)
        setElementCount(kAudioUnitScope_Input, inputCount)
        setElementCount(kAudioUnitScope_Output, outputCount)
    }

    deinit {
        sliceEvents.deallocate()
        inputRefs.deallocate()
        outputRefs.deallocate()
    }

    // MARK: Subclass hooks

    /// Whether `kAudioUnitProperty_ElementCount` may be set on the scope (mixers: input scope).
    func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { false }
    /// Formats the unit accepts. Default, as Apple's base: native Float32, non-interleaved (or mono).
    func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        AUFormatRules.isCommonFloat32(f)
    }
    /// Whether the format may change now (connected inputs never; others while uninitialized).
    func isStreamFormatWritable(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool { !isInitialized }
    var latency: Double { 0 }
    /// nil: the unit does not support `kAudioUnitProperty_TailTime`.
    var tailTime: Double? { nil }
    /// Empty: the unit does not support `kAudioUnitProperty_SupportedNumChannels`.
    var supportedNumChannels: [AUChannelInfo] { [] }
    /// nil: the unit has no factory presets.
    var factoryPresets: [(number: Int32, name: String)]? { nil }
    /// Applies factory preset `number`; the base has none.
    func applyFactoryPreset(_ number: Int32) -> OSStatus { kAudioUnitErr_InvalidProperty }
    /// The names of an indexed parameter's values, minValue first (`kAudioUnitProperty_ParameterValueStrings`;
    /// they also name those values in ParameterStringFromValue/ValueFromString); nil: the parameter has none.
    func parameterValueStrings(_ scope: AudioUnitScope, _ id: AudioUnitParameterID) -> [String]? { nil }
    /// A clump's name (`kAudioUnitProperty_ParameterClumpName`); nil: the unit names no clumps.
    func clumpName(_ scope: AudioUnitScope, _ clumpID: UInt32) -> String? { nil }
    /// Unit-specific checks and setup at initialize (render memory is already sized).
    func initializeUnit() -> OSStatus { noErr }
    func cleanupUnit() {}
    func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {}
    /// Renders output bus `bus` into `output`, whose buffers are valid memory. The base writes nothing.
    func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                   _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus { noErr }
    /// The unit's property table: the base's rows, then each subclass's (a later row with the same ID
    /// replaces an earlier one). Override as `super.propertyRows + [...]`.
    class var propertyRows: [AUProperty] { baseRows + parameterTextRows }

    /// Called after a stream format changed (while uninitialized), for units with derived state.
    func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {}

    // MARK: Dispatch (overrides cannot live in extensions; the bodies do)

    override func getPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                                  _ outSize: inout UInt32, _ outWritable: inout Bool) -> OSStatus {
        auGetPropertyInfo(id, scope, element, &outSize, &outWritable)
    }
    override func getProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ out: UnsafeMutableRawPointer, _ ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        auGetProperty(id, scope, element, out, ioSize)
    }
    override func setProperty(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                              _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
        auSetProperty(id, scope, element, data, size)
    }
    override func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        auGetParameter(id, scope, element, outValue)
    }
    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        auSetParameter(id, scope, element, value, bufferOffset)
    }
    override func scheduleParameters(_ events: UnsafePointer<AudioUnitParameterEvent>, _ count: UInt32) -> OSStatus {
        auScheduleParameters(events, count)
    }
    override func render(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                         _ bus: UInt32, _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        auRender(flags, timeStamp, bus, frames, ioData)
    }

    // MARK: Elements

    func elementCount(_ scope: AudioUnitScope) -> Int {
        switch scope {
        case kAudioUnitScope_Global: 1
        case kAudioUnitScope_Input: inputs.count
        case kAudioUnitScope_Output: outputs.count
        default: 0
        }
    }

    /// Resizes a scope (while uninitialized). New elements get the default format, or that of element 0.
    func setElementCount(_ scope: AudioUnitScope, _ count: Int) {
        switch scope {
        case kAudioUnitScope_Input:
            let format = inputs.first?.format ?? Self.defaultFormat
            while inputs.count < count {
                inputs.append(AUInputElement(format: format))
                inputs[inputs.count - 1].owner = self
                definedNewElement(scope, inputs.count - 1)
            }
            if inputs.count > count { inputs.removeLast(inputs.count - count) }
        case kAudioUnitScope_Output:
            let format = outputs.first?.format ?? Self.defaultFormat
            while outputs.count < count {
                outputs.append(AUOutputElement(format: format))
                outputs[outputs.count - 1].owner = self
                definedNewElement(scope, outputs.count - 1)
            }
            if outputs.count > count { outputs.removeLast(outputs.count - count) }
        default:
            return
        }
        let newInputs = UnsafeMutablePointer<Unmanaged<AUInputElement>>.allocate(capacity: max(inputs.count, 1))
        for i in 0..<inputs.count { (newInputs + i).initialize(to: .passUnretained(inputs[i])) }
        let newOutputs = UnsafeMutablePointer<Unmanaged<AUOutputElement>>.allocate(capacity: max(outputs.count, 1))
        for i in 0..<outputs.count { (newOutputs + i).initialize(to: .passUnretained(outputs[i])) }
        let oldInputs = inputRefs, oldOutputs = outputRefs
        inputRefs = newInputs
        outputRefs = newOutputs
        oldInputs.deallocate()
        oldOutputs.deallocate()
        outputCount = outputs.count
        inputCount = inputs.count
        if let first = inputs.first { inputSourceChanged(first) } else { input0Upstream.store(nil, ordering: .relaxed) }
        elementFormatChanged()
    }

    /// An element's format changed (or the elements did): refresh what the render path keeps of output 0.
    /// Written only when it differs: an input's format may change while the unit renders (a mixer's unconnected
    /// input), and an unconditional store of the same value would still race with the render thread's read.
    func elementFormatChanged() {
        let buffers = outputs.first.map { UInt32($0.bufferCount) } ?? 0
        let bytesPerFrame = outputs.first?.format.mBytesPerFrame ?? 0
        if output0Buffers != buffers { output0Buffers = buffers }
        if output0BytesPerFrame != bytesPerFrame { output0BytesPerFrame = bytesPerFrame }
    }

    /// An input's source changed: refresh `input0Upstream` if it is input 0. Safe on the render thread (a graph's
    /// plan is adopted there).
    func inputSourceChanged(_ input: AUInputElement) {
        guard inputCount > 0, inputRefs[0].toOpaque() == Unmanaged.passUnretained(input).toOpaque() else { return }
        let s = input.source.pointer.pointee
        let upstream = s.kind == .connection && s.sourceBus == 0 ? s.sourceUnit.map { UnsafeMutableRawPointer($0) } : nil
        input0Upstream.store(upstream, ordering: .releasing)
    }

    /// Calls `body` with input element `i` (which must exist), without retaining it. Render thread.
    @inline(__always)
    func withInput<R>(_ i: Int, _ body: (AUInputElement) -> R) -> R { inputRefs[i]._withUnsafeGuaranteedRef(body) }

    /// Calls `body` with output element `i` (which must exist), without retaining it. Render thread.
    @inline(__always)
    func withOutput<R>(_ i: Int, _ body: (AUOutputElement) -> R) -> R { outputRefs[i]._withUnsafeGuaranteedRef(body) }

    /// Pulls input `i` (which must exist) on bus `i`, into `target` when given. Render thread.
    @inline(__always)
    func pullInput(_ i: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
                   frames: UInt32, into target: UnsafeMutablePointer<AudioBufferList>? = nil)
        -> (OSStatus, UnsafeMutablePointer<AudioBufferList>) {
        // The case that repeats down a chain: input 0 connected, rendering into the caller's memory.
        if i == 0, let target, let upstream = input0Upstream.load(ordering: .relaxed) {
            return (AudioUnitRender(OpaquePointer(upstream), flags, timeStamp, 0, frames, target), target)
        }
        return withInput(i) { $0.pull(flags: flags, timeStamp: timeStamp, bus: UInt32(i), frames: frames, into: target) }
    }

    /// Called for every element created, so subclasses can define its parameters.
    func definedNewElement(_ scope: AudioUnitScope, _ index: Int) {}

    /// The element, or the status Apple returns: InvalidScope for unknown scopes, InvalidElement for
    /// a missing element.
    func element(_ scope: AudioUnitScope, _ index: AudioUnitElement) -> Result<AUElement, OSStatusError> {
        switch scope {
        case kAudioUnitScope_Global:
            return index == 0 ? .success(globalElement) : .failure(OSStatusError(kAudioUnitErr_InvalidElement))
        case kAudioUnitScope_Input:
            return Int(index) < inputs.count ? .success(inputs[Int(index)]) : .failure(OSStatusError(kAudioUnitErr_InvalidElement))
        case kAudioUnitScope_Output:
            return Int(index) < outputs.count ? .success(outputs[Int(index)]) : .failure(OSStatusError(kAudioUnitErr_InvalidElement))
        case kAudioUnitScope_Group:
            return .failure(OSStatusError(kAudioUnitErr_InvalidElement))
        default:
            return .failure(OSStatusError(kAudioUnitErr_InvalidScope))
        }
    }

    /// The input or output element for a stream-format query; global scope means output 0.
    func ioElement(_ scope: AudioUnitScope, _ index: AudioUnitElement) -> Result<AUIOElement, OSStatusError> {
        switch scope {
        case kAudioUnitScope_Global:
            return outputs.isEmpty ? .failure(OSStatusError(kAudioUnitErr_InvalidElement)) : .success(outputs[0])
        case kAudioUnitScope_Input, kAudioUnitScope_Output:
            return element(scope, index).flatMap { e in
                (e as? AUIOElement).map { .success($0) } ?? .failure(OSStatusError(kAudioUnitErr_InvalidElement))
            }
        case kAudioUnitScope_Group:
            return .failure(OSStatusError(kAudioUnitErr_InvalidElement))
        default:
            return .failure(OSStatusError(kAudioUnitErr_InvalidScope))
        }
    }

    // MARK: Lifecycle

    override func initialize() -> OSStatus {
        if isInitialized { return noErr }
        for input in inputs {
            input.buffers.configure(format: input.format, maxFrames: maxFramesPerSlice,
                                    withMemory: input.shouldAllocateBuffer)
        }
        for output in outputs {
            output.buffers.configure(format: output.format, maxFrames: maxFramesPerSlice,
                                     withMemory: output.shouldAllocateBuffer)
        }
        for table in allParameterTables() { table.allocateCurves(maxFrames: Int(maxFramesPerSlice)) }
        let status = initializeUnit()
        guard status == noErr else {
            releaseRenderMemory()
            return status
        }
        initializedFlag.store(true, ordering: .releasing)
        return noErr
    }

    override func uninitialize() -> OSStatus {
        if isInitialized { cleanupUnit() }
        initializedFlag.store(false, ordering: .releasing)
        releaseRenderMemory()
        lastRenderSampleTime.store((-Double.greatestFiniteMagnitude).bitPattern, ordering: .relaxed)
        return noErr
    }

    private func releaseRenderMemory() {
        renderMemory.releaseAll()
        for e in inputs { e.buffers.releaseMemory() }
        for e in outputs { e.buffers.releaseMemory() }
        for table in allParameterTables() { table.releaseCurves() }
    }

    override func close() {
        _ = uninitialize()
    }

    override func reset(scope: AudioUnitScope, element: AudioUnitElement) -> OSStatus {
        lastRenderSampleTime.store((-Double.greatestFiniteMagnitude).bitPattern, ordering: .relaxed)
        resetUnit(scope, element)
        return noErr
    }

    func allParameterTables() -> [ParameterTable] {
        [globalElement.parameters] + inputs.map(\.parameters) + outputs.map(\.parameters)
    }

    // MARK: Listeners

    override func addPropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                                      _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        listeners.add(id, proc, userData)
        return noErr
    }

    override func removePropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
                                         _ userData: UnsafeMutableRawPointer?, matchUserData: Bool) -> OSStatus {
        listeners.remove(id, proc, userData, anyUserData: !matchUserData)
        return noErr
    }

    /// Tells every listener of `id` that it changed, synchronously on the calling thread (never the
    /// render thread).
    func propertyChanged(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) {
        typealias NullableRefConListener = @convention(c) (UnsafeMutableRawPointer?, AudioUnit, AudioUnitPropertyID,
                                                           AudioUnitScope, AudioUnitElement) -> Void
        listeners.fire(id) { l in
            unsafeBitCast(l.proc, to: NullableRefConListener.self)(l.userData, handle, id, scope, element)
        }
    }

    override func addRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        renderNotifies.add(proc, userData) { self.setRenderWork(.notifies, $0) }
    }

    override func removeRenderNotify(_ proc: AURenderCallback, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        renderNotifies.remove(proc, userData) { self.setRenderWork(.notifies, $0) }
    }

    /// Sets or clears render-work bits (released, so the render thread sees what was published before).
    func setRenderWork(_ work: RenderWork, _ on: Bool) {
        if on { renderWork.bitwiseOr(work.rawValue, ordering: .releasing) } else { renderWork.bitwiseAnd(~work.rawValue, ordering: .releasing) }
    }

    /// Whether any of `work` is pending. Render thread.
    @inline(__always)
    func hasRenderWork(_ work: RenderWork) -> Bool { renderWork.load(ordering: .relaxed) & work.rawValue != 0 }

    /// Starts measuring render load (AUGraphGetCPULoad).
    func startLoadMeter() {
        setRenderWork(.meter, true)
    }
}
