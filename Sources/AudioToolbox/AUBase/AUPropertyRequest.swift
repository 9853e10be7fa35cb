/// One property call on an audio unit: the unit, the scope and the element. An audio unit's table is the shared
/// `ObjectPropertyTable` over these requests (its rows are `AUProperty` rows, lifted by `AUProperty.objectProperty`),
/// the same dispatcher every other object kind answers from.
struct AUPropertyRequest {
    let unit: AUBase
    let scope: AudioUnitScope
    let element: AudioUnitElement
}
