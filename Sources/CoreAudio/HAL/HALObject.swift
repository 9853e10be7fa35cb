import Foundation

/// One object of the HAL's tree (the system object, a device, a stream). Subclasses answer their
/// properties; the base answers the ones every object has.
class HALObject: @unchecked Sendable {
    let objectID: AudioObjectID
    let classID: AudioClassID
    let baseClassID: AudioClassID
    let ownerID: AudioObjectID

    init(objectID: AudioObjectID, classID: AudioClassID, baseClassID: AudioClassID = kAudioObjectClassID, ownerID: AudioObjectID) {
        self.objectID = objectID
        self.classID = classID
        self.baseClassID = baseClassID
        self.ownerID = ownerID
    }

    var name: String { "" }
    var manufacturer: String { "" }
    var ownedObjects: [AudioObjectID] { [] }

    /// The value of a property, nil if the object does not have it. `qualifier` is the caller's qualifier data.
    func value(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer) -> HALPropertyValue? {
        switch address.mSelector {
        case kAudioObjectPropertyBaseClass: .uint32(baseClassID)
        case kAudioObjectPropertyClass: .uint32(classID)
        case kAudioObjectPropertyOwner: .uint32(ownerID)
        case kAudioObjectPropertyName: .string(name)
        case kAudioObjectPropertyManufacturer: .string(manufacturer)
        case kAudioObjectPropertyOwnedObjects: .objects(ownedObjects)
        default: nil
        }
    }

    /// A property whose answer is computed from the caller's own data (a translation such as
    /// kAudioDevicePropertyVolumeScalarToDecibels, in-out in `data`); nil: not such a property, use `value`.
    func translate(_ address: AudioObjectPropertyAddress, _ data: UnsafeMutableRawPointer, size: UnsafeMutablePointer<UInt32>) -> OSStatus? {
        nil
    }

    func isSettable(_ address: AudioObjectPropertyAddress) -> Bool { false }

    /// Sets a settable property. The caller has checked it exists and is settable.
    func setValue(_ address: AudioObjectPropertyAddress, _ data: UnsafeRawBufferPointer) -> OSStatus {
        kAudioHardwareUnsupportedOperationError
    }
}
