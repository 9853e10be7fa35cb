/// One property call on a HAL object: the object, the address asked and the caller's qualifier. The HAL's property
/// rows are `ObjectProperty<HALPropertyRequest<Object>>` (`HALRow`), so a row sees the scope, the element and the
/// qualifier as well as the object, and the one table dispatcher that serves AudioFile, the converter and the
/// Audio Queue serves the HAL.
struct HALPropertyRequest<Object: HALObject> {
    let object: Object
    let address: AudioObjectPropertyAddress
    let qualifier: UnsafeRawBufferPointer

    var scope: AudioObjectPropertyScope { address.mScope }
    var element: AudioObjectPropertyElement { address.mElement }
}
