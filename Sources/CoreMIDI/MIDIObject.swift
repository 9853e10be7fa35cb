import Foundation

/// One Core MIDI object behind a handle: a client, a port, an endpoint (virtual, or a driver's under an
/// entity of a device). Mutated only under MIDIServer's lock.
final class MIDIObject: @unchecked Sendable {
    enum Kind { case client, inputPort, outputPort, source, destination, device, entity, thruConnection, deviceList }

    let ref: MIDIObjectRef
    let kind: Kind
    let owner: MIDIObjectRef
    var strings: [String: String] = [:]
    var integers: [String: Int32] = [:]
    /// Data and dictionary properties (CFData / CFDictionary values).
    var others: [String: AnyObject] = [:]
    // What receives: a read proc, a read block (packet lists) or a receive block (event lists).
    var readProc: MIDIReadProc?
    var refCon: UnsafeMutableRawPointer?
    var readBlock: MIDIReadBlock?
    var receiveBlock: MIDIReceiveBlock?
    var protocolID: MIDIProtocolID = ._1_0
    var notifyProc: MIDINotifyProc?
    var notifyBlock: MIDINotifyBlock?
    /// Bytes to UMPs for this receiver (touched only on the MIDI thread).
    var byteParser = MIDIByteParser()
    /// An input port's connected sources, with the refCon passed to MIDIPortConnectSource.
    var connections: [MIDIEndpointRef: UnsafeMutableRawPointer?] = [:]
    /// The backend behind a device's endpoint (JACK, ALSA sequencer); nil for virtual endpoints.
    var driver: (any MIDIEndpointDriver)?
    /// A thru connection's parameters and transform (it listens to its sources as an input port does).
    var thru: MIDIThruConnection?
    /// An endpoint's two ref cons (MIDIEndpointSetRefCons), opaque to the server.
    var endpointRefCons: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) = (nil, nil)
    /// Part of an external device (MIDIExternalDeviceCreate): its endpoints stay out of the source and
    /// destination lists, and its notifications carry the external object types.
    var external = false
    /// Whether a device is in the setup: MIDIDeviceCreate and MIDIExternalDeviceCreate make devices outside it
    /// (unlisted, unannounced) until MIDISetupAddDevice / MIDISetupAddExternalDevice.
    var inSetup = true
    /// A device made by MIDIDeviceCreate / MIDIExternalDeviceCreate, or an entity of one: clients may edit
    /// its entities and endpoints (a backend's devices are the backend's own).
    var clientMade = false
    /// A device list's devices (MIDIDeviceListAddDevice), in the order added.
    var listedDevices: [MIDIDeviceRef] = []

    /// A new object with its handle and owning client (0 for a client).
    init(ref: MIDIObjectRef, kind: Kind, owner: MIDIObjectRef) {
        self.ref = ref
        self.kind = kind
        self.owner = owner
    }

    var objectType: MIDIObjectType {
        guard external else { return baseType }
        return MIDIObjectType(rawValue: baseType.rawValue | kMIDIObjectType_ExternalMask.rawValue) ?? baseType
    }

    private var baseType: MIDIObjectType {
        switch kind {
        case .source: return .source
        case .destination: return .destination
        case .device: return .device
        case .entity: return .entity
        default: return .other
        }
    }

    var isEndpoint: Bool { kind == .source || kind == .destination }
    var receives: Bool { readProc != nil || readBlock != nil || receiveBlock != nil }
}
