import Foundation

/// A node of an AVAudioEngine: an audio unit with input and output buses, attached to at most one engine.
/// Formats are the unit's stream formats; taps copy a bus's output off the render thread.
open class AVAudioNode: NSObject, @unchecked Sendable {
    /// The unit doing the node's work (the output node's changes when manual rendering is switched on).
    var unit: AudioUnit
    /// The engine the node is attached to.
    weak var attachedEngine: AVAudioEngine?
    /// The node's node in the engine's AUGraph (valid while attached).
    var graphNode: AUNode = 0
    var taps: [Int: NodeTap] = [:]
    /// Whether the node disposes of its unit (the I/O nodes' units belong to the engine).
    var ownsUnit = true
    /// How this node mixes into the mixers it feeds (for the nodes that are AVAudioMixing sources).
    let mixing = MixingSettings()

    init(unit: AudioUnit) {
        self.unit = unit
        super.init()
    }

    /// A node on a new instance of the unit `description` finds (which must be registered).
    convenience init(description: AudioComponentDescription) {
        self.init(unit: Self.instantiate(description))
    }

    deinit {
        for tap in taps.values { tap.uninstall() }
        if ownsUnit { AudioComponentInstanceDispose(unit) }
    }

    /// A new instance of a registered unit; a missing built-in unit is a programming error.
    static func instantiate(_ description: AudioComponentDescription) -> AudioUnit {
        var d = description
        var unit: AudioUnit?
        guard let component = AudioComponentFindNext(nil, &d), AudioComponentInstanceNew(component, &unit) == noErr, let unit else {
            fatalError("AVFAudio: no audio unit \(OCAFormat.string(fromFourCharCode: description.componentType)) "
                       + OCAFormat.string(fromFourCharCode: description.componentSubType))
        }
        return unit
    }

    // MARK: Buses

    /// The unit bus behind a public input bus.
    func unitInputBus(_ bus: AVAudioNodeBus) -> UInt32 { UInt32(bus) }
    /// The unit bus behind a public output bus.
    func unitOutputBus(_ bus: AVAudioNodeBus) -> UInt32 { UInt32(bus) }

    /// The engine the node is attached to, if any.
    public var engine: AVAudioEngine? { attachedEngine }

    /// How many input buses the node has.
    public var numberOfInputs: Int { elementCount(kAudioUnitScope_Input) }
    /// How many output buses the node has.
    public var numberOfOutputs: Int { elementCount(kAudioUnitScope_Output) }

    func elementCount(_ scope: AudioUnitScope) -> Int {
        var count: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr ? Int(count) : 0
    }

