/// What a loudness measurement of a whole programme found (ITU-R BS.1770-4, EBU R 128 / Tech 3341 and 3342).
public struct LoudnessMeasurement: Equatable, Sendable {
    /// Integrated (gated) loudness in LUFS; -infinity when every block is below the absolute gate.
    public var integrated: Double
    /// Loudness range in LU (EBU Tech 3342: the 10th to 95th percentile of gated short-term loudness).
    public var range: Double
    /// The largest momentary (400 ms) and short-term (3 s) loudness in LUFS (-infinity if none was complete).
    public var maxMomentary: Double
    public var maxShortTerm: Double
    /// The largest absolute sample value over all channels (linear).
    public var samplePeak: Double
    /// The largest absolute value of the signal oversampled as BS.1770-4 annex 2 asks (linear).
    public var truePeak: Double

    /// A measurement's fields.
    public init(integrated: Double, range: Double, maxMomentary: Double, maxShortTerm: Double, samplePeak: Double, truePeak: Double) {
        self.integrated = integrated
        self.range = range
        self.maxMomentary = maxMomentary
        self.maxShortTerm = maxShortTerm
        self.samplePeak = samplePeak
        self.truePeak = truePeak
    }
}
