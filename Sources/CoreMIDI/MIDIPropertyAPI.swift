import Foundation

/// Reads an integer property (kMIDIPropertyUniqueID, Offline, Private, ...).
public func MIDIObjectGetIntegerProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ outValue: UnsafeMutablePointer<Int32>) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        if let v = o.integers[key] { outValue.pointee = v; return noErr }
        if key == "offline" || key == "private" { outValue.pointee = 0; return noErr }
        if key == "protocol" && o.isEndpoint { outValue.pointee = o.protocolID.rawValue; return noErr }
        return o.strings[key] != nil ? kMIDIWrongPropertyType : kMIDIUnknownProperty
    }
}

/// Sets an integer property; a unique ID must be free (else kMIDIIDNotUnique).
public func MIDIObjectSetIntegerProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ value: Int32) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        if key == "uniqueID" && !s.claim(value, for: obj) { return kMIDIIDNotUnique }
        o.strings[key] = nil
        o.integers[key] = value
        return noErr
    }
}

/// Reads a string property; the caller owns the returned string (take it with takeRetainedValue).
public func MIDIObjectGetStringProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ str: UnsafeMutablePointer<Unmanaged<CFString>?>) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        var value = o.strings[key]
        if value == nil && key == "displayName" { value = o.strings["name"] }
        guard let value else { return o.integers[key] != nil ? kMIDIWrongPropertyType : kMIDIUnknownProperty }
        str.pointee = Unmanaged.passRetained(value as NSString)
        return noErr
    }
}

/// Sets a string property.
public func MIDIObjectSetStringProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ str: CFString) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        o.integers[propertyID as String] = nil
        o.strings[propertyID as String] = str as String
        return noErr
    }
}

/// Finds an object by unique ID, with its type.
public func MIDIObjectFindByUniqueID(_ inUniqueID: MIDIUniqueID, _ outObject: UnsafeMutablePointer<MIDIObjectRef>?,
                                     _ outObjectType: UnsafeMutablePointer<MIDIObjectType>?) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard inUniqueID != kMIDIInvalidUniqueID, let o = s.find(uniqueID: inUniqueID) else { return kMIDIObjectNotFound }
        outObject?.pointee = o.ref
        outObjectType?.pointee = o.objectType
        return noErr
    }
}
