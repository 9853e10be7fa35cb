import Foundation
import OCAProperty

/// One object of the HAL's tree (the system object, a device, a stream). Each kind answers its properties from a
/// table of rows (`properties`); the base has the rows every object has.
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

    /// The object's properties: its kind's table bound to it. Each kind overrides this with its own table, whose
    /// rows are `commonRows` and its own.
    var properties: HALProperties { HALProperties(self, HALObject.table) }

    private static let table = HALProperties.table(commonRows() as [HALRow<HALObject>])

    /// The properties every object has, for any kind's table.
    static func commonRows<Object: HALObject>() -> [HALRow<Object>] {
        [
            HALProperties.value(kAudioObjectPropertyBaseClass, AudioClassID.self, get: { $0.object.baseClassID }),
            HALProperties.value(kAudioObjectPropertyClass, AudioClassID.self, get: { $0.object.classID }),
            HALProperties.value(kAudioObjectPropertyOwner, AudioObjectID.self, get: { $0.object.ownerID }),
            HALProperties.string(kAudioObjectPropertyName, get: { $0.object.name }),
            HALProperties.string(kAudioObjectPropertyManufacturer, get: { $0.object.manufacturer }),
            HALProperties.array(kAudioObjectPropertyOwnedObjects, AudioObjectID.self, get: { $0.object.ownedObjects }),
        ]
    }
}
