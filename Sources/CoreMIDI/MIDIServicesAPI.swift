import Foundation

/// Creates a handle of `kind` owned by `client` and stores it, or answers kMIDIInvalidClient.
private func make(_ kind: MIDIObject.Kind, _ client: MIDIClientRef, _ name: CFString, _ out: UnsafeMutablePointer<MIDIObjectRef>,
                  _ configure: (MIDIObject) -> Void = { _ in }) -> OSStatus {
    let s = MIDIServer.shared
    guard s.locked({ s.object(client, [.client]) }) != nil else { return kMIDIInvalidClient }
    out.pointee = s.create(kind, owner: client, name: name as String, configure: configure)
    if kind == .source || kind == .destination { MIDIBackends.virtualEndpointCreated(out.pointee) }
    return noErr
}

/// Creates a client; `notifyProc` hears of setup changes.
@discardableResult public func MIDIClientCreate(_ name: CFString, _ notifyProc: MIDINotifyProc?, _ notifyRefCon: UnsafeMutableRawPointer?,
                             _ outClient: UnsafeMutablePointer<MIDIClientRef>) -> OSStatus {
    MIDIBackends.update()
    outClient.pointee = MIDIServer.shared.create(.client, owner: 0, name: name as String) { $0.notifyProc = notifyProc; $0.refCon = notifyRefCon }
    return noErr
}

/// Creates a client whose block hears of setup changes.
@discardableResult public func MIDIClientCreateWithBlock(_ name: CFString, _ outClient: UnsafeMutablePointer<MIDIClientRef>, _ notifyBlock: MIDINotifyBlock?) -> OSStatus {
    MIDIBackends.update()
    outClient.pointee = MIDIServer.shared.create(.client, owner: 0, name: name as String) { $0.notifyBlock = notifyBlock }
    return noErr
}

/// Disposes of a client and its ports and endpoints.
@discardableResult public func MIDIClientDispose(_ client: MIDIClientRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(client, [.client]) != nil else { return kMIDIInvalidClient }
        s.remove(client)
        return noErr
    }
}

/// Creates an input port whose read proc receives packet lists.
@discardableResult public func MIDIInputPortCreate(_ client: MIDIClientRef, _ portName: CFString, _ readProc: MIDIReadProc, _ refCon: UnsafeMutableRawPointer?,
                                _ outPort: UnsafeMutablePointer<MIDIPortRef>) -> OSStatus {
    make(.inputPort, client, portName, outPort) { $0.readProc = readProc; $0.refCon = refCon }
}

/// Creates an input port whose block receives packet lists.
@discardableResult public func MIDIInputPortCreateWithBlock(_ client: MIDIClientRef, _ portName: CFString, _ outPort: UnsafeMutablePointer<MIDIPortRef>,
                                         _ readBlock: @escaping MIDIReadBlock) -> OSStatus {
    make(.inputPort, client, portName, outPort) { $0.readBlock = readBlock }
}

/// Creates an input port whose block receives event lists in `protocol`.
@discardableResult public func MIDIInputPortCreateWithProtocol(_ client: MIDIClientRef, _ portName: CFString, _ protocol: MIDIProtocolID,
                                            _ outPort: UnsafeMutablePointer<MIDIPortRef>, _ receiveBlock: @escaping MIDIReceiveBlock) -> OSStatus {
    make(.inputPort, client, portName, outPort) { $0.receiveBlock = receiveBlock; $0.protocolID = `protocol` }
}

/// Creates an output port (for MIDISend).
@discardableResult public func MIDIOutputPortCreate(_ client: MIDIClientRef, _ portName: CFString, _ outPort: UnsafeMutablePointer<MIDIPortRef>) -> OSStatus {
    make(.outputPort, client, portName, outPort)
}

/// Disposes of a port.
@discardableResult public func MIDIPortDispose(_ port: MIDIPortRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(port, [.inputPort, .outputPort]) != nil else { return kMIDIInvalidPort }
        s.remove(port)
        return noErr
    }
}

