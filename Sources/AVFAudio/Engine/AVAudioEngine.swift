import CoreAudio
import Foundation

/// A graph of AVAudioNodes rendering to the default device or, in manual rendering mode, into the client's
/// buffers. Built on AUGraph: every node's unit is a graph node, connections are graph connections, and edits
/// while running are handed to the render thread at a slice boundary by the graph's render plans (glitch-free,
/// never torn). Formats are negotiated at connect: where a destination cannot take what a source makes (a
/// mixer input at another rate, more channels than the mix takes) the engine puts a converter between them;
/// a source feeding several destinations goes through a splitter. The methods may be called from any thread.
open class AVAudioEngine: NSObject, @unchecked Sendable {
    let graph: AUGraph
    let lock = NSRecursiveLock()
    var attached: [ObjectIdentifier: AVAudioNode] = [:]
    var connections: [EngineConnection] = []
    /// Hidden splitters, one per source bus feeding several destinations.
    var splitters: [SourceKey: AVAudioNode] = [:]
    /// Objects the render thread may still reach (removed nodes, taps, converters), released once it cannot.
    var retired: [AnyObject] = []
    let head = EngineHead()
    /// The pulls last published to the render thread.
    var publishedPulls: [PullSignature] = []
    /// Mixing settings made through AVAudioMixingDestination for one source on one mixer input.
    var destinationSettings: [DestinationKey: MixingSettings] = [:]

    var ioUnit: AudioUnit?
    var inputEnabled = false
    private(set) var voiceProcessing = false
    private var outputNodeStorage: AVAudioOutputNode?
    private var inputNodeStorage: AVAudioInputNode?
    private var mainMixerStorage: AVAudioMixerNode?
    var running = false
    var prepared = false
    private var deviceListener: AudioObjectPropertyListenerBlock?
    /// The MusicSequence set through `musicSequence` (AVAudioEngine+MusicSequence.swift).
    var musicSequenceStorage: MusicSequence?
    /// MIDI connections by source node (AVAudioEngine+MIDI.swift).
    var midiConnections: [ObjectIdentifier: EngineMIDIConnection] = [:]

    // Manual rendering.
    var manualMode: AVAudioEngineManualRenderingMode?
    var manualFormatStorage: AVAudioFormat?
    var manualMaximumFrames: AVAudioFrameCount = 4096
    var manualSampleTime: AVAudioFramePosition = 0
    var manualOutputUnit: AudioUnit?
    var manualInputUnit: AudioUnit?

    static let ioDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
                                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let voiceDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_VoiceProcessingIO,
                                                            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// An engine with no nodes attached but its output node.
    public override init() {
        var g: AUGraph?
        NewAUGraph(&g)
        graph = g!
        AUGraphOpen(graph)
        super.init()
    }

