import Foundation

/// Connecting and disconnecting: the client's connections are the model; the graph is rewired from it, with a
/// converter wherever a destination cannot take its source's format and a splitter wherever a source bus feeds
/// several destinations.
extension AVAudioEngine {
    static let converterDescription = AVAudioPlayerNode.description
    static let splitterDescription = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiSplitter,
                                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Connects `node1`'s output bus to `node2`'s input bus in `format` (nil: node1's output format), replacing
    /// what fed that input and what that output fed.
    public func connect(_ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus, toBus bus2: AVAudioNodeBus, format: AVAudioFormat?) {
        connect(node1, to: [(node2, bus2)], fromBus: bus1, format: format)
    }

    /// Connects `node1`'s output bus 0 to `node2` (a mixer's next free input, else input 0).
    public func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        withLock {
            let bus = node2 is AVAudioMixerNode || node2 is AVAudioEnvironmentNode ? nextAvailableInputBus(of: node2) : 0
            connect(node1, to: [(node2, bus)], fromBus: 0, format: format)
        }
    }

    /// Connects one output bus to several inputs (fan-out), replacing what fed them and what the bus fed.
    public func connect(_ sourceNode: AVAudioNode, to destNodes: [AVAudioConnectionPoint], fromBus sourceBus: AVAudioNodeBus, format: AVAudioFormat?) {
        connect(sourceNode, to: destNodes.compactMap { point in point.node.map { ($0, point.bus) } }, fromBus: sourceBus, format: format)
    }

    private func connect(_ source: AVAudioNode, to dests: [(AVAudioNode, AVAudioNodeBus)], fromBus bus: AVAudioNodeBus, format: AVAudioFormat?) {
        withLock {
            guard source.attachedEngine === self, dests.allSatisfy({ $0.0.attachedEngine === self }) else { return }
            let requested = format ?? source.outputFormat(forBus: bus)
            // Break what this connection replaces, and let the render thread see it first (an input with a
            // source cannot change format while the graph runs).
            var touched: Set<SourceKey> = [SourceKey(node: ObjectIdentifier(source), bus: bus)]
            for (dest, destBus) in dests {
                for c in connections where c.dest === dest && c.destBus == destBus {
                    touched.insert(c.key)
                    remove(c)
                }
            }
            for c in connections where c.source === source && c.sourceBus == bus { remove(c) }
            for key in touched { rewire(key) }
            update()

            for (dest, destBus) in dests {
                ensureInput(dest, bus: destBus)
                connections.append(EngineConnection(source: source, sourceBus: bus, dest: dest, destBus: destBus, format: requested))
            }
            configure(SourceKey(node: ObjectIdentifier(source), bus: bus), format: requested)
            update()
            publishPulls()
            applyMixing(of: source)
        }
    }

