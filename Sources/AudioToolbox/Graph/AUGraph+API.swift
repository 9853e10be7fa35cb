// Audio Processing Graph Services (AUGraph.h) with Apple's names, signatures and statuses.
// Edits may be made from a render notification (they then take effect within that render).
import OCAProperty
import COCASupport

/// Runs `body` on the graph behind a handle under its lock; a bogus or disposed handle gives
/// `kAudio_ParamError`. From a render callback or notification the lock is only tried: if another
/// thread holds it the call answers `kAUGraphErr_CannotDoInCurrentContext` (try again next slice).
private func withGraph(_ graph: AUGraph?, _ body: (AUGraphObject) -> OSStatus) -> OSStatus {
    guard let g = AUGraphObject.handles.object(graph.map { UnsafeMutableRawPointer($0) }, as: AUGraphObject.self) else {
        return kAudio_ParamError
    }
    if oca_in_render() != 0 {
        guard g.lock.try() else { return kAUGraphErr_CannotDoInCurrentContext }
    } else {
        g.lock.lock()
    }
    defer { g.lock.unlock() }
    return body(g)
}

/// Apple's `NewAUGraph`: creates an empty, closed graph.
@discardableResult
public func NewAUGraph(_ outGraph: UnsafeMutablePointer<AUGraph?>) -> OSStatus {
    outGraph.pointee = OpaquePointer(AUGraphObject.handles.add(AUGraphObject()))
    return noErr
}

/// Stops, uninitializes and closes the graph, then frees it with its nodes and subgraphs.
@discardableResult
public func DisposeAUGraph(_ inGraph: AUGraph) -> OSStatus {
    guard let g = AUGraphObject.handles.remove(UnsafeMutableRawPointer(inGraph), as: AUGraphObject.self) else {
        return kAudio_ParamError
    }
    g.lock.lock()
    defer { g.lock.unlock() }
    g.disposeAll()
    return noErr
}

/// Adds a node for the unit the description finds; the unit is instantiated now if the graph is open.
@discardableResult
public func AUGraphAddNode(_ inGraph: AUGraph, _ inDescription: UnsafePointer<AudioComponentDescription>,
                           _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    withGraph(inGraph) { g in
        switch g.addNode(inDescription.pointee) {
        case .success(let node): outNode.pointee = node; return noErr
        case .failure(let e): return e.status
        }
    }
}

/// Not Apple API: adds a node for a unit the caller made (AVAudioEngine's nodes own their units, so they can be
/// configured before they are attached). The graph initializes and uninitializes it but never disposes of it.
@discardableResult
package func AUGraphAddExistingUnit(_ inGraph: AUGraph, _ inUnit: AudioUnit, _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    withGraph(inGraph) { g in
        switch g.addNode(existing: inUnit) {
        case .success(let node): outNode.pointee = node; return noErr
        case .failure(let e): return e.status
        }
    }
}

/// Apple's `AUGraphRemoveNode`: removes a node and its connections (disposing its unit when open).
@discardableResult
public func AUGraphRemoveNode(_ inGraph: AUGraph, _ inNode: AUNode) -> OSStatus {
    withGraph(inGraph) { $0.removeNode(inNode) }
}

/// Apple's `AUGraphGetNodeCount`: the number of nodes.
@discardableResult
public func AUGraphGetNodeCount(_ inGraph: AUGraph, _ outNumberOfNodes: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withGraph(inGraph) { g in outNumberOfNodes.pointee = UInt32(g.nodes.count); return noErr }
}

/// Apple's `AUGraphGetIndNode`: the node at an index, in the order added.
@discardableResult
public func AUGraphGetIndNode(_ inGraph: AUGraph, _ inIndex: UInt32, _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    withGraph(inGraph) { g in
        guard Int(inIndex) < g.nodes.count else { return kAUGraphErr_NodeNotFound }
        outNode.pointee = g.nodes[Int(inIndex)].id
        return noErr
    }
}

/// The node's description and unit (the unit is nil until the graph is open). Either out pointer may be nil.
@discardableResult
public func AUGraphNodeInfo(_ inGraph: AUGraph, _ inNode: AUNode,
                            _ outDescription: UnsafeMutablePointer<AudioComponentDescription>?,
                            _ outAudioUnit: UnsafeMutablePointer<AudioUnit?>?) -> OSStatus {
    withGraph(inGraph) { g in
        guard let node = g.node(inNode) else { return kAUGraphErr_NodeNotFound }
        if node.subgraph != nil { return kAUGraphErr_InvalidAudioUnit }
        outDescription?.pointee = node.description
        outAudioUnit?.pointee = node.unit
        return noErr
    }
}

