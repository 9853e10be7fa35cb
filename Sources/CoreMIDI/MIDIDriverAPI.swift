import Foundation

// MIDIDriver.h, the calls open to clients: endpoint ref cons, devices made outside the setup, device lists.
// No driver plug-ins are loaded here, so MIDIDriverRef and the driver-only calls are not provided.

/// Stores two opaque pointers with an endpoint (read back with MIDIEndpointGetRefCons).
@discardableResult public func MIDIEndpointSetRefCons(_ endpt: MIDIEndpointRef, _ ref1: UnsafeMutableRawPointer?, _ ref2: UnsafeMutableRawPointer?) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let e = s.object(endpt, [.source, .destination]) else { return kMIDIObjectNotFound }
        e.endpointRefCons = (ref1, ref2)
        return noErr
    }
}

/// The two opaque pointers stored with an endpoint (null if never set); either out pointer may be nil.
@discardableResult public func MIDIEndpointGetRefCons(_ endpt: MIDIEndpointRef, _ ref1: UnsafeMutablePointer<UnsafeMutableRawPointer>?,
                                                      _ ref2: UnsafeMutablePointer<UnsafeMutableRawPointer>?) -> OSStatus {
    let s = MIDIServer.shared
    guard let refCons = s.locked({ s.object(endpt, [.source, .destination])?.endpointRefCons }) else { return kMIDIObjectNotFound }
    // Apple's out parameters are `void **` imported as non-optional pointees; a null ref con is written as null.
    if let ref1 { UnsafeMutableRawPointer(ref1).storeBytes(of: refCons.0, as: UnsafeMutableRawPointer?.self) }
    if let ref2 { UnsafeMutableRawPointer(ref2).storeBytes(of: refCons.1, as: UnsafeMutableRawPointer?.self) }
    return noErr
}

/// Disposes a device made by MIDIDeviceCreate or MIDIExternalDeviceCreate that was never added to the setup
/// (one in the setup leaves it with MIDISetupRemoveDevice: kMIDINotPermitted).
@discardableResult public func MIDIDeviceDispose(_ device: MIDIDeviceRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let d = s.object(device, [.device]) else { return kMIDIObjectNotFound }
        guard d.clientMade, !d.inSetup else { return kMIDINotPermitted }
        s.remove(device)
        return noErr
    }
}

/// Creates an empty device list (what MIDIGetDriverDeviceList answers).
func makeDeviceList(_ devices: [MIDIDeviceRef] = []) -> MIDIDeviceListRef {
    MIDIServer.shared.create(.deviceList, owner: 0, name: "") { $0.listedDevices = devices }
}

/// Number of devices in a list (0 if it is not one).
@discardableResult public func MIDIDeviceListGetNumberOfDevices(_ devList: MIDIDeviceListRef) -> Int {
    let s = MIDIServer.shared
    return s.locked { s.object(devList, [.deviceList])?.listedDevices.count ?? 0 }
}

/// A device of a list by index (0 if out of range).
@discardableResult public func MIDIDeviceListGetDevice(_ devList: MIDIDeviceListRef, _ index0: Int) -> MIDIDeviceRef {
    let s = MIDIServer.shared
    return s.locked {
        guard let list = s.object(devList, [.deviceList])?.listedDevices, list.indices.contains(index0) else { return 0 }
        return list[index0]
    }
}

/// Appends a device to a list.
@discardableResult public func MIDIDeviceListAddDevice(_ devList: MIDIDeviceListRef, _ dev: MIDIDeviceRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let list = s.object(devList, [.deviceList]), s.object(dev, [.device]) != nil else { return kMIDIObjectNotFound }
        list.listedDevices.append(dev)
        return noErr
    }
}

/// Disposes a list (not its devices).
@discardableResult public func MIDIDeviceListDispose(_ devList: MIDIDeviceListRef) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard s.object(devList, [.deviceList]) != nil else { return kMIDIObjectNotFound }
        s.remove(devList)
        return noErr
    }
}
