// Devices and entities: the JACK and ALSA sequencer backends make one device per outside client, with one
// entity holding its sources and destinations. Virtual endpoints belong to no entity.

/// The device's entities, or the entity's endpoints of `kind` (empty for anything else).
private func children(_ parent: MIDIObjectRef, _ parentKind: MIDIObject.Kind, _ kind: MIDIObject.Kind) -> [MIDIObjectRef] {
    let s = MIDIServer.shared
    guard s.locked({ s.object(parent, [parentKind]) }) != nil else { return [] }
    return s.children(of: parent, kind)
}

/// The element at `index`, 0 if out of range.
private func element(_ list: [MIDIObjectRef], _ index: Int) -> MIDIObjectRef { list.indices.contains(index) ? list[index] : 0 }

/// Number of entities of a device.
@discardableResult public func MIDIDeviceGetNumberOfEntities(_ device: MIDIDeviceRef) -> Int { children(device, .device, .entity).count }
/// An entity of a device by index (0 if out of range).
@discardableResult public func MIDIDeviceGetEntity(_ device: MIDIDeviceRef, _ entityIndex0: Int) -> MIDIEntityRef {
    element(children(device, .device, .entity), entityIndex0)
}
/// Number of sources of an entity.
@discardableResult public func MIDIEntityGetNumberOfSources(_ entity: MIDIEntityRef) -> Int { children(entity, .entity, .source).count }
/// A source of an entity by index (0 if out of range).
@discardableResult public func MIDIEntityGetSource(_ entity: MIDIEntityRef, _ sourceIndex0: Int) -> MIDIEndpointRef {
    element(children(entity, .entity, .source), sourceIndex0)
}
/// Number of destinations of an entity.
@discardableResult public func MIDIEntityGetNumberOfDestinations(_ entity: MIDIEntityRef) -> Int { children(entity, .entity, .destination).count }
/// A destination of an entity by index (0 if out of range).
@discardableResult public func MIDIEntityGetDestination(_ entity: MIDIEntityRef, _ destIndex0: Int) -> MIDIEndpointRef {
    element(children(entity, .entity, .destination), destIndex0)
}

/// The device of an entity (kMIDIObjectNotFound if `inEntity` is not one).
@discardableResult public func MIDIEntityGetDevice(_ inEntity: MIDIEntityRef, _ outDevice: UnsafeMutablePointer<MIDIDeviceRef>?) -> OSStatus {
    let s = MIDIServer.shared
    guard let e = s.locked({ s.object(inEntity, [.entity]) }) else { return kMIDIObjectNotFound }
    outDevice?.pointee = e.owner
    return noErr
}

/// The entity of an endpoint: a device's endpoint has one; a virtual endpoint has none (0, kMIDIObjectNotFound).
@discardableResult public func MIDIEndpointGetEntity(_ inEndpoint: MIDIEndpointRef, _ outEntity: UnsafeMutablePointer<MIDIEntityRef>?) -> OSStatus {
    let s = MIDIServer.shared
    let entity: MIDIEntityRef? = s.locked {
        guard let e = s.object(inEndpoint, [.source, .destination]), let owner = s.object(e.owner, [.entity]) else { return nil }
        return owner.ref
    }
    outEntity?.pointee = entity ?? 0
    return entity == nil ? kMIDIObjectNotFound : noErr
}
