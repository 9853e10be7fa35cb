import Foundation

/// Reads an integer property (kMIDIPropertyUniqueID, Offline, Private, ...).
@discardableResult public func MIDIObjectGetIntegerProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ outValue: UnsafeMutablePointer<Int32>) -> OSStatus {
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
@discardableResult public func MIDIObjectSetIntegerProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ value: Int32) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        if key == "uniqueID" && !s.claim(value, for: obj) { return kMIDIIDNotUnique }
        o.strings[key] = nil
        o.integers[key] = value
        s.notifyPropertyChanged(o, key)
        return noErr
    }
}

/// Reads a string property; the caller owns the returned string (take it with takeRetainedValue).
@discardableResult public func MIDIObjectGetStringProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ str: UnsafeMutablePointer<Unmanaged<CFString>?>) -> OSStatus {
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
@discardableResult public func MIDIObjectSetStringProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ str: CFString) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        o.integers[propertyID as String] = nil
        o.strings[propertyID as String] = str as String
        s.notifyPropertyChanged(o, propertyID as String)
        return noErr
    }
}

/// Finds an object by unique ID, with its type.
@discardableResult public func MIDIObjectFindByUniqueID(_ inUniqueID: MIDIUniqueID, _ outObject: UnsafeMutablePointer<MIDIObjectRef>?,
                                     _ outObjectType: UnsafeMutablePointer<MIDIObjectType>?) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard inUniqueID != kMIDIInvalidUniqueID, let o = s.find(uniqueID: inUniqueID) else { return kMIDIObjectNotFound }
        outObject?.pointee = o.ref
        outObjectType?.pointee = o.objectType
        return noErr
    }
}

/// Removes a property (kMIDIUnknownProperty if the object has none by that name).
@discardableResult public func MIDIObjectRemoveProperty(_ obj: MIDIObjectRef, _ propertyID: CFString) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        guard key != "uniqueID" else { return kMIDINotPermitted }
        let had = o.strings.removeValue(forKey: key) != nil || o.integers.removeValue(forKey: key) != nil || o.others.removeValue(forKey: key) != nil
        if had { s.notifyPropertyChanged(o, key) }
        return had ? noErr : kMIDIUnknownProperty
    }
}

/// Reads a stored object property of class `T` (data or dictionary); the caller owns the result.
private func getObject<T: AnyObject>(_ obj: MIDIObjectRef, _ propertyID: CFString, _ out: UnsafeMutablePointer<Unmanaged<T>?>) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        guard let value = o.others[key] else {
            return o.strings[key] != nil || o.integers[key] != nil ? kMIDIWrongPropertyType : kMIDIUnknownProperty
        }
        guard let typed = value as? T else { return kMIDIWrongPropertyType }
        out.pointee = Unmanaged.passRetained(typed)
        return noErr
    }
}

/// Stores an object property (data or dictionary), replacing one of another type.
private func setObject(_ obj: MIDIObjectRef, _ propertyID: CFString, _ value: AnyObject) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let key = propertyID as String
        o.strings[key] = nil
        o.integers[key] = nil
        o.others[key] = value
        s.notifyPropertyChanged(o, key)
        return noErr
    }
}

/// Reads a data property; the caller owns the returned data.
@discardableResult public func MIDIObjectGetDataProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ outData: UnsafeMutablePointer<Unmanaged<CFData>?>) -> OSStatus {
    getObject(obj, propertyID, outData)
}

/// Sets a data property.
@discardableResult public func MIDIObjectSetDataProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ data: CFData) -> OSStatus {
    setObject(obj, propertyID, data.copy() as AnyObject)
}

/// Reads a dictionary property; the caller owns the returned dictionary.
@discardableResult public func MIDIObjectGetDictionaryProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ outDict: UnsafeMutablePointer<Unmanaged<CFDictionary>?>) -> OSStatus {
    getObject(obj, propertyID, outDict)
}

/// Sets a dictionary property.
@discardableResult public func MIDIObjectSetDictionaryProperty(_ obj: MIDIObjectRef, _ propertyID: CFString, _ dict: CFDictionary) -> OSStatus {
    setObject(obj, propertyID, dict.copy() as AnyObject)
}

/// All of an object's properties as a dictionary (`deep` adds nothing: virtual endpoints have no children).
@discardableResult public func MIDIObjectGetProperties(_ obj: MIDIObjectRef, _ outProperties: UnsafeMutablePointer<Unmanaged<CFPropertyList>?>, _ deep: Bool) -> OSStatus {
    let s = MIDIServer.shared
    return s.locked {
        guard let o = s.object(obj) else { return kMIDIObjectNotFound }
        let all = NSMutableDictionary()
        for (k, v) in o.strings { all[k as NSString] = v as NSString }
        for (k, v) in o.integers { all[k as NSString] = NSNumber(value: v) }
        for (k, v) in o.others { all[k as NSString] = v }
        outProperties.pointee = Unmanaged.passRetained(all as AnyObject)
        return noErr
    }
}
