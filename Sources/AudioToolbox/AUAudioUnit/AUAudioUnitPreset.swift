/// A preset of an audio unit: factory presets have numbers from 0 up, user presets negative numbers.
open class AUAudioUnitPreset: NSObject, @unchecked Sendable {
    /// The preset's number.
    public var number: Int = 0
    /// The preset's name.
    public var name: String = ""

    /// An empty preset (number 0, no name).
    public override init() {
        super.init()
    }
}
