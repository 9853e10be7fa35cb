/// SoundFont 2.04 generator numbers (section 8.1.2) and their default values (section 8.1.3). The engine keeps a
/// voice's generators in an array indexed by these numbers.
public enum SoundFontGenerator {
    /// Number of generator slots (0...60).
    public static let count = 61

    public static let startAddressOffset = 0
    public static let endAddressOffset = 1
    public static let startLoopAddressOffset = 2
    public static let endLoopAddressOffset = 3
    public static let startAddressCoarseOffset = 4
    public static let modLfoToPitch = 5
    public static let vibLfoToPitch = 6
    public static let modEnvToPitch = 7
    public static let initialFilterFc = 8
    public static let initialFilterQ = 9
    public static let modLfoToFilterFc = 10
    public static let modEnvToFilterFc = 11
    public static let endAddressCoarseOffset = 12
    public static let modLfoToVolume = 13
    public static let chorusEffectsSend = 15
    public static let reverbEffectsSend = 16
    public static let pan = 17
    public static let delayModLFO = 21
    public static let freqModLFO = 22
    public static let delayVibLFO = 23
    public static let freqVibLFO = 24
    public static let delayModEnv = 25
    public static let attackModEnv = 26
    public static let holdModEnv = 27
    public static let decayModEnv = 28
    public static let sustainModEnv = 29
    public static let releaseModEnv = 30
    public static let keynumToModEnvHold = 31
    public static let keynumToModEnvDecay = 32
    public static let delayVolEnv = 33
    public static let attackVolEnv = 34
    public static let holdVolEnv = 35
    public static let decayVolEnv = 36
    public static let sustainVolEnv = 37
    public static let releaseVolEnv = 38
    public static let keynumToVolEnvHold = 39
    public static let keynumToVolEnvDecay = 40
    public static let instrument = 41
    public static let keyRange = 43
    public static let velRange = 44
    public static let startLoopAddressCoarseOffset = 45
    public static let keynum = 46
    public static let velocity = 47
    public static let initialAttenuation = 48
    public static let endLoopAddressCoarseOffset = 50
    public static let coarseTune = 51
    public static let fineTune = 52
    public static let sampleID = 53
    public static let sampleModes = 54
    public static let scaleTuning = 56
    public static let exclusiveClass = 57
    public static let overridingRootKey = 58

    /// The default value of generator `index` (SoundFont 2.04 section 8.1.3), in the generator's own units.
    @_noLocks @_noAllocation
    public static func defaultValue(_ index: Int) -> Float {
        switch index {
        case initialFilterFc: return 13500
        case delayModLFO, delayVibLFO, delayModEnv, attackModEnv, holdModEnv, decayModEnv, releaseModEnv,
             delayVolEnv, attackVolEnv, holdVolEnv, decayVolEnv, releaseVolEnv: return -12000
        case keyRange: return 127 * 256  // lo 0, hi 127 (not read from here: ranges are kept apart)
        case velRange: return 127 * 256
        case keynum, velocity, overridingRootKey: return -1
        case scaleTuning: return 100
        default: return 0
        }
    }

    /// Whether a generator may appear in a preset zone; SoundFont 2.04 section 8.1.3 makes the sample offsets,
    /// keynum, velocity, sampleModes, exclusiveClass and overridingRootKey instrument-only, and a preset zone's
    /// value for them is ignored.
    @_noLocks @_noAllocation
    public static func isValidAtPresetLevel(_ index: Int) -> Bool {
        switch index {
        case 0, 1, 2, 3, 4, 12, 45, 50, keynum, velocity, sampleModes, exclusiveClass, overridingRootKey, sampleID: return false
        default: return index >= 0 && index < count
        }
    }

    /// Whether `index` is a generator the synthesis model defines (unused and reserved numbers are ignored).
    @_noLocks @_noAllocation
    public static func isDefined(_ index: Int) -> Bool {
        switch index {
        case 14, 18, 19, 20, 42, 49, 55, 59, 60: return false
        default: return index >= 0 && index < count
        }
    }
}