/// Connects a source to an input port; `connRefCon` comes back with each delivery from it.
@discardableResult public func MIDIPortConnectSource(_ port: MIDIPortRef, _ source: MIDIEndpointRef, _ connRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    let s = MIDIServer.shared
    let (status, src): (OSStatus, MIDIObject?) = s.locked {
        guard let p = s.object(port, [.inputPort]) else { return (kMIDIInvalidPort, nil) }
        guard let src = s.object(source), src.isEndpoint else { return (kMIDIUnknownEndpoint, nil) }
        guard src.kind == .source else { return (kMIDIWrongEndpointType, nil) }
        p.connections[source] = .some(connRefCon)
        return (noErr, src)
    }
    // A device's source: its backend makes sure its events come in.
    if let src, let driver = src.driver { driver.listen(to: src) }
    return status
}

/// Disconnects a source from an input port.
@discardableResult public func MIDIPortDisconnectSource(_ port: MIDIPortRef, _ source: MIDIEndpointRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let p = s.object(port, [.inputPort]) else { return kMIDIInvalidPort }
        guard p.connections.removeValue(forKey: source) != nil else { return kMIDINoConnection }
        return noErr
    }
}

/// Creates a virtual source, from which the client sends with MIDIReceived.
@discardableResult public func MIDISourceCreate(_ client: MIDIClientRef, _ name: CFString, _ outSrc: UnsafeMutablePointer<MIDIEndpointRef>) -> OSStatus {
    make(.source, client, name, outSrc)
}

/// Creates a virtual source speaking `protocol`.
@discardableResult public func MIDISourceCreateWithProtocol(_ client: MIDIClientRef, _ name: CFString, _ protocol: MIDIProtocolID,
                                         _ outSrc: UnsafeMutablePointer<MIDIEndpointRef>) -> OSStatus {
    make(.source, client, name, outSrc) { $0.protocolID = `protocol` }
}

/// Creates a virtual destination whose read proc receives what is sent to it.
@discardableResult public func MIDIDestinationCreate(_ client: MIDIClientRef, _ name: CFString, _ readProc: MIDIReadProc, _ refCon: UnsafeMutableRawPointer?,
                                  _ outDest: UnsafeMutablePointer<MIDIEndpointRef>) -> OSStatus {
    make(.destination, client, name, outDest) { $0.readProc = readProc; $0.refCon = refCon }
}

/// Creates a virtual destination whose block receives packet lists.
@discardableResult public func MIDIDestinationCreateWithBlock(_ client: MIDIClientRef, _ name: CFString, _ outDest: UnsafeMutablePointer<MIDIEndpointRef>,
                                           _ readBlock: @escaping MIDIReadBlock) -> OSStatus {
    make(.destination, client, name, outDest) { $0.readBlock = readBlock }
}

/// Creates a virtual destination whose block receives event lists in `protocol`.
@discardableResult public func MIDIDestinationCreateWithProtocol(_ client: MIDIClientRef, _ name: CFString, _ protocol: MIDIProtocolID,
                                              _ outDest: UnsafeMutablePointer<MIDIEndpointRef>, _ readBlock: @escaping MIDIReceiveBlock) -> OSStatus {
    make(.destination, client, name, outDest) { $0.receiveBlock = readBlock; $0.protocolID = `protocol` }
}

/// Disposes of a virtual source or destination.
@discardableResult public func MIDIEndpointDispose(_ endpt: MIDIEndpointRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let e = s.object(endpt) else { return kMIDIUnknownEndpoint }
        guard e.isEndpoint else { return kMIDIWrongEndpointType }
        s.remove(endpt)
        return noErr
    }
}

/// Number of devices (JACK clients and ALSA sequencer clients with MIDI ports, when a backend is connected).
@discardableResult public func MIDIGetNumberOfDevices() -> Int {
    MIDIBackends.update()
    return MIDIServer.shared.allDevices().count
}
/// A device by index, 0 if out of range.
@discardableResult public func MIDIGetDevice(_ deviceIndex0: Int) -> MIDIDeviceRef {
    MIDIBackends.update()
    let all = MIDIServer.shared.allDevices()
    return all.indices.contains(deviceIndex0) ? all[deviceIndex0] : 0
}
/// Number of external devices in the setup (MIDISetupAddExternalDevice).
@discardableResult public func MIDIGetNumberOfExternalDevices() -> Int { MIDIServer.shared.allExternalDevices().count }
/// An external device by index, 0 if out of range.
@discardableResult public func MIDIGetExternalDevice(_ deviceIndex0: Int) -> MIDIDeviceRef {
    let all = MIDIServer.shared.allExternalDevices()
    return all.indices.contains(deviceIndex0) ? all[deviceIndex0] : 0
}
/// Number of sources (devices' and virtual ones, private ones left out).
@discardableResult public func MIDIGetNumberOfSources() -> Int {
    MIDIBackends.update()
    return MIDIServer.shared.endpoints(.source).count
}
/// A source by index, 0 if out of range.
@discardableResult public func MIDIGetSource(_ sourceIndex0: Int) -> MIDIEndpointRef {
    MIDIBackends.update()
    let all = MIDIServer.shared.endpoints(.source)
    return all.indices.contains(sourceIndex0) ? all[sourceIndex0] : 0
}
/// Number of destinations (devices' and virtual ones, private ones left out).
@discardableResult public func MIDIGetNumberOfDestinations() -> Int {
    MIDIBackends.update()
    return MIDIServer.shared.endpoints(.destination).count
}
/// A destination by index, 0 if out of range.
@discardableResult public func MIDIGetDestination(_ destIndex0: Int) -> MIDIEndpointRef {
    MIDIBackends.update()
    let all = MIDIServer.shared.endpoints(.destination)
    return all.indices.contains(destIndex0) ? all[destIndex0] : 0
}

