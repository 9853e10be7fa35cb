// Devices and entities: none exist in process yet (no ALSA/JACK bridging), so lists are empty and
// look-ups fail as Apple's do for an unknown object.

/// Number of entities of a device (none).
@discardableResult public func MIDIDeviceGetNumberOfEntities(_ device: MIDIDeviceRef) -> Int { 0 }
/// An entity of a device by index (none: 0).
@discardableResult public func MIDIDeviceGetEntity(_ device: MIDIDeviceRef, _ entityIndex0: Int) -> MIDIEntityRef { 0 }
/// Number of sources of an entity (none).
@discardableResult public func MIDIEntityGetNumberOfSources(_ entity: MIDIEntityRef) -> Int { 0 }
/// A source of an entity by index (none: 0).
@discardableResult public func MIDIEntityGetSource(_ entity: MIDIEntityRef, _ sourceIndex0: Int) -> MIDIEndpointRef { 0 }
/// Number of destinations of an entity (none).
@discardableResult public func MIDIEntityGetNumberOfDestinations(_ entity: MIDIEntityRef) -> Int { 0 }
/// A destination of an entity by index (none: 0).
@discardableResult public func MIDIEntityGetDestination(_ entity: MIDIEntityRef, _ destIndex0: Int) -> MIDIEndpointRef { 0 }

/// The device of an entity: there are no entities (kMIDIObjectNotFound).
@discardableResult public func MIDIEntityGetDevice(_ inEntity: MIDIEntityRef, _ outDevice: UnsafeMutablePointer<MIDIDeviceRef>?) -> OSStatus {
    kMIDIObjectNotFound
}

/// The entity of an endpoint: virtual endpoints have none (kMIDIObjectNotFound).
@discardableResult public func MIDIEndpointGetEntity(_ inEndpoint: MIDIEndpointRef, _ outEntity: UnsafeMutablePointer<MIDIEntityRef>?) -> OSStatus {
    outEntity?.pointee = 0
    return kMIDIObjectNotFound
}