    deinit {
        if let deviceListener { Self.listenDefaultDevice(deviceListener, add: false) }
        AUGraphStop(graph)
        head.attach(to: nil)
        DisposeAUGraph(graph)
        for node in attached.values { node.attachedEngine = nil }
        if let ioUnit { AudioComponentInstanceDispose(ioUnit) }
        if let manualOutputUnit { AudioComponentInstanceDispose(manualOutputUnit) }
        if let manualInputUnit { AudioComponentInstanceDispose(manualInputUnit) }
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: The I/O nodes

    /// The engine's output: the default output device, or the client's buffers in manual rendering mode.
    public var outputNode: AVAudioOutputNode {
        withLock {
            if let outputNodeStorage { return outputNodeStorage }
            let node = AVAudioOutputNode(engineUnit: outputUnit())
            outputNodeStorage = node
            attachIONode(node)
            head.attach(to: node.unit)
            if manualMode == nil { watchDefaultDevice() }
            return node
        }
    }

    /// The engine's input: the default input device (switched on when first asked for), or the client's input
    /// block in manual rendering mode.
    public var inputNode: AVAudioInputNode {
        withLock {
            if let inputNodeStorage { return inputNodeStorage }
            _ = outputNode
            if manualMode == nil { enableInput() }
            let node = AVAudioInputNode(engineUnit: manualMode == nil ? ioUnit! : manualInputUnitMake())
            inputNodeStorage = node
            node.attachedEngine = self
            if let manualFormat = manualFormatStorage {
                // Manual rendering: the input node's converter pulls the client's input block (silence until one is set).
                node.setFormat(manualFormat, kAudioUnitScope_Input, 0)
                node.setFormat(manualFormat, kAudioUnitScope_Output, 0)
                installManualInputCallback(node)
            }
            node.graphNode = manualMode == nil ? outputNodeStorage!.graphNode : addGraphNode(node.unit)
            attached[ObjectIdentifier(node)] = node
            return node
        }
    }

    /// The mixer every engine has, connected to the output node when first asked for.
    public var mainMixerNode: AVAudioMixerNode {
        withLock {
            if let mainMixerStorage { return mainMixerStorage }
            let mixer = AVAudioMixerNode()
            mainMixerStorage = mixer
            attach(mixer)
            let output = outputNode
            connect(mixer, to: output, format: mainMixerFormat())
            return mixer
        }
    }

    /// The main mixer's output format: the output's rate (the manual rendering format's), mono when the output is
    /// mono, else stereo (wider outputs get a converter after the mix).
    func mainMixerFormat() -> AVAudioFormat? {
        let output = manualFormatStorage ?? outputNode.outputFormat(forBus: 0)
        let rate = output.sampleRate
        return AVAudioFormat(standardFormatWithSampleRate: rate > 0 ? rate : 44100, channels: output.channelCount == 1 ? 1 : 2)
    }

    /// The unit behind the output node in the current mode (made when first needed).
    func outputUnit() -> AudioUnit {
        if manualMode != nil {
            if manualOutputUnit == nil { manualOutputUnit = AVAudioNode.instantiate(Self.genericDescription) }
            return manualOutputUnit!
        }
        if ioUnit == nil { ioUnit = AVAudioNode.instantiate(voiceProcessing ? Self.voiceDescription : Self.ioDescription) }
        return ioUnit!
    }

    static let genericDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private func attachIONode(_ node: AVAudioIONode) {
        node.attachedEngine = self
        node.graphNode = addGraphNode(node.unit)
        attached[ObjectIdentifier(node)] = node
        if manualMode != nil {
            node.setFormat(manualFormatStorage!, kAudioUnitScope_Input, 0)
            node.setFormat(manualFormatStorage!, kAudioUnitScope_Output, 0)
        }
    }

    func addGraphNode(_ unit: AudioUnit) -> AUNode {
        var id: AUNode = 0
        setMaximumFrames(unit)
        AUGraphAddExistingUnit(graph, unit, &id)
        return id
    }

    /// The most frames one render asks of a node: the manual rendering maximum, else the device's slice limit.
    var sliceCapacity: UInt32 { manualMode != nil ? manualMaximumFrames : 4096 }

    func setMaximumFrames(_ unit: AudioUnit) {
        var frames = sliceCapacity
        guard AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
                == kAudioUnitErr_Initialized else { return }
        // A unit initialized before the graph (a sequencer's preroll initializes its destinations) keeps the limit it
        // had, and a larger manual rendering slice would fail with kAudioUnitErr_TooManyFramesToProcess: it is
        // initialized again with the engine's limit. One that already takes enough is left alone.
        var current: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        if AudioUnitGetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &current, &size) == noErr,
           current >= frames { return }
        AudioUnitUninitialize(unit)
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        AudioUnitInitialize(unit)
    }

    private func enableInput() {
        guard !inputEnabled, let ioUnit else { return }
        let wasRunning = running
        if prepared { stopGraph(uninitialize: true) }
        Self.switchInputOn(ioUnit)
        inputEnabled = true
        if wasRunning { try? start() }
    }