/// Adds a node that holds a subgraph (which must end in a AUGenericOutput unit).
@discardableResult
public func AUGraphNewNodeSubGraph(_ inGraph: AUGraph, _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    withGraph(inGraph) { g in outNode.pointee = g.addSubgraphNode(); return noErr }
}

/// Apple's `AUGraphGetNodeInfoSubGraph`: the graph a subgraph node holds.
@discardableResult
public func AUGraphGetNodeInfoSubGraph(_ inGraph: AUGraph, _ inNode: AUNode, _ outSubGraph: UnsafeMutablePointer<AUGraph?>) -> OSStatus {
    withGraph(inGraph) { g in
        guard let node = g.node(inNode) else { return kAUGraphErr_NodeNotFound }
        guard let child = node.subgraph else { return kAUGraphErr_InvalidAudioUnit }
        outSubGraph.pointee = child.handle
        return noErr
    }
}

/// Apple's `AUGraphIsNodeSubGraph`: whether a node is a subgraph.
@discardableResult
public func AUGraphIsNodeSubGraph(_ inGraph: AUGraph, _ inNode: AUNode, _ outFlag: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withGraph(inGraph) { g in
        guard let node = g.node(inNode) else { return kAUGraphErr_NodeNotFound }
        outFlag.pointee = DarwinBoolean(node.subgraph != nil)
        return noErr
    }
}

/// Connects a node's output to another node's input (replacing what fed that input). On an
/// initialized graph the change takes effect at `AUGraphUpdate`.
@discardableResult
public func AUGraphConnectNodeInput(_ inGraph: AUGraph, _ inSourceNode: AUNode, _ inSourceOutputNumber: UInt32,
                                    _ inDestNode: AUNode, _ inDestInputNumber: UInt32) -> OSStatus {
    withGraph(inGraph) {
        $0.setInteraction(.connection(source: inSourceNode, sourceBus: inSourceOutputNumber, dest: inDestNode,
                                      destBus: inDestInputNumber))
    }
}

/// Feeds a node's input from a render callback. On an initialized graph the change takes effect at
/// `AUGraphUpdate`.
@discardableResult
public func AUGraphSetNodeInputCallback(_ inGraph: AUGraph, _ inDestNode: AUNode, _ inDestInputNumber: UInt32,
                                        _ inInputCallback: UnsafePointer<AURenderCallbackStruct>) -> OSStatus {
    withGraph(inGraph) {
        $0.setInteraction(.callback(dest: inDestNode, destBus: inDestInputNumber, callback: inInputCallback.pointee))
    }
}

/// Removes the connection or callback feeding a node's input.
@discardableResult
public func AUGraphDisconnectNodeInput(_ inGraph: AUGraph, _ inDestNode: AUNode, _ inDestInputNumber: UInt32) -> OSStatus {
    withGraph(inGraph) { $0.disconnect(inDestNode, inDestInputNumber) }
}

/// Apple's `AUGraphClearConnections`: removes every connection and input callback.
@discardableResult
public func AUGraphClearConnections(_ inGraph: AUGraph) -> OSStatus {
    withGraph(inGraph) { g in g.clearConnections(); return noErr }
}

/// Apple's `AUGraphGetNumberOfInteractions`: connections plus input callbacks.
@discardableResult
public func AUGraphGetNumberOfInteractions(_ inGraph: AUGraph, _ outNumInteractions: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withGraph(inGraph) { g in outNumInteractions.pointee = UInt32(g.interactions.count); return noErr }
}

/// Apple's `AUGraphGetInteractionInfo`: the interaction at an index.
@discardableResult
public func AUGraphGetInteractionInfo(_ inGraph: AUGraph, _ inInteractionIndex: UInt32,
                                      _ outInteraction: UnsafeMutablePointer<AUNodeInteraction>) -> OSStatus {
    withGraph(inGraph) { g in
        guard Int(inInteractionIndex) < g.interactions.count else { return kAudio_ParamError }
        outInteraction.pointee = g.interactions[Int(inInteractionIndex)].asAUNodeInteraction
        return noErr
    }
}

/// The interactions a node takes part in, as source or destination.
@discardableResult
public func AUGraphCountNodeInteractions(_ inGraph: AUGraph, _ inNode: AUNode,
                                         _ outNumInteractions: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withGraph(inGraph) { g in
        guard g.node(inNode) != nil else { return kAUGraphErr_NodeNotFound }
        outNumInteractions.pointee = UInt32(g.interactions.count { $0.involves(inNode) })
        return noErr
    }
}

