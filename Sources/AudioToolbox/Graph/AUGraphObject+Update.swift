import COCASupport
import Foundation

/// Realising the graph's interactions in its units: all at once at initialize, and incrementally
/// at AUGraphUpdate, where changes to units that may be rendering go through a GraphRenderPlan that
/// the render thread adopts at the start of a slice.
extension AUGraphObject {
    static let updateTimeout: TimeInterval = 2

    /// Nodes ordered so every connection's source comes before its destination.
    func topologicalOrder() -> [Node] {
        var incoming: [AUNode: Int] = [:]
        for n in nodes { incoming[n.id] = 0 }
        for case let .connection(_, _, d, _) in interactions { incoming[d, default: 0] += 1 }
        var ready = nodes.filter { incoming[$0.id] == 0 }
        var order: [Node] = []
        while !ready.isEmpty {
            let n = ready.removeFirst()
            order.append(n)
            for case let .connection(s, _, d, _) in interactions where s == n.id {
                incoming[d]! -= 1
                if incoming[d] == 0, let dest = node(d) { ready.append(dest) }
            }
        }
        return order
    }

    /// Sets one interaction on its destination unit through the unit's properties (for units the
    /// render thread cannot reach yet).
    func applyDirectly(_ interaction: Interaction) -> OSStatus {
        guard let dest = node(interaction.dest), let unit = dest.unit else { return kAUGraphErr_NodeNotFound }
        switch interaction {
        case let .connection(s, sb, _, db):
            guard let source = node(s)?.renderingUnit else { return kAUGraphErr_InvalidAudioUnit }
            var c = AudioUnitConnection(sourceAudioUnit: source, sourceOutputNumber: sb, destInputNumber: db)
            return AudioUnitSetProperty(unit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, db, &c,
                                        UInt32(MemoryLayout<AudioUnitConnection>.size))
        case let .callback(_, db, cb):
            var callback = cb
            return AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, db, &callback,
                                        UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
    }

    /// Removes whatever feeds an input, through the unit's properties.
    func clearDirectly(_ dest: Node, _ bus: UInt32) -> OSStatus {
        guard let unit = dest.unit else { return kAUGraphErr_NodeNotFound }
        var cb = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        return AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &cb,
                                    UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// Brings uninitialized nodes that take part in interactions into the graph: their inputs are set
    /// directly (nothing renders them yet), then they are initialized, sources first.
    func initializeNewNodes() -> OSStatus {
        for n in topologicalOrder() where !n.initialized && isInvolved(n) {
            if let child = n.subgraph {
                let status = child.initialize()
                guard status == noErr else { return status }
                n.initialized = true
                continue
            }
            for interaction in interactions where interaction.dest == n.id {
                let status = applyDirectly(interaction)
                guard status == noErr else { return status }
            }
            guard let unit = n.unit else { return kAUGraphErr_InvalidAudioUnit }
            let status = AudioUnitInitialize(unit)
            guard status == noErr else { return status }
            n.initialized = true
        }
        return noErr
    }

    /// AUGraphInitialize's realisation: nothing renders yet, so everything is set directly.
    func realizeStatically() -> OSStatus {
        initializeNewNodes()
    }

    /// AUGraphUpdate. Returns the status and whether every edit has been applied.
    func update(wait: Bool) -> (OSStatus, Bool) {
        guard isInitialized else {
            // Edits to an uninitialized graph are already the model; initialize realises them.
            return (noErr, true)
        }
        if let plan = planInFlight, !plan.isAdopted {
            guard wait, waitForAdoption(plan) else {
                return (wait ? kAUGraphErr_CannotDoInCurrentContext : noErr, false)
            }
        }
        finishPlanIfAdopted(force: false)
        guard eventsToProcess else { return (noErr, true) }

        let status = publishChanges()
        lastUpdateError = status
        guard status == noErr else { return (status, false) }
        if let plan = planInFlight, !plan.isAdopted {
            guard wait, waitForAdoption(plan) else {
                return (wait ? kAUGraphErr_CannotDoInCurrentContext : noErr, false)
            }
        }
        finishPlanIfAdopted(force: false)
        return (noErr, true)
    }

    /// Validates the edits, initializes new nodes, and hands the changes to live units over in one
    /// plan. Nothing reaches the render thread unless every check passed.
    private func publishChanges() -> OSStatus {
        // Validate connections into live units first: their formats must already agree.
        for case let .connection(s, sb, d, db) in interactions where !applied.contains(.connection(source: s, sourceBus: sb, dest: d, destBus: db)) {
            guard let dest = node(d), let source = node(s) else { return kAUGraphErr_NodeNotFound }
            // New destinations take the source's format when they are initialized below.
            guard dest.initialized, let destUnit = dest.unit else { continue }
            guard let sourceUnit = source.renderingUnit else { return kAUGraphErr_InvalidAudioUnit }
            var sf = AudioStreamBasicDescription(), df = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            var status = AudioUnitGetProperty(sourceUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, sb, &sf, &size)
            guard status == noErr else { return status }
            size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            status = AudioUnitGetProperty(destUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, db, &df, &size)
            guard status == noErr else { return status == kAudioUnitErr_InvalidElement ? kAUGraphErr_InvalidConnection : status }
            guard sf.isBitwiseEqual(to: df) else { return kAudioUnitErr_FormatNotSupported }
        }
        let status = initializeNewNodes()
        guard status == noErr else { return status }

        // Inputs of live units whose source changes.
        var changes: [(AUInputElement, AUInputElement.Source)] = []
        var keys: [(AUNode, UInt32)] = []
        for i in interactions + applied where !keys.contains(where: { $0 == (i.dest, i.destBus) }) {
            keys.append((i.dest, i.destBus))
        }
        for (d, bus) in keys {
            let want = interactions.first { $0.dest == d && $0.destBus == bus }
            let have = applied.first { $0.dest == d && $0.destBus == bus }
            guard want != have, let dest = node(d), dest.initialized, let unit = dest.unit else { continue }
            if let base = AudioUnitObject.live(unit) as? AUBase {
                guard Int(bus) < base.inputs.count else { return kAUGraphErr_InvalidConnection }
                changes.append((base.inputs[Int(bus)], source(for: want)))
            } else {
                // A client plug-in manages its own thread safety: set its property directly.
                let status = want.map(applyDirectly) ?? clearDirectly(dest, bus)
                guard status == noErr else { return status }
            }
        }
        applied = interactions
        eventsToProcess = false
        guard !changes.isEmpty || !pendingDisposal.isEmpty else { return noErr }

        let plan = GraphRenderPlan(changes)
        planInFlight = plan
        if isRunning, oca_in_render() == 0, let head = outputNode?.unit, let base = AudioUnitObject.live(head) as? AUBase {
            base.pendingPlan.store(Unmanaged.passUnretained(plan).toOpaque(), ordering: .releasing)
        } else {
            // Not rendering, or called on the render thread itself (a render notification): nothing
            // else is pulling the units, so adopt now.
            plan.adopt()
        }
        return noErr
    }

    /// The input source an interaction stands for.
    private func source(for interaction: Interaction?) -> AUInputElement.Source {
        switch interaction {
        case let .connection(s, sb, _, _)?:
            return .init(kind: .connection, sourceUnit: node(s)?.renderingUnit, sourceBus: sb)
        case let .callback(_, _, cb)? where cb.inputProc != nil:
            return .init(kind: .callback, callback: cb.inputProc, refCon: cb.inputProcRefCon)
        default:
            return .init()
        }
    }

    private func waitForAdoption(_ plan: GraphRenderPlan) -> Bool {
        let deadline = Date().addingTimeInterval(Self.updateTimeout)
        while !plan.isAdopted {
            if Date() > deadline { return false }
            usleep(100)
        }
        return true
    }

    /// Completes an adopted plan: returns replaced sources to their cells and disposes removed
    /// nodes. With `force` (the graph is stopping), takes back a plan no render thread adopted.
    func finishPlanIfAdopted(force: Bool) {
        guard let plan = planInFlight else {
            if force { for n in pendingDisposal { dispose(n) }; pendingDisposal.removeAll() }
            return
        }
        if !plan.isAdopted {
            guard force else { return }
            var reclaimed = true
            if let head = outputNode?.unit, let base = AudioUnitObject.live(head) as? AUBase {
                reclaimed = base.pendingPlan.compareExchange(expected: Unmanaged.passUnretained(plan).toOpaque(), desired: nil,
                                                             ordering: .acquiringAndReleasing).exchanged
            }
            if reclaimed {
                plan.adopt()
            } else {
                // A render thread took the plan and is adopting it now.
                while !plan.isAdopted { usleep(50) }
            }
        }
        plan.finish()
        planInFlight = nil
        for n in pendingDisposal { dispose(n) }
        pendingDisposal.removeAll()
    }
}
