/// A sample header ('shdr' record) after validation: its points are indices into `SoundFont.sampleData`, clamped
/// to the sample data as SoundFont 2.04 section 7.10 requires (a loop that does not fit is marked invalid).
public struct SoundFontSample: Equatable, Sendable {
    /// The sample's name.
    public var name: String
    /// Index of the first sample point.
    public var start: Int
    /// Index one past the last sample point.
    public var end: Int
    /// Index of the first point of the loop.
    public var loopStart: Int
    /// Index one past the last point of the loop (SoundFont's dwEndloop).
    public var loopEnd: Int
    /// Whether the loop points lie inside the sample with at least two points between them.
    public var hasValidLoop: Bool
    /// The rate the sample was recorded at, Hz.
    public var sampleRate: Int
    /// The MIDI key at which the sample plays at its recorded pitch (255 in the file, "unpitched", reads as 60).
    public var originalPitch: Int
    /// The pitch correction to apply on playback, cents.
    public var pitchCorrection: Int
    /// The sample type word (1 mono, 2 right, 4 left, 8 linked; 0x8000 marks ROM samples).
    public var sampleType: Int
}
