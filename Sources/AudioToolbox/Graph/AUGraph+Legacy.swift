// The AUGraph calls Apple deprecated in macOS 10.5 (still imported by Swift on macOS): nodes by the Component
// Manager's description, and connections alone (without input callbacks) where the current calls list interactions.
// They answer from the same graph state as AUGraphNodeInfo and AUGraphGetInteractionInfo.

/// The graph's connections (node to node), in the order made, leaving input callbacks out; with `node`, those it
/// takes part in (kAUGraphErr_NodeNotFound for a node the graph does not hold). kAudio_ParamError if the graph
/// cannot list its interactions.
private func connections(_ graph: AUGraph, involving node: AUNode? = nil) -> Result<[AUNodeConnection], OSStatusError> {
    if let node {
        var count: UInt32 = 0
        let status = AUGraphCountNodeInteractions(graph, node, &count)
        guard status == noErr else { return .failure(OSStatusError(status)) }
    }
    var all: [AUNodeInteraction] = []
    var count: UInt32 = 0
    guard AUGraphGetNumberOfInteractions(graph, &count) == noErr else { return .failure(OSStatusError(kAudio_ParamError)) }
    for i in 0..<count {
        var interaction = AUNodeInteraction()
        guard AUGraphGetInteractionInfo(graph, i, &interaction) == noErr else { return .failure(OSStatusError(kAudio_ParamError)) }
        all.append(interaction)
    }
    return .success(all.compactMap { i -> AUNodeConnection? in
        guard i.nodeInteractionType == kAUNodeInteraction_Connection else { return nil }
        let c = i.nodeInteraction.connection
        if let node, c.sourceNode != node && c.destNode != node { return nil }
        return c
    })
}

/// Apple's deprecated `AUGraphNewNode`: adds a node for the unit a Component Manager description finds (as
/// AUGraphAddNode). Class data (a preset to give the new unit) is not supported: a non-zero size answers
/// kAudio_UnimplementedError and adds nothing.
@discardableResult
public func AUGraphNewNode(_ inGraph: AUGraph, _ inDescription: UnsafePointer<ComponentDescription>, _ inClassDataSize: UInt32,
                           _ inClassData: UnsafeRawPointer, _ outNode: UnsafeMutablePointer<AUNode>) -> OSStatus {
    guard inClassDataSize == 0 else { return kAudio_UnimplementedError }
    let d = inDescription.pointee
    var description = AudioComponentDescription(componentType: d.componentType, componentSubType: d.componentSubType,
                                                componentManufacturer: d.componentManufacturer,
                                                componentFlags: d.componentFlags, componentFlagsMask: d.componentFlagsMask)
    return AUGraphAddNode(inGraph, &description, outNode)
}

/// Apple's deprecated `AUGraphGetNodeInfo`: the node's description (as a Component Manager description), no class
/// data (size 0, nil) and its unit (nil until the graph is open).
@discardableResult
public func AUGraphGetNodeInfo(_ inGraph: AUGraph, _ inNode: AUNode, _ outDescription: UnsafeMutablePointer<ComponentDescription>,
                               _ outClassDataSize: UnsafeMutablePointer<UInt32>,
                               _ outClassData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                               _ outAudioUnit: UnsafeMutablePointer<AudioUnit?>?) -> OSStatus {
    var description = AudioComponentDescription()
    var unit: AudioUnit?
    let status = AUGraphNodeInfo(inGraph, inNode, &description, &unit)
    guard status == noErr else { return status }
    outDescription.pointee = ComponentDescription(componentType: description.componentType,
                                                  componentSubType: description.componentSubType,
                                                  componentManufacturer: description.componentManufacturer,
                                                  componentFlags: description.componentFlags,
                                                  componentFlagsMask: description.componentFlagsMask)
    outClassDataSize.pointee = 0
    outClassData?.pointee = nil
    outAudioUnit?.pointee = unit
    return noErr
}

/// Apple's deprecated `AUGraphGetNumberOfConnections`: the node-to-node connections (input callbacks not counted).
@discardableResult
public func AUGraphGetNumberOfConnections(_ inGraph: AUGraph, _ outNumConnections: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard case .success(let all) = connections(inGraph) else { return kAudio_ParamError }
    outNumConnections.pointee = UInt32(all.count)
    return noErr
}

/// Apple's deprecated `AUGraphGetConnectionInfo`: the connection at an index among the connections.
@discardableResult
public func AUGraphGetConnectionInfo(_ inGraph: AUGraph, _ inConnectionIndex: UInt32, _ outSourceNode: UnsafeMutablePointer<AUNode>,
                                     _ outSourceOutputNumber: UnsafeMutablePointer<UInt32>, _ outDestNode: UnsafeMutablePointer<AUNode>,
                                     _ outDestInputNumber: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard case .success(let all) = connections(inGraph) else { return kAudio_ParamError }
    guard Int(inConnectionIndex) < all.count else { return kAudio_ParamError }
    let c = all[Int(inConnectionIndex)]
    outSourceNode.pointee = c.sourceNode
    outSourceOutputNumber.pointee = c.sourceOutputNumber
    outDestNode.pointee = c.destNode
    outDestInputNumber.pointee = c.destInputNumber
    return noErr
}

/// Apple's deprecated `AUGraphCountNodeConnections`: the connections a node takes part in, as source or destination.
@discardableResult
public func AUGraphCountNodeConnections(_ inGraph: AUGraph, _ inNode: AUNode, _ outNumConnections: UnsafeMutablePointer<UInt32>) -> OSStatus {
    switch connections(inGraph, involving: inNode) {
    case .failure(let e): return e.status
    case .success(let mine):
        outNumConnections.pointee = UInt32(mine.count)
        return noErr
    }
}

/// Apple's deprecated `AUGraphGetNodeConnections`: up to `*ioNumConnections` of a node's connections; the count
/// written back is how many were copied.
@discardableResult
public func AUGraphGetNodeConnections(_ inGraph: AUGraph, _ inNode: AUNode, _ outConnections: UnsafeMutablePointer<AudioUnitNodeConnection>,
                                      _ ioNumConnections: UnsafeMutablePointer<UInt32>) -> OSStatus {
    switch connections(inGraph, involving: inNode) {
    case .failure(let e): return e.status
    case .success(let mine):
        let n = min(Int(ioNumConnections.pointee), mine.count)
        for i in 0..<n { outConnections[i] = mine[i] }
        ioNumConnections.pointee = UInt32(n)
        return noErr
    }
}
