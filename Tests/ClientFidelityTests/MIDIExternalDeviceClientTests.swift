// A studio-setup editor's use of Core MIDI, in Swift against Apple's API only: ref cons kept with an
// endpoint, an external device described (name, manufacturer, model), given an entity with connectors,
// added to the setup and removed again, with the notifications a client hears for both.
import CoreMIDI
import Foundation
import Testing

/// Notifications a client heard, kept as (message, child, child type, parent) tuples.
final class HeardNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(MIDINotificationMessageID, MIDIObjectRef, MIDIObjectType, MIDIObjectRef)] = []
    func add(_ n: UnsafePointer<MIDINotification>) {
        var item = (n.pointee.messageID, MIDIObjectRef(0), MIDIObjectType.other, MIDIObjectRef(0))
        if n.pointee.messageID == .msgObjectAdded || n.pointee.messageID == .msgObjectRemoved {
            n.withMemoryRebound(to: MIDIObjectAddRemoveNotification.self, capacity: 1) {
                item = ($0.pointee.messageID, $0.pointee.child, $0.pointee.childType, $0.pointee.parent)
            }
        }
        lock.lock(); items.append(item); lock.unlock()
    }
    var all: [(MIDINotificationMessageID, MIDIObjectRef, MIDIObjectType, MIDIObjectRef)] { lock.lock(); defer { lock.unlock() }; return items }
    /// Waits up to a second for `done` to hold.
    func wait(until done: ([(MIDINotificationMessageID, MIDIObjectRef, MIDIObjectType, MIDIObjectRef)]) -> Bool) -> Bool {
        for _ in 0..<100 where !done(all) { usleep(10_000) }
        return done(all)
    }
}

@Suite(.serialized) struct MIDIExternalDeviceClientTests {
    private func string(_ obj: MIDIObjectRef, _ key: CFString) -> String? {
        var value: Unmanaged<CFString>?
        guard MIDIObjectGetStringProperty(obj, key, &value) == noErr else { return nil }
        return value?.takeRetainedValue() as String?
    }

    @Test func refConsRoundTripOnAVirtualSource() throws {
        var client = MIDIClientRef()
        try #require(MIDIClientCreate("RefCons" as CFString, nil, nil, &client) == noErr)
        defer { MIDIClientDispose(client) }
        var source = MIDIEndpointRef()
        try #require(MIDISourceCreate(client, "RefCons source" as CFString, &source) == noErr)
        var a = 1, b = 2
        var r1 = UnsafeMutableRawPointer(bitPattern: 0xdead)!, r2 = UnsafeMutableRawPointer(bitPattern: 0xbeef)!
        // Never set: both come back null.
        #expect(MIDIEndpointGetRefCons(source, &r1, &r2) == noErr)
        #expect(unsafeBitCast(r1, to: Int.self) == 0)
        #expect(unsafeBitCast(r2, to: Int.self) == 0)
        try withUnsafeMutablePointer(to: &a) { pa in
            try withUnsafeMutablePointer(to: &b) { pb in
                #expect(MIDIEndpointSetRefCons(source, pa, pb) == noErr)
                try #require(MIDIEndpointGetRefCons(source, &r1, &r2) == noErr)
                #expect(r1 == UnsafeMutableRawPointer(pa))
                #expect(r2 == UnsafeMutableRawPointer(pb))
                #expect(r1.load(as: Int.self) == 1 && r2.load(as: Int.self) == 2)
                // Either out pointer may be left out.
                #expect(MIDIEndpointGetRefCons(source, nil, &r2) == noErr && r2 == UnsafeMutableRawPointer(pb))
            }
        }
        #expect(MIDIEndpointSetRefCons(client, nil, nil) == kMIDIObjectNotFound)
        #expect(MIDIEndpointGetRefCons(0, &r1, nil) == kMIDIObjectNotFound)
    }