/// Checks a send: the port is an output port and the destination a destination; returns it.
private func sendTarget(_ port: MIDIPortRef, _ dest: MIDIEndpointRef) -> (OSStatus, MIDIObject?) {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(port, [.outputPort]) != nil else { return (kMIDIInvalidPort, nil) }
        guard let d = s.object(dest) else { return (kMIDIUnknownEndpoint, nil) }
        guard d.kind == .destination else { return (kMIDIWrongEndpointType, nil) }
        return (noErr, d)
    }
}

/// Sends a packet list to a destination through an output port.
@discardableResult public func MIDISend(_ port: MIDIPortRef, _ dest: MIDIEndpointRef, _ pktlist: UnsafePointer<MIDIPacketList>) -> OSStatus {
    let (status, d) = sendTarget(port, dest)
    if let d, let driver = d.driver { driver.send(MIDIMessageBatch(pktlist), to: d) }
    if let d, d.receives { MIDIServer.shared.deliver(MIDIMessageBatch(pktlist), to: d, connRefCon: nil) }
    return status
}

/// Sends an event list to a destination through an output port.
@discardableResult public func MIDISendEventList(_ port: MIDIPortRef, _ dest: MIDIEndpointRef, _ evtlist: UnsafePointer<MIDIEventList>) -> OSStatus {
    let (status, d) = sendTarget(port, dest)
    if let d, let driver = d.driver { driver.send(MIDIMessageBatch(evtlist), to: d) }
    if let d, d.receives { MIDIServer.shared.deliver(MIDIMessageBatch(evtlist), to: d, connRefCon: nil) }
    return status
}

/// Distributes what a virtual source sends to every input port connected to it.
private func received(_ src: MIDIEndpointRef, _ batch: () -> MIDIMessageBatch) -> OSStatus {
    let s = MIDIServer.shared
    let kind = s.locked { s.object(src)?.kind }
    guard let kind else { return kMIDIUnknownEndpoint }
    guard kind == .source else { return kMIDIWrongEndpointType }
    let receivers = s.receivers(ofSource: src)
    let published = MIDIBackends.publishes(src)
    guard !receivers.isEmpty || published else { return noErr }
    let b = batch()
    for (port, conn) in receivers { s.deliver(b, to: port, connRefCon: conn) }
    if published { MIDIBackends.sourceSent(src, b) }
    return noErr
}

/// A virtual source sends a packet list to its connected input ports.
@discardableResult public func MIDIReceived(_ src: MIDIEndpointRef, _ pktlist: UnsafePointer<MIDIPacketList>) -> OSStatus {
    received(src) { MIDIMessageBatch(pktlist) }
}

/// A virtual source sends an event list to its connected input ports.
@discardableResult public func MIDIReceivedEventList(_ src: MIDIEndpointRef, _ evtlist: UnsafePointer<MIDIEventList>) -> OSStatus {
    received(src) { MIDIMessageBatch(evtlist) }
}

/// Drops events sent to a destination (every destination for 0) that are still waiting for their time.
@discardableResult public func MIDIFlushOutput(_ dest: MIDIEndpointRef) -> OSStatus {
    let s = MIDIServer.shared
    guard dest == 0 || s.locked({ s.object(dest) }) != nil else { return kMIDIUnknownEndpoint }
    s.scheduler.flush(dest)
    return noErr
}

