import Foundation

/// The in-process MIDI server: the object table, unique IDs, and delivery on the MIDI thread.
final class MIDIServer: @unchecked Sendable {
    static let shared = MIDIServer()

    private let lock = NSLock()
    private var objects: [MIDIObjectRef: MIDIObject] = [:]
    private var nextRef: MIDIObjectRef = 0x1_0000
    private var usedIDs: Set<MIDIUniqueID> = []
    /// Sources and destinations in creation order (MIDIGetSource/MIDIGetDestination index them).
    private var sources: [MIDIEndpointRef] = []
    private var destinations: [MIDIEndpointRef] = []
    /// Devices (of the JACK and ALSA sequencer backends) in creation order.
    private var devices: [MIDIDeviceRef] = []
    /// External devices added to the setup, in the order they were added.
    private var externalDevices: [MIDIDeviceRef] = []
    /// Apple delivers on a high-priority thread of its own; so does this module.
    let scheduler = MIDIScheduler()

    /// Runs `body` under the table lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Creates and registers an object with a fresh unique ID (a driver's objects ask for `uniqueID`, derived from
    /// what they stand for, so that it stays the same across runs: the next free one after it if taken); the
    /// caller holds no lock.
    func create(_ kind: MIDIObject.Kind, owner: MIDIObjectRef, name: String, uniqueID: MIDIUniqueID? = nil,
                configure: (MIDIObject) -> Void = { _ in }) -> MIDIObjectRef {
        locked {
            nextRef += 1
            let object = MIDIObject(ref: nextRef, kind: kind, owner: owner)
            object.strings["name"] = name
            configure(object)
            var id: MIDIUniqueID
            if var wanted = uniqueID {
                while wanted == kMIDIInvalidUniqueID || usedIDs.contains(wanted) { wanted &+= 1 }
                id = wanted
            } else {
                repeat { id = MIDIUniqueID.random(in: 1...Int32.max) * (Bool.random() ? 1 : -1) } while usedIDs.contains(id)
            }
            usedIDs.insert(id)
            object.integers["uniqueID"] = id
            objects[object.ref] = object
            if kind == .source { sources.append(object.ref) }
            if kind == .destination { destinations.append(object.ref) }
            if kind == .device && object.inSetup { devices.append(object.ref) }
            if (object.isEndpoint || kind == .device || kind == .entity) && isInSetup(object) { notifyClients(added: true, object) }
            return object.ref
        }
    }

    /// The object behind a handle, if it exists and is one of `kinds` (caller holds the lock).
    func object(_ ref: MIDIObjectRef, _ kinds: Set<MIDIObject.Kind>? = nil) -> MIDIObject? {
        guard let o = objects[ref] else { return nil }
        if let kinds, !kinds.contains(o.kind) { return nil }
        return o
    }

    /// Removes an object and everything that refers to it (caller holds the lock).
    func remove(_ ref: MIDIObjectRef) {
        guard let o = objects[ref] else { return }
        // A client goes before its ports and endpoints (it hears nothing of their removal); a device's
        // entities and an entity's endpoints go before their parent (their notifications name it).
        if o.kind == .client { objects[ref] = nil }
        if o.kind == .client || o.kind == .device || o.kind == .entity {
            for child in objects.values where child.owner == ref { remove(child.ref) }
        }
        let announced = isInSetup(o)
        objects[ref] = nil
        if (o.isEndpoint || o.kind == .device || o.kind == .entity) && announced { notifyClients(added: false, o) }
        if o.isEndpoint && o.driver == nil && objects[o.owner]?.kind == .client { MIDIBackends.virtualEndpointRemoved(ref) }
        if let id = o.integers["uniqueID"] { usedIDs.remove(id) }
        sources.removeAll { $0 == ref }
        destinations.removeAll { $0 == ref }
        devices.removeAll { $0 == ref }
        externalDevices.removeAll { $0 == ref }
        for other in objects.values where other.kind == .inputPort || other.kind == .thruConnection { other.connections[ref] = nil }
    }

