#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions from Apple's speech-channel parameters to espeak-ng's
/// `espeak_SetParameter` values.
///
/// Every function clamps to espeak-ng's accepted range and rounds to the integer
/// espeak-ng takes; non-finite input falls back to espeak-ng's default.
public enum SpeechParameterMapping {
    /// espeak-ng's default rate (`espeakRATE_NORMAL`), in words per minute.
    public static let defaultRate: Int32 = 175
    /// espeak-ng's lowest accepted rate (`espeakRATE_MINIMUM`).
    public static let minimumRate: Int32 = 80
    /// espeak-ng's highest accepted rate (`espeakRATE_MAXIMUM`).
    public static let maximumRate: Int32 = 450
    /// espeak-ng's default base pitch (`espeakPITCH`, 0...100).
    public static let defaultPitch: Int32 = 50
    /// espeak-ng's default volume (`espeakVOLUME`): 100 is "normal full volume".
    public static let defaultVolume: Int32 = 100
    /// espeak-ng's highest volume this mapping produces; above 100 espeak-ng
    /// compresses and may distort.
    public static let maximumVolume: Int32 = 200

    /// The base pitch, in hertz, that maps to espeak-ng's default pitch 50.
    ///
    /// Measured, not derived: the geometric-mean F0 of espeak-ng 1.51's default
    /// English voice ("en") over a sentence at `-p 50` is about 98 Hz. Report this as
    /// the default pitch base so that a caller that reads and writes back the default
    /// gets espeak-ng's default voice unchanged.
    public static let defaultPitchBase: Double = 98

    /// Hertz per doubling of pitch, expressed in espeak `espeakPITCH` steps.
    ///
    /// espeak-ng multiplies the voice's base pitch by about 2^((p−50)/50) but leaves the
    /// intonation range unscaled, so the spoken F0 moves less than that: measured F0
    /// rises by a factor of about 2 every 66 steps (p 30→100: 81→167 Hz).
    public static let pitchStepsPerOctave: Double = 66

    /// Apple's speaking rate (words per minute; Apple's default voices speak at about
    /// 175–180) to `espeakRATE`.
    ///
    /// Both are words per minute, and Apple's and espeak-ng's defaults coincide
    /// (175), so the value passes through, clamped to 80...450.
    public static func espeakRate(wordsPerMinute: Double) -> Int32 {
        guard wordsPerMinute.isFinite else { return defaultRate }
        let clamped = min(max(wordsPerMinute, Double(minimumRate)), Double(maximumRate))
        return Int32(clamped.rounded())
    }

    /// Apple's baseline pitch in hertz to `espeakPITCH` (0...100).
    ///
    /// `p = 50 + 66 · log2(hertz / 98)`, clamped to 0...100: 98 Hz → 50 (espeak's
    /// default), 196 Hz → 100, 49 Hz → 0; beyond those it clamps. What the default
    /// voice can reach is roughly 60...170 Hz (measured 167 Hz at 100); other voices
    /// and variants (e.g. "en+f3") scale from their own base.
    public static func espeakPitch(hertz: Double) -> Int32 {
        guard hertz.isFinite, hertz > 0 else { return defaultPitch }
        let steps = Double(defaultPitch) + pitchStepsPerOctave * log2(hertz / defaultPitchBase)
        return Int32(min(max(steps, 0), 100).rounded())
    }

    /// Apple's pitch in its classic semitone scale (Speech Synthesis Manager's
    /// `soPitchBase`; 60 = middle C, 69 = A440) to hertz, for callers that hold
    /// that form rather than hertz.
    public static func hertz(fromSemitonePitch semitones: Double) -> Double {
        440 * pow(2, (semitones - 69) / 12)
    }

    /// Apple's volume (0.0 silent ... 1.0 full, the default) to `espeakVOLUME`.
    ///
    /// Linear, with Apple's full volume 1.0 on espeak-ng's "normal full volume" 100,
    /// so the default is undistorted; values above 1 reach up to 200 (espeak-ng's
    /// compressed, louder range).
    public static func espeakVolume(_ volume: Double) -> Int32 {
        guard volume.isFinite else { return defaultVolume }
        let scaled = volume * Double(defaultVolume)
        return Int32(min(max(scaled, 0), Double(maximumVolume)).rounded())
    }
}
