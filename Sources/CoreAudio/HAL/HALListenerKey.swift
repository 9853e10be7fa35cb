/// What a HAL property listener listens to: one object's properties at an address, with wildcards.
struct HALListenerKey: Equatable {
    let objectID: AudioObjectID
    let address: AudioObjectPropertyAddress

    /// The same object and exactly the same address (how a removal names a registration).
    static func == (a: HALListenerKey, b: HALListenerKey) -> Bool {
        a.objectID == b.objectID && a.address.mSelector == b.address.mSelector && a.address.mScope == b.address.mScope
            && a.address.mElement == b.address.mElement
    }

    /// Whether this listener hears a change of `changed` (wildcards on either side).
    func hears(_ changed: AudioObjectPropertyAddress) -> Bool {
        let a = address
        return (a.mSelector == kAudioObjectPropertySelectorWildcard || changed.mSelector == kAudioObjectPropertySelectorWildcard
                || a.mSelector == changed.mSelector)
            && (a.mScope == kAudioObjectPropertyScopeWildcard || changed.mScope == kAudioObjectPropertyScopeWildcard
                || a.mScope == changed.mScope)
            && (a.mElement == kAudioObjectPropertyElementWildcard || changed.mElement == kAudioObjectPropertyElementWildcard
                || a.mElement == changed.mElement)
    }
}