    /// Turns on an I/O unit's input element (the unit must be uninitialized).
    static func switchInputOn(_ unit: AudioUnit) {
        var on: UInt32 = 1
        AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4)
    }

    func manualInputUnitMake() -> AudioUnit {
        if let manualInputUnit { return manualInputUnit }
        let unit = AVAudioNode.instantiate(AVAudioPlayerNode.description)
        manualInputUnit = unit
        return unit
    }

    /// Switches the I/O unit between AUHAL and AUVoiceProcessingIO (the engine must be stopped).
    func setVoiceProcessing(_ enabled: Bool) throws {
        try withLock {
            guard enabled != voiceProcessing else { return }
            guard !running else { throw AVAudioError.make(kAudioUnitErr_Initialized) }
            guard manualMode == nil else { throw AVAudioError.make(AVAudioEngineManualRenderingError.invalidMode.rawValue) }
            voiceProcessing = enabled
            guard let old = ioUnit else { return }
            if prepared { stopGraph(uninitialize: true) }
            let unit = AVAudioNode.instantiate(enabled ? Self.voiceDescription : Self.ioDescription)
            if inputEnabled { Self.switchInputOn(unit) }
            replaceIOUnit(with: unit)
            retired.append(UnitDisposer(old))
        }
    }

    /// Puts a new unit behind the output (and input) node, keeping their connections.
    func replaceIOUnit(with unit: AudioUnit) {
        ioUnit = unit
        guard let output = outputNodeStorage else { return }
        AUGraphRemoveNode(graph, output.graphNode)
        output.unit = unit
        output.graphNode = addGraphNode(unit)
        head.attach(to: unit)
        if let input = inputNodeStorage {
            input.unit = unit
            input.graphNode = output.graphNode
        }
        rewireAll(involving: [output] + (inputNodeStorage.map { [$0] } ?? []))
    }

    // MARK: Attaching

    /// Takes ownership of a node so it can be connected. A node belongs to one engine at a time.
    public func attach(_ node: AVAudioNode) {
        withLock {
            guard node.attachedEngine == nil else { return }
            node.attachedEngine = self
            node.graphNode = addGraphNode(node.unit)
            attached[ObjectIdentifier(node)] = node
            node.didAttach(to: self)
            if !node.taps.isEmpty { tapsChanged(node) }
        }
    }

    /// Disconnects a node and gives it up; the engine keeps it until the render thread can no longer reach it.
    public func detach(_ node: AVAudioNode) {
        withLock {
            guard node.attachedEngine === self, !(node is AVAudioIONode) else { return }
            disconnectNodeInput(node)
            disconnectNodeOutput(node)
            disconnectMIDIInput(node)
            disconnectMIDIOutput(node)
            AUGraphRemoveNode(graph, node.graphNode)
            attached[ObjectIdentifier(node)] = nil
            if node === mainMixerStorage { mainMixerStorage = nil }
            node.attachedEngine = nil
            node.didDetach()
            retired.append(node)
            update()
            if !node.taps.isEmpty { publishPulls() }
        }
    }

    /// Every node attached (the output node, and the input node once used, included).
    public var attachedNodes: Set<AVAudioNode> { withLock { Set(attached.values) } }

    // MARK: Lifecycle

    /// Whether the engine is running.
    public var isRunning: Bool { withLock { running } }

    /// Whether the engine may stop itself when idle (it never does here: the device is cheap to keep).
    public var isAutoShutdownEnabled = false

    /// Allocates what rendering needs (initializes the graph), so start is quick.
    public func prepare() {
        withLock {
            _ = outputNode
            guard !prepared else { return }
            for node in attached.values { setMaximumFrames(node.unit) }
            if AUGraphInitialize(graph) == noErr { prepared = true }
        }
    }

    /// Starts rendering: on the device, or (manual rendering) making renderOffline and the render block work.
    public func start() throws {
        try withLock {
            _ = outputNode
            if running { return }
            if !prepared {
                for node in attached.values { setMaximumFrames(node.unit) }
                try AVAudioError.check(AUGraphInitialize(graph))
                prepared = true
            }
            update()
            try AVAudioError.check(AUGraphStart(graph))
            running = true
        }
    }

    /// Stops rendering but keeps what prepare allocated.
    public func pause() {
        withLock {
            guard running else { return }
            AUGraphStop(graph)
            running = false
        }
    }

    /// Stops rendering and releases what prepare allocated. Players are stopped too (their schedules cleared and
    /// completion handlers called), since the render timeline starts again at the next start.
    public func stop() {
        withLock {
            stopGraph(uninitialize: true)
            for case let player as AVAudioPlayerNode in attached.values { player.stop() }
        }
    }

    func stopGraph(uninitialize: Bool) {
        if running { AUGraphStop(graph) }
        running = false
        head.clearTime()
        if uninitialize && prepared {
            AUGraphUninitialize(graph)
            prepared = false
        }
        retired.removeAll()
    }

    /// Resets every node (clears delay lines, reverb tails and scheduled players' state).
    public func reset() {
        withLock { for node in attached.values { node.reset() } }
    }

    /// Makes the graph's edits take effect. On a device (or a realtime client) the render thread adopts them at
    /// its next slice and this waits for that; in offline manual rendering no render runs during an edit (the
    /// engine's lock is held across renderOffline), so the graph is stopped for a moment and adopts them at once.
    func update() {
        guard prepared else { return }
        if running && manualMode == .offline {
            AUGraphStop(graph)
            AUGraphUpdate(graph, nil)
            AUGraphStart(graph)
            retired.removeAll()
        } else if AUGraphUpdate(graph, nil) == noErr {
            retired.removeAll()
        }
    }

    // MARK: Taps and extra pulls

    /// Keeps a removed tap until the render thread can no longer be in it.
    func retire(_ object: AnyObject) {
        withLock { retired.append(object) }
    }

    /// Rebuilds the list of nodes the engine pulls besides its output (sinks, tapped nodes feeding nothing).
    func tapsChanged(_ node: AVAudioNode) {
        withLock { publishPulls() }
    }

    func publishPulls() {
        var specs: [(AudioUnit, UInt32, Int, EngineHead.SinkBox?)] = []
        defer {
            // A new list only when the pulls changed (edits that touch no sink or tap leave it as it is).
            let signature = specs.map { PullSignature(unit: $0.0, bus: $0.1, channels: $0.2, sink: $0.3.map(ObjectIdentifier.init)) }
            if signature != publishedPulls {
                publishedPulls = signature
                head.publish(EngineHead.PullList(specs, capacity: Int(sliceCapacity)))
            }
        }
        for node in attached.values {
            if let sink = node as? AVAudioSinkNode {
                guard connections.contains(where: { $0.dest === sink }) else { continue }
                specs.append((sink.unit, 0, Int(sink.outputFormat(forBus: 0).channelCount), sink.box))
                continue
            }
            for bus in node.taps.keys where !connections.contains(where: { $0.source === node && $0.sourceBus == bus }) {
                guard !(node is AVAudioOutputNode) else { continue }
                specs.append((node.unit, node.unitOutputBus(bus), Int(node.outputFormat(forBus: bus).channelCount), nil))
            }
        }
    }

    // MARK: Times and latency

    func lastRenderTime(of node: AVAudioNode) -> AVAudioTime? {
        withLock {
            guard running, node.attachedEngine === self else { return nil }
            return head.lastTime(sampleRate: manualFormatStorage?.sampleRate ?? outputNodeStorage?.outputFormat(forBus: 0).sampleRate ?? 44100)
        }
    }

    func presentationLatency(from node: AVAudioNode) -> TimeInterval {
        manualMode != nil ? 0 : deviceLatency(input: false)
    }

    /// The device's latency plus its buffer, in seconds (0 in manual rendering).
    func deviceLatency(input: Bool) -> TimeInterval {
        guard manualMode == nil, let ioUnit else { return 0 }
        var device: AudioDeviceID = 0
        var size: UInt32 = 4
        guard AudioUnitGetProperty(ioUnit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, &size) == noErr else { return 0 }
        func value(_ selector: AudioObjectPropertySelector) -> UInt32 {
            var address = AudioObjectPropertyAddress(mSelector: selector, mScope: input ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput,
                                                     mElement: kAudioObjectPropertyElementMain)
            var v: UInt32 = 0
            var s: UInt32 = 4
            return AudioObjectGetPropertyData(device, &address, 0, nil, &s, &v) == noErr ? v : 0
        }
        let rate = outputNodeStorage?.outputFormat(forBus: 0).sampleRate ?? 0
        guard rate > 0 else { return 0 }
        return Double(value(kAudioDevicePropertyLatency) + value(kAudioDevicePropertyBufferFrameSize)) / rate
    }

    // MARK: Following the default device

    private func watchDefaultDevice() {
        guard deviceListener == nil else { return }
        let weakSelf = WeakEngine(self)
        let listener: AudioObjectPropertyListenerBlock = { _, _ in
            DispatchQueue.global().async { weakSelf.engine?.defaultDeviceChanged() }
        }
        deviceListener = listener
        Self.listenDefaultDevice(listener, add: true)
    }

    private static func listenDefaultDevice(_ listener: @escaping AudioObjectPropertyListenerBlock, add: Bool) {
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        if add {
            AudioObjectAddPropertyListenerBlock(AudioObjectID(kAudioObjectSystemObject), &address, nil, listener)
        } else {
            AudioObjectRemovePropertyListenerBlock(AudioObjectID(kAudioObjectSystemObject), &address, nil, listener)
        }
    }

    /// Moves the I/O unit to the new default output device (restarting if it was running) and posts
    /// AVAudioEngineConfigurationChange.
    private func defaultDeviceChanged() {
        let changed: Bool = withLock {
            guard manualMode == nil, let ioUnit else { return false }
            var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                                     mElement: kAudioObjectPropertyElementMain)
            var device: AudioDeviceID = 0, current: AudioDeviceID = 0
            var size: UInt32 = 4
            guard AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &device) == noErr else { return false }
            size = 4
            AudioUnitGetProperty(ioUnit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &current, &size)
            guard device != current, device != kAudioObjectUnknown else { return false }
            let wasRunning = running
            if prepared { stopGraph(uninitialize: true) }
            AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, 4)
            if wasRunning { try? start() }
            return true
        }
        if changed { NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self) }
    }
}

/// Disposes of a unit when released (for I/O units replaced while the render thread might still hold them).
final class UnitDisposer {
    let unit: AudioUnit
    init(_ unit: AudioUnit) { self.unit = unit }
    deinit { AudioComponentInstanceDispose(unit) }
}

/// The engine as a device listener holds it.
private final class WeakEngine: @unchecked Sendable {
    weak var engine: AVAudioEngine?
    init(_ engine: AVAudioEngine) { self.engine = engine }
}

/// What one extra pull is, for telling whether the list changed.
struct PullSignature: Equatable {
    let unit: AudioUnit
    let bus: UInt32
    let channels: Int
    let sink: ObjectIdentifier?
}