/// Restarts MIDI drivers: the backends look for their servers again (a changed JACK_DEFAULT_SERVER is followed).
@discardableResult public func MIDIRestart() -> OSStatus {
    MIDIBackends.update()
    return noErr
}

/// Sends a SysEx to a destination asynchronously: delivered as one packet, then `complete` is set,
/// `bytesToSend` reaches 0 and the completion proc is called (on the MIDI thread).
@discardableResult public func MIDISendSysex(_ request: UnsafeMutablePointer<MIDISysexSendRequest>) -> OSStatus {
    let s = MIDIServer.shared
    let dest = request.pointee.destination
    guard let d = s.locked({ s.object(dest) }) else { return kMIDIUnknownEndpoint }
    guard d.kind == .destination else { return kMIDIWrongEndpointType }
    let count = Int(request.pointee.bytesToSend)
    let bytes = [UInt8](UnsafeBufferPointer(start: request.pointee.data, count: count))
    let batch = MIDIMessageBatch(packets: [MIDIMessageBatch.Packet(time: 0, bytes: bytes, protocolID: ._1_0)])
    if let driver = d.driver { driver.send(batch, to: d) }
    if d.receives { s.deliver(batch, to: d, connRefCon: nil) }
    nonisolated(unsafe) let r = request
    s.scheduler.schedule(at: 0) {
        r.pointee.bytesToSend = 0
        r.pointee.complete = true
        r.pointee.completionProc(r)
    }
    return noErr
}

/// Sends UMP SysEx words (7-bit or 8-bit) to a destination asynchronously, as MIDISendSysex does bytes:
/// delivered as one packet of the request's words, then `complete` is set, `wordsToSend` reaches 0
/// and the completion proc is called (on the MIDI thread).
@discardableResult public func MIDISendUMPSysex(_ umpRequest: UnsafeMutablePointer<MIDISysexSendRequestUMP>) -> OSStatus {
    let s = MIDIServer.shared
    let dest = umpRequest.pointee.destination
    guard let d = s.locked({ s.object(dest) }) else { return kMIDIUnknownEndpoint }
    guard d.kind == .destination else { return kMIDIWrongEndpointType }
    let words = [UInt32](UnsafeBufferPointer(start: umpRequest.pointee.words, count: Int(umpRequest.pointee.wordsToSend)))
    if d.receives {
        // SysEx UMPs mean the same in both protocols; the receiver's own protocol is used.
        let batch = MIDIMessageBatch(packets: [MIDIMessageBatch.Packet(time: 0, words: words, protocolID: d.protocolID)])
        s.deliver(batch, to: d, connRefCon: nil)
    }
    nonisolated(unsafe) let r = umpRequest
    s.scheduler.schedule(at: 0) {
        r.pointee.wordsToSend = 0
        r.pointee.complete = true
        r.pointee.completionProc(r)
    }
    return noErr
}

/// Sends 8-bit UMP SysEx: the same request, delivered as MIDISendUMPSysex delivers it.
@discardableResult public func MIDISendUMPSysex8(_ umpRequest: UnsafeMutablePointer<MIDISysexSendRequestUMP>) -> OSStatus {
    MIDISendUMPSysex(umpRequest)
}

/// The MIDI 1.0 SysEx bytes (F0 ... F7 as far as the packet holds them) of the 7-bit SysEx UMPs on one
/// group of an event packet; kMIDIUnknownError if there are none.
@discardableResult public func MIDIEventPacketSysexBytesForGroup(_ pkt: UnsafePointer<MIDIEventPacket>, _ groupIndex: UInt8,
                                                                 _ outData: UnsafeMutablePointer<Unmanaged<CFData>?>) -> OSStatus {
    let words = Array(pkt.sequence())
    var sysex: [UInt32] = []
    var i = 0
    while i < words.count {
        let size = umpWordCounts[Int(words[i] >> 28)]
        if words[i] >> 28 == 0x3, UInt8(words[i] >> 24 & 0xF) == groupIndex, i + 1 < words.count { sysex += [words[i], words[i + 1]] }
        i += size
    }
    guard !sysex.isEmpty else { outData.pointee = nil; return kMIDIUnknownError }
    let bytes = MIDIConversion.bytes(fromUMP: sysex)
    outData.pointee = Unmanaged.passRetained(NSData(bytes: bytes, length: bytes.count))
    return noErr
}