/// Apple's `AUGraphGetNodeInteractions`: the interactions that involve a node.
@discardableResult
public func AUGraphGetNodeInteractions(_ inGraph: AUGraph, _ inNode: AUNode, _ ioNumInteractions: UnsafeMutablePointer<UInt32>,
                                       _ outInteractions: UnsafeMutablePointer<AUNodeInteraction>) -> OSStatus {
    withGraph(inGraph) { g in
        guard g.node(inNode) != nil else { return kAUGraphErr_NodeNotFound }
        let mine = g.interactions.filter { $0.involves(inNode) }
        let n = min(Int(ioNumInteractions.pointee), mine.count)
        for i in 0..<n { outInteractions[i] = mine[i].asAUNodeInteraction }
        ioNumInteractions.pointee = UInt32(n)
        return noErr
    }
}

/// Applies the edits made since the last update. With `outIsUpdated` nil it waits until a running
/// graph's render thread has adopted them; otherwise it returns at once and says whether they are in.
@discardableResult
public func AUGraphUpdate(_ inGraph: AUGraph, _ outIsUpdated: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withGraph(inGraph) { g in
        let (status, done) = g.update(wait: outIsUpdated == nil)
        outIsUpdated?.pointee = DarwinBoolean(done)
        return status
    }
}

/// Instantiates the units of every node.
@discardableResult
public func AUGraphOpen(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.open() } }

/// Disposes of the units, keeping the nodes and their interactions.
@discardableResult
public func AUGraphClose(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.close() } }

/// Connects the units as the interactions say (formats flow from sources to destinations) and
/// initializes every node that takes part in one.
@discardableResult
public func AUGraphInitialize(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.initialize() } }

/// Apple's `AUGraphUninitialize`: uninitializes every unit (stopping the graph first).
@discardableResult
public func AUGraphUninitialize(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.uninitialize() } }

/// Starts the graph's output unit.
@discardableResult
public func AUGraphStart(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.start() } }

/// Apple's `AUGraphStop`: stops the head unit.
@discardableResult
public func AUGraphStop(_ inGraph: AUGraph) -> OSStatus { withGraph(inGraph) { $0.stop() } }

/// Apple's `AUGraphIsOpen`: whether the units are instantiated.
@discardableResult
public func AUGraphIsOpen(_ inGraph: AUGraph, _ outIsOpen: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withGraph(inGraph) { g in outIsOpen.pointee = DarwinBoolean(g.isOpen); return noErr }
}

/// Apple's `AUGraphIsInitialized`: whether the graph is initialized.
@discardableResult
public func AUGraphIsInitialized(_ inGraph: AUGraph, _ outIsInitialized: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withGraph(inGraph) { g in outIsInitialized.pointee = DarwinBoolean(g.isInitialized); return noErr }
}

/// Apple's `AUGraphIsRunning`: whether the head unit is running.
@discardableResult
public func AUGraphIsRunning(_ inGraph: AUGraph, _ outIsRunning: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    withGraph(inGraph) { g in outIsRunning.pointee = DarwinBoolean(g.isRunning); return noErr }
}

/// A short-term running average of the share of each slice's real-time budget the graph's render used.
@discardableResult
public func AUGraphGetCPULoad(_ inGraph: AUGraph, _ outAverageCPULoad: UnsafeMutablePointer<Float32>) -> OSStatus {
    withGraph(inGraph) { g in
        outAverageCPULoad.pointee = Float32(g.headBase?.loadMeter.average ?? 0)
        return noErr
    }
}

/// The largest load since the last call (or since the graph started).
@discardableResult
public func AUGraphGetMaxCPULoad(_ inGraph: AUGraph, _ outMaxLoad: UnsafeMutablePointer<Float32>) -> OSStatus {
    withGraph(inGraph) { g in
        outMaxLoad.pointee = Float32(g.headBase?.loadMeter.takeMaximum() ?? 0)
        return noErr
    }
}

/// Calls `inCallback` before and after every render of the graph (on its output unit).
@discardableResult
public func AUGraphAddRenderNotify(_ inGraph: AUGraph, _ inCallback: AURenderCallback, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    withGraph(inGraph) { g in
        g.renderNotifies.append((inCallback, inRefCon))
        if let unit = g.outputNode?.unit { return AudioUnitAddRenderNotify(unit, inCallback, inRefCon) }
        return noErr
    }
}

/// Apple's `AUGraphRemoveRenderNotify`: removes a callback added with AUGraphAddRenderNotify.
@discardableResult
public func AUGraphRemoveRenderNotify(_ inGraph: AUGraph, _ inCallback: AURenderCallback, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    withGraph(inGraph) { g in
        g.renderNotifies.removeAll { sameFunction($0.0, inCallback) && $0.1 == inRefCon }
        if let unit = g.outputNode?.unit { return AudioUnitRemoveRenderNotify(unit, inCallback, inRefCon) }
        return noErr
    }
}
