/// A modulator (SoundFont 2.04 section 8.2): `amount × map(source) × map(amountSource)` added to a generator.
public struct SoundFontModulator: Equatable, Sendable {
    /// The primary source operator (index, CC flag, direction, polarity and curve type, as stored in the file).
    public var source: UInt16
    /// The generator the modulator adds to (values with bit 15 set link to other modulators and are not supported).
    public var destination: UInt16
    /// The modulation amount in the destination generator's units (a file holds 16-bit amounts; merged preset
    /// and instrument modulators add up beyond that range).
    public var amount: Double
    /// The secondary source operator, whose mapped value scales the amount.
    public var amountSource: UInt16
    /// The transform (0 linear, 2 absolute value).
    public var transform: UInt16

    /// A modulator from its five fields.
    public init(source: UInt16, destination: UInt16, amount: Double, amountSource: UInt16, transform: UInt16) {
        self.source = source
        self.destination = destination
        self.amount = amount
        self.amountSource = amountSource
        self.transform = transform
    }

    /// Whether two modulators are "identical" in SoundFont's sense (all fields but the amount agree), the test
    /// that makes a local modulator replace a global one and a preset modulator add to an instrument's.
    @_noLocks @_noAllocation
    public func isIdentical(to other: SoundFontModulator) -> Bool {
        source == other.source && destination == other.destination && amountSource == other.amountSource && transform == other.transform
    }

    /// The default modulators of SoundFont 2.04 section 8.4 as FluidSynth applies them: velocity to attenuation,
    /// channel pressure and CC1 to vibrato depth, CC7 and CC11 to attenuation, CC10 to pan, pitch wheel times its
    /// sensitivity to fine tune. FluidSynth neutralises the velocity-to-filter modulator (its amount reads as zero)
    /// and so do we; the reverb and chorus send modulators are left out because sends are not rendered.
    public static let defaults: [SoundFontModulator] = [
        // Velocity, negative unipolar concave -> initial attenuation, 960 cB.
        SoundFontModulator(source: 0x0502, destination: 48, amount: 960, amountSource: 0, transform: 0),
        // Channel pressure, linear -> vibrato LFO to pitch, 50 cents.
        SoundFontModulator(source: 0x000D, destination: 6, amount: 50, amountSource: 0, transform: 0),
        // CC1 (modulation wheel), linear -> vibrato LFO to pitch, 50 cents.
        SoundFontModulator(source: 0x0081, destination: 6, amount: 50, amountSource: 0, transform: 0),
        // CC7 (volume), negative unipolar concave -> initial attenuation, 960 cB.
        SoundFontModulator(source: 0x0587, destination: 48, amount: 960, amountSource: 0, transform: 0),
        // CC10 (pan), bipolar linear -> pan, 500 (tenths of a percent).
        SoundFontModulator(source: 0x028A, destination: 17, amount: 500, amountSource: 0, transform: 0),
        // CC11 (expression), negative unipolar concave -> initial attenuation, 960 cB.
        SoundFontModulator(source: 0x058B, destination: 48, amount: 960, amountSource: 0, transform: 0),
        // Pitch wheel, bipolar linear, scaled by the pitch wheel sensitivity -> fine tune, 12700 cents.
        SoundFontModulator(source: 0x020E, destination: 52, amount: 12700, amountSource: 0x0010, transform: 0),
    ]

    /// SoundFont's default velocity-to-filter-cutoff modulator. FluidSynth ignores every modulator identical to it
    /// (a bank's copy included), and so does the engine.
    public static let velocityToFilterCutoff = SoundFontModulator(source: 0x0102, destination: 8, amount: -2400, amountSource: 0x0C02, transform: 0)
}
