/// What one sounding zone pair resolves to (SoundFont 2.04 section 9.4): the instrument's generators (its zone's
/// values over its global zone's over the defaults) plus the preset's (its zone's over its global zone's, added),
/// the intersected key and velocity ranges, the modulators (defaults, instrument modulators replacing identical
/// ones, preset modulators adding to identical ones) and the sample.
public struct SoundFontRegion: Sendable {
    /// The merged generator values, indexed by `SoundFontGenerator` numbers (`SoundFontGenerator.count` entries);
    /// initialAttenuation is already scaled by FluidSynth's EMU factor 0.4.
    public var generators: [Float]
    /// The merged modulators.
    public var modulators: [SoundFontModulator]
    /// Index into `SoundFont.samples`.
    public var sampleIndex: Int
    /// The keys the region answers to (preset and instrument zone ranges intersected).
    public var keyRange: ClosedRange<Int>
    /// The velocities the region answers to.
    public var velocityRange: ClosedRange<Int>
}
