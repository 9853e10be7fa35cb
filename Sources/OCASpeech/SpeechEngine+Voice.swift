extension SpeechEngine {
    /// One espeak-ng voice, as listed by `espeak_ListVoices`.
    public struct Voice: Sendable, Hashable, Identifiable {
        /// The voice's display name, e.g. "English (Great Britain)".
        public let name: String
        /// The voice file's path below espeak-ng-data, e.g. "gmw/en"; unique, and
        /// accepted as `voice:` by ``SpeechEngine/speak(_:voice:rate:pitch:volume:chunk:)``.
        public let identifier: String
        /// The voice's preferred language tag, e.g. "en-gb" (first of ``languages``).
        public let language: String
        /// Every language tag the voice declares, most preferred first.
        public let languages: [String]
        /// The voice's declared gender.
        public let gender: Gender
        /// The voice's declared age in years, or nil when espeak-ng leaves it unspecified.
        public let age: Int?

        /// The stable identity: espeak-ng's voice file identifier.
        public var id: String { identifier }

        /// Creates a voice description (the engine builds these from espeak-ng's list).
        public init(name: String, identifier: String, languages: [String], gender: Gender, age: Int?) {
            self.name = name
            self.identifier = identifier
            self.languages = languages
            self.language = languages.first ?? ""
            self.gender = gender
            self.age = age
        }
    }
}
