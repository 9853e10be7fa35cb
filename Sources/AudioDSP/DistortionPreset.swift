/// One of AUDistortion's factory presets: Apple's number and name (AVAudioUnitDistortionPreset's order), and a full
/// set of the 16 parameters.
///
/// Apple publishes the presets' names, not their values: the values here are ours, chosen so that `DistortionKernel`
/// sounds like the name says (bit-crushed drums, a telephone band, echoes, ring-modulated voices, ...).
public struct DistortionPreset: Sendable, Equatable {
    /// The preset's number (`AUPreset.presetNumber`, AVAudioUnitDistortionPreset's raw value), 0...21.
    public let number: Int
    /// Apple's display name ("Drums Bit Brush", "Multi-Broken Speaker", ...).
    public let name: String
    /// The 16 parameter values, indexed by `DistortionParameter.rawValue`.
    public let values: [Double]

    /// A preset from its number, name and 16 values in `DistortionParameter` order.
    public init(number: Int, name: String, values: [Double]) {
        precondition(values.count == DistortionParameter.allCases.count, "a distortion preset has 16 values")
        self.number = number
        self.name = name
        self.values = values
    }

    /// The preset's value for `parameter`.
    public subscript(parameter: DistortionParameter) -> Double { values[parameter.rawValue] }

    /// The factory preset numbered `number`, or nil.
    public static func factory(number: Int) -> DistortionPreset? {
        factoryPresets.indices.contains(number) ? factoryPresets[number] : nil
    }

    /// The 22 factory presets, by number. Values, in parameter order: delay ms, decay, delay mix %,
    /// decimation %, rounding %, decimation mix %, linear, squared, cubic, polynomial mix %,
    /// ring freq 1 Hz, ring freq 2 Hz, ring balance %, ring mix %, soft-clip gain dB, final mix %.
    public static let factoryPresets: [DistortionPreset] = [
        // Crushed to a few bits with a slight sample-rate drop: the hiss of brushes out of grit.
        DistortionPreset(number: 0, name: "Drums Bit Brush", values:
            [0.1, 1, 0, 25, 82, 80, 1, 0, 0, 0, 100, 100, 50, 0, 0, 70]),
        // A short beat-synced slap repeating like a stuttering buffer, lightly crushed.
        DistortionPreset(number: 1, name: "Drums Buffer Beats", values:
            [125, 0.35, 55, 15, 40, 40, 1, 0, 0, 0, 100, 100, 50, 0, 0, 80]),
        // Low sample rate and 8-ish bits, a little even-order warmth.
        DistortionPreset(number: 2, name: "Drums LoFi", values:
            [0.1, 1, 0, 45, 55, 85, 1, 1.5, 0, 40, 100, 100, 50, 0, 0, 85]),
        // Hard odd and even shaping, coarse rounding and a low rattle of ring modulation.
        DistortionPreset(number: 3, name: "Multi-Broken Speaker", values:
            [0.1, 1, 0, 10, 60, 50, 0.5, 8, 12, 85, 38, 71, 50, 30, 8, 100]),
        // A telephone band (held every 6 frames: 3.7 kHz wide at 44.1 kHz), few bits, pushed into the clipper.
        DistortionPreset(number: 4, name: "Multi-Cellphone Concert", values:
            [0.1, 1, 0, 43, 62, 100, 1, 2, 1, 50, 100, 100, 50, 0, 6, 100]),
        // Four steps of sample-rate and bit reduction.
        DistortionPreset(number: 5, name: "Multi-Decimated 1", values:
            [0.1, 1, 0, 25, 20, 100, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        DistortionPreset(number: 6, name: "Multi-Decimated 2", values:
            [0.1, 1, 0, 45, 40, 100, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        DistortionPreset(number: 7, name: "Multi-Decimated 3", values:
            [0.1, 1, 0, 65, 60, 100, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        DistortionPreset(number: 8, name: "Multi-Decimated 4", values:
            [0.1, 1, 0, 85, 80, 100, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        // Even and odd terms together, driven hard, with a tight doubling.
        DistortionPreset(number: 9, name: "Multi-Distorted Funk", values:
            [9, 2, 20, 0, 0, 0, 1, 4, 6, 80, 100, 100, 50, 0, 10, 100]),
        // The cubic term alone: odd harmonics.
        DistortionPreset(number: 10, name: "Multi-Distorted Cubed", values:
            [0.1, 1, 0, 0, 0, 0, 0.5, 0, 20, 100, 100, 100, 50, 0, 6, 100]),
        // The squared term alone (x·|x|): a rounder, fatter saturation.
        DistortionPreset(number: 11, name: "Multi-Distorted Squared", values:
            [0.1, 1, 0, 0, 0, 0, 0.5, 20, 0, 100, 100, 100, 50, 0, 6, 100]),
        // Clean echoes: a quarter second, a long and a shorter train.
        DistortionPreset(number: 12, name: "Multi-Echo 1", values:
            [250, 0.6, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        DistortionPreset(number: 13, name: "Multi-Echo 2", values:
            [375, 0.35, 55, 0, 15, 30, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        // Slapback echoes.
        DistortionPreset(number: 14, name: "Multi-Echo Tight 1", values:
            [30, 1.5, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, 0, 100]),
        DistortionPreset(number: 15, name: "Multi-Echo Tight 2", values:
            [60, 1, 55, 0, 0, 0, 1, 1, 0, 30, 100, 100, 50, 0, 0, 100]),
        // Every stage at once.
        DistortionPreset(number: 16, name: "Multi-Everything Is Broken", values:
            [90, 0.8, 40, 55, 70, 70, 0.7, 10, 15, 70, 60, 420, 40, 50, 12, 100]),
        // Ring modulation at voice frequencies plus a short flutter echo: a chattering alien.
        DistortionPreset(number: 17, name: "Speech Alien Chatter", values:
            [12, 2, 30, 0, 0, 0, 1, 0, 0, 0, 700, 1200, 50, 100, 0, 100]),
        // A low and a high carrier, crushed, with a drifting echo.
        DistortionPreset(number: 18, name: "Speech Cosmic Interference", values:
            [180, 0.6, 35, 20, 40, 40, 1, 0, 0, 0, 90, 3000, 70, 70, 0, 100]),
        // Carriers at 161.8 Hz and 314.159 Hz, an echo of 16.18 ms: φ and π.
        DistortionPreset(number: 19, name: "Speech Golden Pi", values:
            [16.18, 3.14, 31.4, 0, 0, 0, 1, 0, 0, 0, 161.8, 314.159, 50, 100, 0, 100]),
        // A band-limited, crushed and overdriven broadcast with a mains-hum ring.
        DistortionPreset(number: 20, name: "Speech Radio Tower", values:
            [0.1, 1, 0, 55, 50, 100, 1, 2, 0, 50, 60, 120, 30, 15, 10, 100]),
        // Slow carriers (0.5 and 2.5 Hz) swell the voice like waves, over a watery echo.
        DistortionPreset(number: 21, name: "Speech Waves", values:
            [40, 0.5, 30, 0, 0, 0, 1, 0, 0, 0, 0.5, 2.5, 30, 80, 0, 100]),
    ]
}
