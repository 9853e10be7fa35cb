import OCAProperty
import Foundation

/// What an `AUGraph` handle points at: nodes (units or subgraphs), their interactions (connections
/// and input callbacks) and the lifecycle closed -> open -> initialized -> running. Edits made while
/// the graph is initialized are recorded in the model and realised by `AUGraphUpdate` (see
/// AUGraphObject+Update.swift); the render thread adopts them through a GraphRenderPlan.
/// Every method runs under the graph's lock, off the render thread.
final class AUGraphObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    final class Node {
        let id: AUNode
        let description: AudioComponentDescription
        /// The node's unit once the graph is open (nil for subgraph nodes).
        var unit: AudioUnit?
        /// Whether the graph has initialized this node's unit (or subgraph).
        var initialized = false
        /// A unit the client made and keeps (AVAudioEngine's nodes): the graph never disposes of it.
        var external = false
        let subgraph: AUGraphObject?

        init(id: AUNode, description: AudioComponentDescription, subgraph: AUGraphObject? = nil) {
            self.id = id
            self.description = description
            self.subgraph = subgraph
        }

        var isOutput: Bool { subgraph == nil && description.componentType == kAudioUnitType_Output }

        /// The unit whose output feeds a connection from this node (a subgraph's head).
        var renderingUnit: AudioUnit? { subgraph?.outputNode?.unit ?? unit }
    }

    /// One interaction, keyed by its destination input (each input has at most one).
    enum Interaction: Equatable {
        case connection(source: AUNode, sourceBus: UInt32, dest: AUNode, destBus: UInt32)
        case callback(dest: AUNode, destBus: UInt32, callback: AURenderCallbackStruct)

        var dest: AUNode {
            switch self {
            case .connection(_, _, let d, _), .callback(let d, _, _): d
            }
        }
        var destBus: UInt32 {
            switch self {
            case .connection(_, _, _, let b), .callback(_, let b, _): b
            }
        }
        func involves(_ node: AUNode) -> Bool {
            if case .connection(let s, _, _, _) = self, s == node { return true }
            return dest == node
        }

        static func == (a: Interaction, b: Interaction) -> Bool {
            switch (a, b) {
            case let (.connection(s1, sb1, d1, db1), .connection(s2, sb2, d2, db2)):
                return s1 == s2 && sb1 == sb2 && d1 == d2 && db1 == db2
            case let (.callback(d1, b1, c1), .callback(d2, b2, c2)):
                return d1 == d2 && b1 == b2 && sameCallback(c1, c2)
            default:
                return false
            }
        }

        static func sameCallback(_ a: AURenderCallbackStruct, _ b: AURenderCallbackStruct) -> Bool {
            guard a.inputProcRefCon == b.inputProcRefCon else { return false }
            switch (a.inputProc, b.inputProc) {
            case (nil, nil): return true
            case let (x?, y?): return sameFunction(x, y)
            default: return false
            }
        }

        var asAUNodeInteraction: AUNodeInteraction {
            var i = AUNodeInteraction()
            switch self {
            case let .connection(s, sb, d, db):
                i.nodeInteractionType = kAUNodeInteraction_Connection
                i.nodeInteraction.connection = AUNodeConnection(sourceNode: s, sourceOutputNumber: sb, destNode: d, destInputNumber: db)
            case let .callback(d, db, cb):
                i.nodeInteractionType = kAUNodeInteraction_InputCallback
                i.nodeInteraction.inputCallback = AUNodeRenderCallback(destNode: d, destInputNumber: db, cback: cb)
            }
            return i
        }
    }

    let lock = NSRecursiveLock()
    private(set) var nodes: [Node] = []
    /// The interactions as edited (what the graph should be).
    var interactions: [Interaction] = []
    /// The interactions realised in the units (what renders now, or will after the plan in flight).
    var applied: [Interaction] = []
    private var nextNodeID: AUNode = 1
    private(set) var isOpen = false
    private(set) var isInitialized = false
    private(set) var isRunning = false
    /// Edits since the last update that the units do not reflect yet.
    var eventsToProcess = false
    var lastUpdateError: OSStatus = noErr
    /// Units of removed nodes, disposed once the render thread can no longer reach them.
    var pendingDisposal: [Node] = []
    /// A published plan the render thread has not adopted yet.
    var planInFlight: GraphRenderPlan?
    /// Graph render notifications, installed on the output unit when it exists.
    var renderNotifies: [(AURenderCallback, UnsafeMutableRawPointer?)] = []
    /// Set for a subgraph: it renders only through its parent.
    weak var parent: AUGraphObject?

    /// The handle clients hold (the object's address; registered in `handles` by NewAUGraph, or by the
    /// parent for a subgraph).
    var handle: AUGraph { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The output unit, when it is one of ours (for load measurement and render plans).
    var headBase: AUBase? { outputNode?.unit.flatMap { AudioUnitObject.live($0) as? AUBase } }

    // MARK: Nodes

    func node(_ id: AUNode) -> Node? { nodes.first { $0.id == id } }

    var outputNode: Node? { nodes.first { $0.isOutput } }

    func addNode(_ description: AudioComponentDescription) -> Result<AUNode, OSStatusError> {
        var d = description
        guard AudioComponentFindNext(nil, &d) != nil else { return .failure(OSStatusError(kAUGraphErr_InvalidAudioUnit)) }
        let node = Node(id: nextNodeID, description: description)
        if node.isOutput && outputNode != nil { return .failure(OSStatusError(kAUGraphErr_OutputNodeErr)) }
        if isOpen {
            let status = instantiate(node)
            guard status == noErr else { return .failure(OSStatusError(status)) }
        }
        nextNodeID += 1
        nodes.append(node)
        return .success(node.id)
    }

    /// Adds a node for a unit the caller made and keeps owning.
    func addNode(existing unit: AudioUnit) -> Result<AUNode, OSStatusError> {
        let component = AudioComponentInstanceGetComponent(unit)
        var description = AudioComponentDescription()
        AudioComponentGetDescription(component, &description)
        let node = Node(id: nextNodeID, description: description)
        if node.isOutput && outputNode != nil { return .failure(OSStatusError(kAUGraphErr_OutputNodeErr)) }
        node.unit = unit
        node.external = true
        if node.isOutput {
            for (proc, refCon) in renderNotifies { AudioUnitAddRenderNotify(unit, proc, refCon) }
        }
        nextNodeID += 1
        nodes.append(node)
        return .success(node.id)
    }

    func addSubgraphNode() -> AUNode {
        let child = AUGraphObject()
        child.parent = self
        _ = AUGraphObject.handles.add(child)  // clients reach it through AUGraphGetNodeInfoSubGraph
        let node = Node(id: nextNodeID, description: AudioComponentDescription(), subgraph: child)
        nextNodeID += 1
        nodes.append(node)
        if isOpen { _ = child.open() }
        return node.id
    }

    func removeNode(_ id: AUNode) -> OSStatus {
        guard let index = nodes.firstIndex(where: { $0.id == id }) else { return kAUGraphErr_NodeNotFound }
        let node = nodes[index]
        if node.isOutput && isRunning { return kAUGraphErr_OutputNodeErr }
        nodes.remove(at: index)
        interactions.removeAll { $0.involves(id) }
        if isInitialized {
            // The render thread may still reach the unit until the next update has been adopted.
            pendingDisposal.append(node)
            eventsToProcess = true
        } else {
            applied.removeAll { $0.involves(id) }
            dispose(node)
        }
        return noErr
    }

    private func instantiate(_ node: Node) -> OSStatus {
        if let child = node.subgraph { return child.open() }
        var d = node.description
        guard let component = AudioComponentFindNext(nil, &d) else { return kAUGraphErr_InvalidAudioUnit }
        var unit: AudioUnit?
        let status = AudioComponentInstanceNew(component, &unit)
        guard status == noErr, let unit else { return status == noErr ? kAUGraphErr_InvalidAudioUnit : status }
        node.unit = unit
        if node.isOutput {
            for (proc, refCon) in renderNotifies { AudioUnitAddRenderNotify(unit, proc, refCon) }
        }
        return noErr
    }

    /// Releases a node's unit; a subgraph node is closed, or destroyed with `destroy`.
    func dispose(_ node: Node, destroy: Bool = true) {
        if let child = node.subgraph {
            if destroy {
                child.disposeAll()
                _ = AUGraphObject.handles.remove(UnsafeMutableRawPointer(child.handle), as: AUGraphObject.self)
            } else {
                _ = child.close()
            }
            node.initialized = false
            return
        }
        if let unit = node.unit {
            if node.initialized { AudioUnitUninitialize(unit) }
            if node.external {
                // The client's unit: uninitialized, never disposed; kept while the node exists.
                if destroy { node.unit = nil }
                node.initialized = false
                return
            }
            AudioComponentInstanceDispose(unit)
        }
        node.unit = nil
        node.initialized = false
    }

    // MARK: Interactions

    /// Adds or replaces the interaction on its destination input.
    func setInteraction(_ interaction: Interaction) -> OSStatus {
        guard let dest = node(interaction.dest) else { return kAUGraphErr_NodeNotFound }
        if dest.subgraph != nil { return kAUGraphErr_InvalidConnection }  // a subgraph has no inputs
        if case .connection(let source, _, let destID, _) = interaction {
            guard node(source) != nil else { return kAUGraphErr_NodeNotFound }
            if source == destID || reaches(from: destID, to: source) { return kAUGraphErr_InvalidConnection }
        }
        interactions.removeAll { $0.dest == interaction.dest && $0.destBus == interaction.destBus }
        interactions.append(interaction)
        if isInitialized { eventsToProcess = true }
        return noErr
    }

    /// Whether audio flows from `a` to `b` through existing connections (a new b -> a would loop).
    private func reaches(from a: AUNode, to b: AUNode) -> Bool {
        var frontier = [a], seen: Set<AUNode> = [a]
        while let n = frontier.popLast() {
            if n == b { return true }
            for case let .connection(s, _, d, _) in interactions where s == n && !seen.contains(d) {
                seen.insert(d)
                frontier.append(d)
            }
        }
        return false
    }

    func disconnect(_ dest: AUNode, _ bus: UInt32) -> OSStatus {
        guard node(dest) != nil else { return kAUGraphErr_NodeNotFound }
        let before = interactions.count
        interactions.removeAll { $0.dest == dest && $0.destBus == bus }
        guard interactions.count < before else { return kAUGraphErr_InvalidConnection }
        if isInitialized { eventsToProcess = true }
        return noErr
    }

    func clearConnections() {
        if !interactions.isEmpty && isInitialized { eventsToProcess = true }
        interactions.removeAll()
    }

    // MARK: Lifecycle

    func open() -> OSStatus {
        if isOpen { return noErr }
        for node in nodes where node.unit == nil {
            let status = instantiate(node)
            if status != noErr {
                closeUnits()
                return status
            }
        }
        isOpen = true
        return noErr
    }

    func close() -> OSStatus {
        guard isOpen else { return noErr }
        if isInitialized { _ = uninitialize() }
        closeUnits()
        isOpen = false
        return noErr
    }

    private func closeUnits() {
        for node in nodes { dispose(node, destroy: false) }
        applied.removeAll()
    }

    /// Nodes taking part in an interaction (plus the output node): the ones initialization covers.
    func isInvolved(_ node: Node) -> Bool {
        node.isOutput || interactions.contains { $0.involves(node.id) }
    }

    func initialize() -> OSStatus {
        guard isOpen else { return kAUGraphErr_InvalidAudioUnit }
        if isInitialized { return noErr }
        if nodes.filter(\.isOutput).count > 1 { return kAUGraphErr_OutputNodeErr }
        if parent != nil, let head = outputNode, head.description.componentSubType != kAudioUnitSubType_GenericOutput {
            return kAUGraphErr_OutputNodeErr  // a subgraph must end in a AUGenericOutput unit
        }
        let status = realizeStatically()
        if status != noErr {
            for node in nodes where node.initialized { uninitializeNode(node) }
            return status
        }
        applied = interactions
        isInitialized = true
        eventsToProcess = false
        return noErr
    }

    func uninitialize() -> OSStatus {
        guard isInitialized else { return noErr }
        if isRunning { _ = stop() }
        finishPlanIfAdopted(force: true)
        for node in nodes where node.initialized { uninitializeNode(node) }
        for node in pendingDisposal { dispose(node) }
        pendingDisposal.removeAll()
        isInitialized = false
        return noErr
    }

    func uninitializeNode(_ node: Node) {
        if let child = node.subgraph {
            _ = child.uninitialize()
        } else if let unit = node.unit {
            AudioUnitUninitialize(unit)
        }
        node.initialized = false
    }

    func start() -> OSStatus {
        guard isInitialized else { return kAudioUnitErr_Uninitialized }
        guard let head = outputNode, let unit = head.unit else { return kAUGraphErr_OutputNodeErr }
        if isRunning { return noErr }
        (AudioUnitObject.live(unit) as? AUBase)?.startLoadMeter()
        _ = (AudioUnitObject.live(unit) as? AUBase)?.loadMeter.takeMaximum()
        let status = AudioOutputUnitStart(unit)
        guard status == noErr else { return status }
        isRunning = true
        return noErr
    }

    func stop() -> OSStatus {
        guard isRunning, let unit = outputNode?.unit else { return noErr }
        let status = AudioOutputUnitStop(unit)
        isRunning = false
        return status
    }

    func disposeAll() {
        _ = close()
        for node in nodes where node.subgraph != nil { dispose(node, destroy: true) }
        nodes.removeAll()
        interactions.removeAll()
    }
}
