import Foundation

// MIDISetup.h: devices a client describes (external devices, and devices made with MIDIDeviceCreate), put
// into and taken out of the setup; their entities and endpoints. The deprecated setup-object and serial-port
// calls answer as Apple's "no longer supported" ones do.

/// Creates a device outside the setup (external or not), with its name, manufacturer and model.
func makeDevice(external: Bool, _ name: CFString, _ manufacturer: CFString, _ model: CFString) -> MIDIDeviceRef {
    MIDIServer.shared.create(.device, owner: 0, name: name as String) {
        $0.external = external
        $0.inSetup = false
        $0.clientMade = true
        $0.strings["manufacturer"] = manufacturer as String
        $0.strings["model"] = model as String
    }
}

/// Creates an external device (not yet in the setup: MIDISetupAddExternalDevice puts it there).
@discardableResult public func MIDIExternalDeviceCreate(_ name: CFString, _ manufacturer: CFString, _ model: CFString,
                                                        _ outDevice: UnsafeMutablePointer<MIDIDeviceRef>) -> OSStatus {
    outDevice.pointee = makeDevice(external: true, name, manufacturer, model)
    return noErr
}

/// Adds `count` endpoints of `kind` to an entity, named after it and speaking its protocol.
private func addEndpoints(_ entity: MIDIEntityRef, _ kind: MIDIObject.Kind, _ count: Int, name: String,
                          external: Bool, protocolID: MIDIProtocolID) {
    for _ in 0..<max(count, 0) {
        _ = MIDIServer.shared.create(kind, owner: entity, name: name) {
            $0.external = external
            $0.protocolID = protocolID
        }
    }
}

/// Adds an entity to a device: `embedded` says it is inside the device rather than a set of connectors.
@discardableResult public func MIDIDeviceNewEntity(_ device: MIDIDeviceRef, _ name: CFString, _ protocol: MIDIProtocolID, _ embedded: Bool,
                                                   _ numSourceEndpoints: Int, _ numDestinationEndpoints: Int,
                                                   _ newEntity: UnsafeMutablePointer<MIDIEntityRef>) -> OSStatus {
    let s = MIDIServer.shared
    guard let d = s.locked({ s.object(device, [.device]) }) else { return kMIDIObjectNotFound }
    guard d.clientMade else { return kMIDINotPermitted }
    let external = d.external
    let entity = s.create(.entity, owner: device, name: name as String) {
        $0.external = external
        $0.clientMade = true
        $0.integers["embedded"] = embedded ? 1 : 0
        $0.integers["protocol"] = `protocol`.rawValue
    }
    addEndpoints(entity, .source, numSourceEndpoints, name: name as String, external: external, protocolID: `protocol`)
    addEndpoints(entity, .destination, numDestinationEndpoints, name: name as String, external: external, protocolID: `protocol`)
    newEntity.pointee = entity
    return noErr
}

/// Adds an entity speaking MIDI 1.0 to a device (the older form of MIDIDeviceNewEntity).
@available(*, deprecated, renamed: "MIDIDeviceNewEntity")
@discardableResult public func MIDIDeviceAddEntity(_ device: MIDIDeviceRef, _ name: CFString, _ embedded: Bool,
                                                   _ numSourceEndpoints: Int, _ numDestinationEndpoints: Int,
                                                   _ newEntity: UnsafeMutablePointer<MIDIEntityRef>) -> OSStatus {
    MIDIDeviceNewEntity(device, name, ._1_0, embedded, numSourceEndpoints, numDestinationEndpoints, newEntity)
}

/// Removes an entity, with its endpoints, from its device.
@discardableResult public func MIDIDeviceRemoveEntity(_ device: MIDIDeviceRef, _ entity: MIDIEntityRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(device, [.device]) != nil, let e = s.object(entity, [.entity]), e.owner == device else { return kMIDIObjectNotFound }
        guard e.clientMade else { return kMIDINotPermitted }
        s.remove(entity)
        return noErr
    }
}

