import Foundation

// Thru connections, in process: each is an object that listens to its sources as an input port does (so
// virtual sources and device sources both feed it, on the MIDI thread) and sends what passes its filters and
// transforms on to its destinations. Persistent owner IDs are kept in memory only: a connection lives until
// disposed of or the process ends (Apple's server keeps persistent ones across runs).

/// paramErr: the parameters are malformed (short data, version not 0, too many endpoints, missing transforms or maps).
private let paramErr: OSStatus = -50

/// An endpoint given by reference or unique ID, with both filled in when it exists.
private func resolve(_ e: MIDIThruConnectionEndpoint, _ kind: MIDIObject.Kind) -> MIDIThruConnectionEndpoint {
    let s = MIDIServer.shared
    if e.endpointRef != 0, let o = s.object(e.endpointRef, [kind]) {
        return MIDIThruConnectionEndpoint(endpointRef: o.ref, uniqueID: o.integers["uniqueID"] ?? e.uniqueID)
    }
    if e.uniqueID != kMIDIInvalidUniqueID, let o = s.find(uniqueID: e.uniqueID), o.kind == kind {
        return MIDIThruConnectionEndpoint(endpointRef: o.ref, uniqueID: e.uniqueID)
    }
    return MIDIThruConnectionEndpoint(endpointRef: 0, uniqueID: e.uniqueID)
}

/// Sends what passed the connection on to its destinations (found by unique ID each time).
private func forward(_ connection: MIDIThruConnection, _ list: UnsafePointer<MIDIPacketList>) {
    var packets: [MIDIMessageBatch.Packet] = []
    for p in list.unsafeSequence() {
        let bytes = connection.splitter.messages(Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(p) + 10, count: Int(p.pointee.length))))
            .compactMap { connection.transform($0) }.flatMap { $0 }
        if !bytes.isEmpty { packets.append(MIDIMessageBatch.Packet(time: p.pointee.timeStamp, bytes: bytes, protocolID: ._1_0)) }
    }
    guard !packets.isEmpty else { return }
    let batch = MIDIMessageBatch(packets: packets)
    let s = MIDIServer.shared
    for id in connection.destinationIDs {
        guard let d = s.locked({ s.find(uniqueID: id) }), d.kind == .destination else { continue }
        if let driver = d.driver { driver.send(batch, to: d) }
        if d.receives { s.deliver(batch, to: d, connRefCon: nil) }
    }
}

/// Connects a thru connection object to its sources (device sources through their backend).
private func attach(_ object: MIDIObject, _ connection: MIDIThruConnection) {
    let s = MIDIServer.shared
    let sources: [MIDIObject] = s.locked {
        object.connections = [:]
        for src in connection.sources { object.connections[src] = .some(nil) }
        return connection.sources.compactMap { s.object($0) }
    }
    for src in sources { src.driver?.listen(to: src) }
}

/// Fills a MIDIThruConnectionParams with the defaults: no endpoints, no transforms, each channel to itself,
/// every note and velocity passing.
public func MIDIThruConnectionParamsInitialize(_ inConnectionParams: UnsafeMutablePointer<MIDIThruConnectionParams>) {
    UnsafeMutableRawPointer(inConnectionParams).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<MIDIThruConnectionParams>.size)
    withUnsafeMutableBytes(of: &inConnectionParams.pointee.channelMap) { for i in 0..<16 { $0[i] = UInt8(i) } }
    inConnectionParams.pointee.highNote = 127
}

/// Creates a thru connection from parameters in a CFData (MIDIThruConnectionParams, then its control
/// transforms and maps); `inPersistentOwnerID` marks it for MIDIThruConnectionFind.
@discardableResult public func MIDIThruConnectionCreate(_ inPersistentOwnerID: CFString?, _ inConnectionParams: CFData,
                                                       _ outConnection: UnsafeMutablePointer<MIDIThruConnectionRef>) -> OSStatus {
    MIDIBackends.update()
    let s = MIDIServer.shared
    guard let connection = s.locked({ MIDIThruConnection(inConnectionParams as Data, ownerID: inPersistentOwnerID.map { $0 as String }, resolve: resolve) })
    else { return paramErr }
    let ref = s.create(.thruConnection, owner: 0, name: "") { o in
        o.thru = connection
        o.readBlock = { list, _ in forward(connection, list) }
    }
    guard let object = s.locked({ s.object(ref) }) else { return kMIDIUnknownError }
    attach(object, connection)
    s.locked { s.notifyClients(.msgThruConnectionsChanged) }
    outConnection.pointee = ref
    return noErr
}

/// Disposes of a thru connection.
@discardableResult public func MIDIThruConnectionDispose(_ connection: MIDIThruConnectionRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(connection, [.thruConnection]) != nil else { return kMIDIObjectNotFound }
        s.remove(connection)
        s.notifyClients(.msgThruConnectionsChanged)
        return noErr
    }
}

/// A thru connection's parameters (unique IDs filled in); the caller owns the returned data.
@discardableResult public func MIDIThruConnectionGetParams(_ connection: MIDIThruConnectionRef,
                                                          _ outConnectionParams: UnsafeMutablePointer<Unmanaged<CFData>>) -> OSStatus {
    let s = MIDIServer.shared
    guard let thru = s.locked({ s.object(connection, [.thruConnection])?.thru }) else { return kMIDIObjectNotFound }
    outConnectionParams.initialize(to: Unmanaged.passRetained(thru.data as NSData))
    return noErr
}

/// Replaces a thru connection's parameters (sources, destinations and transforms).
@discardableResult public func MIDIThruConnectionSetParams(_ connection: MIDIThruConnectionRef, _ inConnectionParams: CFData) -> OSStatus {
    let s = MIDIServer.shared
    guard let object = s.locked({ s.object(connection, [.thruConnection]) }) else { return kMIDIObjectNotFound }
    let owner = s.locked { object.thru?.ownerID }
    guard let fresh = s.locked({ MIDIThruConnection(inConnectionParams as Data, ownerID: owner, resolve: resolve) }) else { return paramErr }
    s.locked {
        object.thru = fresh
        object.readBlock = { list, _ in forward(fresh, list) }
    }
    attach(object, fresh)
    s.locked { s.notifyClients(.msgThruConnectionsChanged) }
    return noErr
}

/// The thru connections created with a persistent owner ID, as a CFData holding an array of MIDIThruConnectionRef.
@discardableResult public func MIDIThruConnectionFind(_ inPersistentOwnerID: CFString, _ outConnectionList: UnsafeMutablePointer<Unmanaged<CFData>>) -> OSStatus {
    let s = MIDIServer.shared
    let owner = inPersistentOwnerID as String
    var refs = s.thruConnections(ownedBy: owner)
    outConnectionList.initialize(to: Unmanaged.passRetained(NSData(bytes: &refs, length: refs.count * MemoryLayout<MIDIThruConnectionRef>.size)))
    return noErr
}
