import Foundation

/// Apple's `AUPresetEvent`: a preset (an audio unit's ClassInfo property list) for a scope and element.
/// Declared here rather than in the C header because it holds a CF object.
public struct AUPresetEvent {
    public var scope: AudioUnitScope
    public var element: AudioUnitElement
    public var preset: Unmanaged<CFPropertyList>

    /// The memberwise initializer the Swift importer gives Apple's struct.
    public init(scope: AudioUnitScope, element: AudioUnitElement, preset: Unmanaged<CFPropertyList>) {
        self.scope = scope
        self.element = element
        self.preset = preset
    }
}
