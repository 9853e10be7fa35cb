extension SpeechEngine {
    /// A word of an utterance: where its audio starts and where it is in the text.
    public struct WordMark: Sendable, Hashable {
        /// The word's first sample, counted from the utterance's first (at ``SpeechEngine/sampleRate``).
        public let sampleOffset: Int
        /// The word's first character in the text, counted in Unicode scalars from 0.
        public let characterOffset: Int
        /// The word's length in Unicode scalars.
        public let characterCount: Int

        /// Creates a mark (the engine builds these from espeak-ng's word events).
        public init(sampleOffset: Int, characterOffset: Int, characterCount: Int) {
            self.sampleOffset = sampleOffset
            self.characterOffset = characterOffset
            self.characterCount = characterCount
        }
    }
}