    @Test func externalDeviceAddedFoundAndRemovedWithNotifications() throws {
        let heard = HeardNotifications()
        var client = MIDIClientRef()
        try #require(MIDIClientCreateWithBlock("Setup editor" as CFString, &client) { heard.add($0) } == noErr)
        defer { MIDIClientDispose(client) }
        let externalBefore = MIDIGetNumberOfExternalDevices(), sourcesBefore = MIDIGetNumberOfSources()

        var device = MIDIDeviceRef()
        try #require(MIDIExternalDeviceCreate("DX7" as CFString, "Yamaha" as CFString, "DX7 II" as CFString, &device) == noErr)
        #expect(device != 0)
        #expect(string(device, kMIDIPropertyName) == "DX7")
        #expect(string(device, kMIDIPropertyManufacturer) == "Yamaha")
        #expect(string(device, kMIDIPropertyModel) == "DX7 II")
        // Not in the setup until added.
        #expect(MIDIGetNumberOfExternalDevices() == externalBefore)

        var entity = MIDIEntityRef()
        try #require(MIDIDeviceNewEntity(device, "Ports" as CFString, ._1_0, false, 1, 2, &entity) == noErr)
        #expect(MIDIDeviceGetNumberOfEntities(device) == 1 && MIDIDeviceGetEntity(device, 0) == entity)
        #expect(MIDIEntityGetNumberOfSources(entity) == 1 && MIDIEntityGetNumberOfDestinations(entity) == 2)
        var owner = MIDIDeviceRef()
        #expect(MIDIEntityGetDevice(entity, &owner) == noErr && owner == device)
        var embedded: Int32 = -1
        #expect(MIDIObjectGetIntegerProperty(entity, kMIDIPropertyIsEmbeddedEntity, &embedded) == noErr && embedded == 0)

        try #require(MIDISetupAddExternalDevice(device) == noErr)
        #expect(MIDIGetNumberOfExternalDevices() == externalBefore + 1)
        #expect(MIDIGetExternalDevice(externalBefore) == device)
        #expect(string(MIDIGetExternalDevice(externalBefore), kMIDIPropertyName) == "DX7")
        // An external device's connectors are not sources a client can connect to.
        #expect(MIDIGetNumberOfSources() == sourcesBefore)
        // Added twice: refused.
        #expect(MIDISetupAddExternalDevice(device) != noErr)
        #expect(heard.wait { $0.contains { $0.0 == .msgObjectAdded && $0.1 == device } })
        let added = heard.all.first { $0.0 == .msgObjectAdded && $0.1 == device }
        #expect(added?.2 == .externalDevice)
        #expect(added?.3 == 0)
        #expect(heard.all.contains { $0.0 == .msgSetupChanged })

        // Endpoints added and removed on the entity while it is in the setup.
        #expect(MIDIEntityAddOrRemoveEndpoints(entity, 3, 1) == noErr)
        #expect(MIDIEntityGetNumberOfSources(entity) == 3 && MIDIEntityGetNumberOfDestinations(entity) == 1)
        let newSource = MIDIEntityGetSource(entity, 2)
        var found = MIDIObjectRef(), type = MIDIObjectType.other
        var uid: MIDIUniqueID = 0
        #expect(MIDIObjectGetIntegerProperty(newSource, kMIDIPropertyUniqueID, &uid) == noErr)
        #expect(MIDIObjectFindByUniqueID(uid, &found, &type) == noErr && found == newSource && type == .externalSource)
        #expect(heard.wait { $0.contains { $0.0 == .msgObjectAdded && $0.1 == newSource && $0.3 == entity && $0.2 == .externalSource } })

        #expect(MIDIDeviceRemoveEntity(device, entity) == noErr)
        #expect(MIDIDeviceGetNumberOfEntities(device) == 0)
        #expect(heard.wait { $0.contains { $0.0 == .msgObjectRemoved && $0.1 == entity && $0.2 == .externalEntity && $0.3 == device } })

        #expect(MIDISetupRemoveExternalDevice(device) == noErr)
        #expect(MIDIGetNumberOfExternalDevices() == externalBefore)
        #expect(heard.wait { $0.contains { $0.0 == .msgObjectRemoved && $0.1 == device && $0.2 == .externalDevice } })
        #expect(MIDISetupRemoveExternalDevice(device) == kMIDIObjectNotFound)
    }

    @Test func aDeviceOutsideTheSetupIsSilentAndDisposable() throws {
        let heard = HeardNotifications()
        var client = MIDIClientRef()
        try #require(MIDIClientCreateWithBlock("Quiet" as CFString, &client) { heard.add($0) } == noErr)
        defer { MIDIClientDispose(client) }
        var device = MIDIDeviceRef()
        try #require(MIDIExternalDeviceCreate("Unplugged" as CFString, "Acme" as CFString, "One" as CFString, &device) == noErr)
        var entity = MIDIEntityRef()
        try #require(MIDIDeviceNewEntity(device, "Ports" as CFString, ._2_0, true, 1, 1, &entity) == noErr)
        var proto: Int32 = 0
        #expect(MIDIObjectGetIntegerProperty(MIDIEntityGetSource(entity, 0), kMIDIPropertyProtocolID, &proto) == noErr)
        #expect(proto == MIDIProtocolID._2_0.rawValue)
        #expect(MIDIDeviceDispose(device) == noErr)
        #expect(MIDIEntityGetNumberOfSources(entity) == 0)
        usleep(100_000)
        #expect(!heard.all.contains { $0.1 == device || $0.1 == entity || $0.3 == entity })
    }

    @Test func deprecatedSetupObjectsAreUnsupported() {
        var setup = MIDISetupRef()
        #expect(MIDISetupCreate(&setup) == kMIDIUnknownError)
        #expect(MIDISetupGetCurrent(&setup) == kMIDIUnknownError)
        var data: Unmanaged<CFData>?
        #expect(MIDISetupToData(setup, &data) == kMIDIUnknownError && data == nil)
        var drivers: Unmanaged<CFArray>?
        #expect(MIDIGetSerialPortDrivers(&drivers) == kMIDIUnknownError && drivers == nil)
    }
}
