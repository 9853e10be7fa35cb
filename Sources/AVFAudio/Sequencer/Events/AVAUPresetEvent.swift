import Foundation

/// A preset (a ClassInfo dictionary) loaded into the track's destination unit when played (the track's
/// AUPresetEvent).
open class AVAUPresetEvent: AVMusicEvent, @unchecked Sendable {
    /// The scope (Global).
    open var scope: UInt32
    /// The element (usually 0).
    open var element: UInt32
    /// The preset, copied when the event was made.
    public let presetDictionary: [AnyHashable: Any]
    /// The preset as the object the track's event retains.
    private let preset: NSDictionary

    /// A preset for `scope` and `element`.
    public init(scope: UInt32, element: UInt32, dictionary presetDictionary: [AnyHashable: Any]) {
        self.scope = scope
        self.element = element
        self.presetDictionary = presetDictionary
        preset = NSDictionary(dictionary: presetDictionary)
        super.init()
    }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        let event = AUPresetEvent(scope: scope, element: element, preset: Unmanaged.passUnretained(preset as CFPropertyList))
        return (kMusicEventType_AUPreset, Self.bytes(of: event))
    }
}