/// Sets the number of an entity's sources and destinations: new ones take the entity's protocol; the
/// newest go first when there are too many.
@discardableResult public func MIDIEntityAddOrRemoveEndpoints(_ entity: MIDIEntityRef, _ numSourceEndpoints: Int, _ numDestinationEndpoints: Int) -> OSStatus {
    let s = MIDIServer.shared
    guard let e = s.locked({ s.object(entity, [.entity]) }) else { return kMIDIObjectNotFound }
    guard e.clientMade else { return kMIDINotPermitted }
    let protocolID = MIDIProtocolID(rawValue: e.integers["protocol"] ?? 1) ?? ._1_0
    for (kind, wanted) in [(MIDIObject.Kind.source, numSourceEndpoints), (.destination, numDestinationEndpoints)] {
        let current = s.children(of: entity, kind)
        if current.count > wanted {
            s.locked { for ref in current.suffix(current.count - max(wanted, 0)).reversed() { s.remove(ref) } }
        } else {
            addEndpoints(entity, kind, wanted - current.count, name: e.strings["name"] ?? "", external: e.external, protocolID: protocolID)
        }
    }
    return noErr
}

/// Puts a device made by MIDIDeviceCreate into the setup (then it is listed by MIDIGetDevice).
@discardableResult public func MIDISetupAddDevice(_ device: MIDIDeviceRef) -> OSStatus { addToSetup(device, external: false) }
/// Takes a device out of the setup and disposes it.
@discardableResult public func MIDISetupRemoveDevice(_ device: MIDIDeviceRef) -> OSStatus { removeFromSetup(device, external: false) }
/// Puts an external device into the setup (then it is listed by MIDIGetExternalDevice).
@discardableResult public func MIDISetupAddExternalDevice(_ device: MIDIDeviceRef) -> OSStatus { addToSetup(device, external: true) }
/// Takes an external device out of the setup and disposes it.
@discardableResult public func MIDISetupRemoveExternalDevice(_ device: MIDIDeviceRef) -> OSStatus { removeFromSetup(device, external: true) }

private func addToSetup(_ device: MIDIDeviceRef, external: Bool) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let d = s.object(device, [.device]), d.external == external else { return kMIDIObjectNotFound }
        return s.addToSetup(d) ? noErr : kMIDINotPermitted
    }
}

private func removeFromSetup(_ device: MIDIDeviceRef, external: Bool) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let d = s.object(device, [.device]), d.external == external else { return kMIDIObjectNotFound }
        guard d.clientMade, d.inSetup else { return kMIDINotPermitted }
        s.remove(device)
        return noErr
    }
}

// The setup objects of Core MIDI 1.0, unsupported since macOS 10.6: Apple's calls fail without doing anything.

/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupCreate(_ outSetup: UnsafeMutablePointer<MIDISetupRef>) -> OSStatus { kMIDIUnknownError }
/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupDispose(_ setup: MIDISetupRef) -> OSStatus { kMIDIUnknownError }
/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupInstall(_ setup: MIDISetupRef) -> OSStatus { kMIDIUnknownError }
/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupGetCurrent(_ outSetup: UnsafeMutablePointer<MIDISetupRef>) -> OSStatus { kMIDIUnknownError }
/// Unsupported since macOS 10.6: kMIDIUnknownError, no data.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupToData(_ setup: MIDISetupRef, _ outData: UnsafeMutablePointer<Unmanaged<CFData>?>) -> OSStatus {
    outData.pointee = nil
    return kMIDIUnknownError
}
/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetupFromData(_ data: CFData, _ outSetup: UnsafeMutablePointer<MIDISetupRef>) -> OSStatus { kMIDIUnknownError }

/// Unsupported since macOS 10.6 (no serial-port drivers): kMIDIUnknownError, no owner.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDIGetSerialPortOwner(_ portName: CFString, _ outDriverName: UnsafeMutablePointer<Unmanaged<CFString>?>) -> OSStatus {
    outDriverName.pointee = nil
    return kMIDIUnknownError
}
/// Unsupported since macOS 10.6: kMIDIUnknownError.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDISetSerialPortOwner(_ portName: CFString, _ driverName: CFString) -> OSStatus { kMIDIUnknownError }
/// Unsupported since macOS 10.6 (no serial-port drivers): kMIDIUnknownError, no list.
@available(*, deprecated, message: "No longer supported")
@discardableResult public func MIDIGetSerialPortDrivers(_ outDriverNames: UnsafeMutablePointer<Unmanaged<CFArray>?>) -> OSStatus {
    outDriverNames.pointee = nil
    return kMIDIUnknownError
}