    /// The children of a device (its entities) or an entity (its endpoints of `kind`), in creation order.
    func children(of ref: MIDIObjectRef, _ kind: MIDIObject.Kind) -> [MIDIObjectRef] {
        locked { objects.values.filter { $0.owner == ref && $0.kind == kind }.map(\.ref).sorted() }
    }

    /// The thru connections created with persistent owner ID `owner`, oldest first.
    func thruConnections(ownedBy owner: String) -> [MIDIThruConnectionRef] {
        locked { objects.values.filter { $0.kind == .thruConnection && $0.thru?.ownerID == owner }.map(\.ref).sorted() }
    }

    /// Devices, in creation order.
    func allDevices() -> [MIDIDeviceRef] { locked { devices } }

    /// External devices in the setup, in the order they were added.
    func allExternalDevices() -> [MIDIDeviceRef] { locked { externalDevices } }

    /// Whether an object is in the setup: a device added to it, or an object under one; clients, ports and
    /// virtual endpoints always are (caller holds the lock).
    func isInSetup(_ o: MIDIObject) -> Bool {
        var current: MIDIObject? = o
        while let c = current {
            if c.kind == .device { return c.inSetup }
            if c.kind != .entity && !c.isEndpoint { return true }
            current = objects[c.owner]
        }
        return true
    }

    /// Puts a device created outside the setup into it, and announces it with everything under it (caller
    /// holds the lock). False if it is not such a device or is already in.
    func addToSetup(_ device: MIDIObject) -> Bool {
        guard device.kind == .device, !device.inSetup else { return false }
        device.inSetup = true
        if device.external { externalDevices.append(device.ref) } else { devices.append(device.ref) }
        notifyClients(added: true, device)
        return true
    }

    /// The virtual endpoints (no driver), oldest first: what a backend publishes when it connects.
    func virtualEndpoints() -> [(ref: MIDIEndpointRef, kind: MIDIObject.Kind, name: String)] {
        locked {
            objects.values.filter { $0.isEndpoint && $0.driver == nil && objects[$0.owner]?.kind == .client }.sorted { $0.ref < $1.ref }
                .map { ($0.ref, $0.kind, $0.strings["name"] ?? "") }
        }
    }

    /// Whether a unique ID is free for `ref` to take (caller holds the lock); takes it if so.
    func claim(_ id: MIDIUniqueID, for ref: MIDIObjectRef) -> Bool {
        guard let o = objects[ref] else { return false }
        if o.integers["uniqueID"] == id { return true }
        guard id != kMIDIInvalidUniqueID, !usedIDs.contains(id) else { return false }
        if let old = o.integers["uniqueID"] { usedIDs.remove(old) }
        usedIDs.insert(id)
        return true
    }

    /// The object with a unique ID (caller holds the lock).
    func find(uniqueID: MIDIUniqueID) -> MIDIObject? {
        objects.values.first { $0.integers["uniqueID"] == uniqueID }
    }

    /// Visible sources or destinations (private ones are left out, as Apple's lists leave them out).
    func endpoints(_ kind: MIDIObject.Kind) -> [MIDIEndpointRef] {
        locked {
            (kind == .source ? sources : destinations).filter {
                guard let o = objects[$0] else { return false }
                return (o.integers["private"] ?? 0) == 0 && !o.external && isInSetup(o)
            }
        }
    }

    /// The receivers of what a source sends: every input port connected to it, with its refCon.
    func receivers(ofSource source: MIDIEndpointRef) -> [(MIDIObject, UnsafeMutableRawPointer?)] {
        locked {
            objects.values.filter { $0.kind == .inputPort || $0.kind == .thruConnection }.sorted { $0.ref < $1.ref }
                .compactMap { port in port.connections[source].map { (port, $0) } }
        }
    }

