extension SpeechEngine.Voice {
    /// A voice's gender as espeak-ng declares it (`espeak_VOICE.gender`).
    public enum Gender: Sendable, Hashable {
        /// Not specified (espeak-ng value 0).
        case unspecified
        /// Male (espeak-ng value 1).
        case male
        /// Female (espeak-ng value 2).
        case female

        /// Maps espeak-ng's `espeak_VOICE.gender` byte; unknown values read as unspecified.
        init(espeakValue: UInt8) {
            switch espeakValue {
            case 1: self = .male
            case 2: self = .female
            default: self = .unspecified
            }
        }
    }
}