    /// The format of an input bus.
    public func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        format(kAudioUnitScope_Input, unitInputBus(bus))
    }

    /// The format of an output bus.
    public func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        format(kAudioUnitScope_Output, unitOutputBus(bus))
    }

    func streamDescription(_ scope: AudioUnitScope, _ element: UInt32) -> AudioStreamBasicDescription? {
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f, &size) == noErr ? f : nil
    }

    func format(_ scope: AudioUnitScope, _ element: UInt32) -> AVAudioFormat {
        if var f = streamDescription(scope, element), f.mChannelsPerFrame > 0, let format = AVAudioFormat(streamDescription: &f) {
            return format
        }
        // Apple answers an empty format for a bus that has none: 0 Hz, 0 channels.
        var empty = OCAFormat.canonical(sampleRate: 0, channels: 0)
        empty.mBytesPerFrame = 4
        empty.mBytesPerPacket = 4
        return AVAudioFormat(streamDescription: &empty)!
    }

    /// Sets a bus's stream format; false when the unit refuses it.
    @discardableResult
    func setFormat(_ format: AVAudioFormat, _ scope: AudioUnitScope, _ element: UInt32) -> Bool {
        var f = format.streamDescription.pointee
        if let current = streamDescription(scope, element), Self.same(current, f) { return true }
        return AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f,
                                    UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr
    }

    /// Whether two descriptions are byte for byte the same.
    static func same(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in x.elementsEqual(y) } }
    }

    /// Sets the format an output bus produces (nodes whose input follows, such as players, override this).
    @discardableResult
    func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus = 0) -> Bool {
        setFormat(format, kAudioUnitScope_Output, unitOutputBus(bus))
    }

    /// Sets the format an input bus takes.
    @discardableResult
    func setInputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus = 0) -> Bool {
        setFormat(format, kAudioUnitScope_Input, unitInputBus(bus))
    }

    /// The name of an input bus, if it has one.
    public func name(forInputBus bus: AVAudioNodeBus) -> String? { elementName(kAudioUnitScope_Input, unitInputBus(bus)) }
    /// The name of an output bus, if it has one.
    public func name(forOutputBus bus: AVAudioNodeBus) -> String? { elementName(kAudioUnitScope_Output, unitOutputBus(bus)) }

    private func elementName(_ scope: AudioUnitScope, _ element: UInt32) -> String? {
        var name: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_ElementName, scope, element, &name, &size) == noErr, let name else { return nil }
        return name.takeRetainedValue() as String
    }

    // MARK: Taps

    /// Hands `block` buffers of about `bufferSize` frames of what the bus outputs, with their times, on a
    /// service thread. One tap per bus. A tap on a node that feeds nothing still sees it rendered (the engine
    /// pulls it each cycle).
    public func installTap(onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
                           block tapBlock: @escaping AVAudioNodeTapBlock) {
        guard taps[bus] == nil else { return }
        let busFormat = outputFormat(forBus: bus)
        let tapFormat = busFormat.channelCount > 0 ? busFormat : (format ?? busFormat)
        let tap = NodeTap(unit: unit, bus: unitOutputBus(bus), format: tapFormat.isStandard ? tapFormat
                          : AVAudioFormat(standardFormatWithSampleRate: tapFormat.sampleRate, channels: max(tapFormat.channelCount, 1))!,
                          bufferSize: Int(bufferSize), block: tapBlock)
        taps[bus] = tap
        if let engine = attachedEngine, engine.isInManualRenderingMode, engine.manualRenderingMode == .offline {
            tap.waitsForRoom.store(true, ordering: .relaxed)
        }
        tap.install()
        attachedEngine?.tapsChanged(self)
    }

    /// Removes the bus's tap.
    public func removeTap(onBus bus: AVAudioNodeBus) {
        guard let tap = taps.removeValue(forKey: bus) else { return }
        tap.uninstall()
        attachedEngine?.retire(tap)
        attachedEngine?.tapsChanged(self)
    }

    // MARK: State

    /// Clears the unit's state (delay lines, reverb tails, scheduled material).
    public func reset() {
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
    }

    /// The time of the engine's last render, while the engine runs and the node takes part.
    public var lastRenderTime: AVAudioTime? { attachedEngine?.lastRenderTime(of: self) }

    private var bridge: (unit: AudioUnit, au: AUAudioUnit)?

    /// The node's unit as an AUAudioUnit (a version 3 unit itself, or a bridge over the version 2 unit): its
    /// parameter tree, busses, presets and state.
    public var auAudioUnit: AUAudioUnit {
        if let bridge, bridge.unit == unit { return bridge.au }
        guard let au = AUAudioUnit.unit(forInstance: unit) else {
            fatalError("AVFAudio: the node's unit has no component")  // every node's unit comes from a registered component
        }
        bridge = (unit, au)
        return au
    }

    /// The unit's processing latency in seconds.
    public var latency: TimeInterval {
        var value: Double = 0
        var size = UInt32(MemoryLayout<Double>.size)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &value, &size) == noErr ? value : 0
    }

    /// The latency from this node's output to the device's output, in seconds.
    public var outputPresentationLatency: TimeInterval { attachedEngine?.presentationLatency(from: self) ?? 0 }

    /// What the engine does when the node is attached (players join the service thread, ...).
    func didAttach(to engine: AVAudioEngine) {}
    /// What the engine does when the node is detached.
    func didDetach() {}
    /// Whether the node's output format follows its input (effects): connecting its input sets its output too.
    var outputFollowsInput: Bool { false }
}