    /// Disconnects whatever feeds `node`'s input bus.
    public func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        disconnect { $0.dest === node && $0.destBus == bus }
    }

    /// Disconnects every input of `node`.
    public func disconnectNodeInput(_ node: AVAudioNode) {
        disconnect { $0.dest === node }
    }

    /// Disconnects what `node`'s output bus feeds.
    public func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        disconnect { $0.source === node && $0.sourceBus == bus }
    }

    /// Disconnects every output of `node`.
    public func disconnectNodeOutput(_ node: AVAudioNode) {
        disconnect { $0.source === node }
    }

    /// Removes the connections `matching` picks and rewires what fed them.
    private func disconnect(_ matching: (EngineConnection) -> Bool) {
        withLock {
            let gone = connections.filter(matching)
            gone.forEach(remove)
            Set(gone.map(\.key)).forEach(rewire)
            update()
            publishPulls()
        }
    }

    /// What feeds `node`'s input bus.
    public func inputConnectionPoint(for node: AVAudioNode, inputBus bus: AVAudioNodeBus) -> AVAudioConnectionPoint? {
        withLock {
            connections.first { $0.dest === node && $0.destBus == bus }.map { AVAudioConnectionPoint(node: $0.source, bus: $0.sourceBus) }
        }
    }

    /// What `node`'s output bus feeds.
    public func outputConnectionPoints(for node: AVAudioNode, outputBus bus: AVAudioNodeBus) -> [AVAudioConnectionPoint] {
        withLock {
            connections.filter { $0.source === node && $0.sourceBus == bus }.map { AVAudioConnectionPoint(node: $0.dest, bus: $0.destBus) }
        }
    }

    /// The lowest input of `mixer` with nothing connected.
    func nextAvailableInputBus(of mixer: AVAudioNode) -> AVAudioNodeBus {
        withLock {
            let used = Set(connections.filter { $0.dest === mixer }.map(\.destBus))
            return (0...).first { !used.contains($0) }!
        }
    }

    // MARK: Realising connections

    /// Drops a connection from the model and its converter from the graph (the destination input is cleared).
    private func remove(_ c: EngineConnection) {
        connections.removeAll { $0 === c }
        AUGraphDisconnectNodeInput(graph, c.dest.graphNode, c.dest.unitInputBus(c.destBus))
        if let adapter = c.adapter {
            AUGraphRemoveNode(graph, adapter.graphNode)
            retired.append(adapter)
            c.adapter = nil
        }
    }

    /// Settles the formats of every connection from one source bus: the source makes `format` if it can; each
    /// destination takes what it can, through a converter when that differs.
    private func configure(_ key: SourceKey, format requested: AVAudioFormat) {
        let group = connections.filter { $0.key == key }
        guard let source = group.first?.source else { return }
        let bus = group[0].sourceBus
        let rateBefore = source.outputFormat(forBus: bus).sampleRate
        if !source.setOutputFormat(requested, bus: bus) { _ = formatChangeNeedsReset(source) && source.setOutputFormat(requested, bus: bus) }
        let made = source.outputFormat(forBus: bus)
        // A mixer mixes at its output's rate: connected at a new rate, what feeds it is settled again (its
        // inputs were made, with their converters, for the old one).
        if source is AVAudioMixerNode, made.sampleRate != rateBefore {
            for inputKey in Set(connections.filter({ $0.dest === source }).map(\.key)) {
                if let format = connections.first(where: { $0.key == inputKey })?.format { configure(inputKey, format: format) }
            }
        }
        for c in group {
            c.format = made
            let taken = acceptedFormat(c.dest, bus: c.destBus, offered: made)
            if let adapter = c.adapter {
                AUGraphRemoveNode(graph, adapter.graphNode)
                retired.append(adapter)
                c.adapter = nil
            }
            if !taken.isEqual(made) {
                let adapter = AVAudioNode(description: Self.converterDescription)
                adapter.setFormat(made, kAudioUnitScope_Input, 0)
                adapter.setFormat(taken, kAudioUnitScope_Output, 0)
                adapter.graphNode = addGraphNode(adapter.unit)
                c.adapter = adapter
            }
            if c.dest.outputFollowsInput { follow(c.dest, input: taken) }
        }
        rewire(key)
    }

    /// Gives a mixer more inputs when a connection names one beyond them (possible while the engine is not running).
    private func ensureInput(_ dest: AVAudioNode, bus: AVAudioNodeBus) {
        guard dest is AVAudioMixerNode || dest is AVAudioEnvironmentNode else { return }
        let count = dest.elementCount(kAudioUnitScope_Input)
        guard bus >= count else { return }
        var wanted = UInt32(max(bus + 1, 2 * count))
        if AudioUnitSetProperty(dest.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &wanted, 4) != noErr,
           formatChangeNeedsReset(dest) {
            AudioUnitSetProperty(dest.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &wanted, 4)
        }
    }

    /// The format `dest`'s input takes when offered `offered` (set on it when it can be).
    private func acceptedFormat(_ dest: AVAudioNode, bus: AVAudioNodeBus, offered: AVAudioFormat) -> AVAudioFormat {
        var wanted = offered
        if dest is AVAudioOutputNode, let manual = manualFormatStorage {
            wanted = manual
        } else if dest is AVAudioMixerNode || dest is AVAudioEnvironmentNode {
            // Mixers take mono or stereo at their output's rate (the environment up to twice it, but the same is simplest).
            let rate = dest.outputFormat(forBus: 0).sampleRate
            if offered.sampleRate != rate || offered.channelCount > 2 || !offered.isStandard {
                wanted = AVAudioFormat(standardFormatWithSampleRate: rate, channels: min(offered.channelCount, 2))!
            }
        } else if !offered.isStandard && !(dest is AVAudioOutputNode) {
            wanted = AVAudioFormat(standardFormatWithSampleRate: offered.sampleRate, channels: offered.channelCount)!
        }
        if dest.setInputFormat(wanted, bus: bus) { return wanted }
        if formatChangeNeedsReset(dest), dest.setInputFormat(wanted, bus: bus) { return wanted }
        return dest.inputFormat(forBus: bus)
    }

    /// A node whose output follows its input (effects) takes the new input format on its output too, and what
    /// it feeds is settled again.
    private func follow(_ node: AVAudioNode, input: AVAudioFormat) {
        let current = node.outputFormat(forBus: 0)
        guard !current.isEqual(input) else { return }
        guard node.setOutputFormat(input, bus: 0) || (formatChangeNeedsReset(node) && node.setOutputFormat(input, bus: 0)) else { return }
        let key = SourceKey(node: ObjectIdentifier(node), bus: 0)
        if connections.contains(where: { $0.key == key }) { configure(key, format: input) }
    }

    /// A unit refused a format because it is initialized: while the engine is not running, uninitialize the graph
    /// (start initializes it again) and say the change can be retried.
    private func formatChangeNeedsReset(_ node: AVAudioNode) -> Bool {
        guard prepared, !running else { return false }
        AUGraphUninitialize(graph)
        prepared = false
        return true
    }

    /// Makes the graph's interactions for one source bus match the model.
    func rewire(_ key: SourceKey) {
        let group = connections.filter { $0.key == key }
        if let old = splitters.removeValue(forKey: key) {
            AUGraphRemoveNode(graph, old.graphNode)
            retired.append(old)
        }
        guard let source = group.first?.source else { return }
        let from = (source.graphNode, source.unitOutputBus(group[0].sourceBus))
        if group.count > 1 {
            let splitter = AVAudioNode(description: Self.splitterDescription)
            var count = UInt32(group.count)
            AudioUnitSetProperty(splitter.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, &count, 4)
            splitter.setFormat(group[0].format, kAudioUnitScope_Input, 0)
            for i in 0..<group.count { splitter.setFormat(group[0].format, kAudioUnitScope_Output, UInt32(i)) }
            splitter.graphNode = addGraphNode(splitter.unit)
            splitters[key] = splitter
            AUGraphConnectNodeInput(graph, from.0, from.1, splitter.graphNode, 0)
        }
        for (i, c) in group.enumerated() {
            var feed = group.count > 1 ? (splitters[key]!.graphNode, UInt32(i)) : from
            if let adapter = c.adapter {
                AUGraphConnectNodeInput(graph, feed.0, feed.1, adapter.graphNode, 0)
                feed = (adapter.graphNode, 0)
            }
            AUGraphConnectNodeInput(graph, feed.0, feed.1, c.dest.graphNode, c.dest.unitInputBus(c.destBus))
        }
    }

    /// Rewires every connection touching `nodes` (their graph nodes were replaced).
    func rewireAll(involving nodes: [AVAudioNode]) {
        let keys = Set(connections.filter { c in nodes.contains { $0 === c.source || $0 === c.dest } }.map(\.key))
        for key in keys {
            if let format = connections.first(where: { $0.key == key })?.format { configure(key, format: format) }
        }
        update()
        publishPulls()
    }

    // MARK: Mixing

    /// Applies a source's AVAudioMixing settings to every mixer (and environment) input it feeds.
    func applyMixing(of source: AVAudioNode) {
        withLock {
            for c in connections where c.source === source && (c.dest is AVAudioMixerNode || c.dest is AVAudioEnvironmentNode) {
                applyMixing(destinationSettings[DestinationKey(c)] ?? source.mixing, toMixer: c.dest, bus: c.destBus)
            }
        }
    }

    /// Applies every source's settings to the inputs of one mixer or environment.
    func applyMixingToInputs(of mixer: AVAudioNode) {
        withLock {
            for c in connections where c.dest === mixer {
                applyMixing(destinationSettings[DestinationKey(c)] ?? c.source.mixing, toMixer: mixer, bus: c.destBus)
            }
        }
    }

    /// Sets one mixer input's volume and pan (an environment input's place, algorithm, rate and volume).
    func applyMixing(_ settings: MixingSettings, toMixer mixer: AVAudioNode, bus: AVAudioNodeBus) {
        if let environment = mixer as? AVAudioEnvironmentNode {
            environment.apply(settings, bus: bus)
            return
        }
        guard mixer is AVAudioMixerNode else { return }
        AudioUnitSetParameter(mixer.unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, UInt32(bus), settings.volume, 0)
        AudioUnitSetParameter(mixer.unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, UInt32(bus), settings.pan, 0)
    }

    /// The per-destination settings object for a source on one mixer input.
    func mixingDestination(source: AVAudioNode, mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination? {
        withLock {
            guard let c = connections.first(where: { $0.source === source && $0.dest === mixer && $0.destBus == bus }) else { return nil }
            let destination = AVAudioMixingDestination(connectionPoint: AVAudioConnectionPoint(node: mixer, bus: bus), engine: self,
                                                       from: destinationSettings[DestinationKey(c)] ?? source.mixing)
            destinationSettings[DestinationKey(c)] = destination.settings
            return destination
        }
    }
}

/// A connection's destination input, for per-destination mixing settings.
struct DestinationKey: Hashable {
    let source: ObjectIdentifier
    let mixer: ObjectIdentifier
    let bus: Int

    init(_ c: EngineConnection) {
        source = ObjectIdentifier(c.source)
        mixer = ObjectIdentifier(c.dest)
        bus = c.destBus
    }
}