    /// Tells every client with a notify proc or block that an endpoint came or went, then that the setup
    /// changed, as Apple's server does (on the MIDI thread; caller holds the lock).
    private func notifyClients(added: Bool, _ object: MIDIObject) {
        let ref = object.ref, type = object.objectType
        // A device's entity and an entity's endpoint name their parent; virtual endpoints and devices have none.
        let parent = objects[object.owner].flatMap { $0.kind == .device || $0.kind == .entity ? $0 : nil }
        let parentRef = parent?.ref ?? 0, parentType = parent?.objectType ?? .other
        for client in objects.values where client.kind == .client && (client.notifyProc != nil || client.notifyBlock != nil) {
            let proc = client.notifyProc
            nonisolated(unsafe) let block = client.notifyBlock, refCon = client.refCon
            scheduler.schedule(at: 0) {
                var change = MIDIObjectAddRemoveNotification(messageID: added ? .msgObjectAdded : .msgObjectRemoved,
                                                             messageSize: UInt32(MemoryLayout<MIDIObjectAddRemoveNotification>.size),
                                                             parent: parentRef, parentType: parentType, child: ref, childType: type)
                var setup = MIDINotification(messageID: .msgSetupChanged, messageSize: UInt32(MemoryLayout<MIDINotification>.size))
                withUnsafePointer(to: &change) { p in
                    p.withMemoryRebound(to: MIDINotification.self, capacity: 1) { proc?($0, refCon); block?($0) }
                }
                proc?(&setup, refCon)
                block?(&setup)
            }
        }
    }

    /// Tells every client with a notify proc or block a bare `messageID` (kMIDIMsgThruConnectionsChanged; caller holds the lock).
    func notifyClients(_ messageID: MIDINotificationMessageID) {
        for client in objects.values where client.kind == .client && (client.notifyProc != nil || client.notifyBlock != nil) {
            let proc = client.notifyProc
            nonisolated(unsafe) let block = client.notifyBlock, refCon = client.refCon
            scheduler.schedule(at: 0) {
                var n = MIDINotification(messageID: messageID, messageSize: UInt32(MemoryLayout<MIDINotification>.size))
                proc?(&n, refCon)
                block?(&n)
            }
        }
    }

    /// Tells every client with a notify proc or block that a property of `object` changed (caller holds the lock).
    func notifyPropertyChanged(_ object: MIDIObject, _ property: String) {
        let ref = object.ref, type = object.objectType
        nonisolated(unsafe) let name = property as NSString  // kept alive by the closure while clients read it
        for client in objects.values where client.kind == .client && (client.notifyProc != nil || client.notifyBlock != nil) {
            let proc = client.notifyProc
            nonisolated(unsafe) let block = client.notifyBlock, refCon = client.refCon
            scheduler.schedule(at: 0) {
                var change = MIDIObjectPropertyChangeNotification(messageID: .msgPropertyChanged,
                                                                  messageSize: UInt32(MemoryLayout<MIDIObjectPropertyChangeNotification>.size),
                                                                  object: ref, objectType: type, propertyName: Unmanaged.passUnretained(name))
                withUnsafePointer(to: &change) { p in
                    p.withMemoryRebound(to: MIDINotification.self, capacity: 1) { proc?($0, refCon); block?($0) }
                }
            }
        }
    }

    /// Schedules delivery of `message` to `receiver` on the MIDI thread, each packet at its timestamp
    /// (packets already due go together, in one list).
    func deliver(_ message: MIDIMessageBatch, to receiver: MIDIObject, connRefCon: UnsafeMutableRawPointer?) {
        nonisolated(unsafe) let conn = connRefCon
        let destination = receiver.kind == .destination ? receiver.ref : 0
        let now = AudioGetCurrentHostTime()
        for batch in message.splitByDueTime(now: now) {
            scheduler.schedule(at: now + batch.delayNanos, destination: destination) { [self] in
                // A port or destination disposed of meanwhile hears nothing more, as with Apple's server.
                guard locked({ objects[receiver.ref] === receiver }) else { return }
                batch.call(receiver, conn)
            }
        }
    }
}
