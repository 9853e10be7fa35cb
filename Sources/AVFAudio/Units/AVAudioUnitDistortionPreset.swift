/// AVAudioUnitDistortion's factory presets (AUDistortion's).
public enum AVAudioUnitDistortionPreset: Int, Sendable {
    case drumsBitBrush = 0
    case drumsBufferBeats = 1
    case drumsLoFi = 2
    case multiBrokenSpeaker = 3
    case multiCellphoneConcert = 4
    case multiDecimated1 = 5
    case multiDecimated2 = 6
    case multiDecimated3 = 7
    case multiDecimated4 = 8
    case multiDistortedFunk = 9
    case multiDistortedCubed = 10
    case multiDistortedSquared = 11
    case multiEcho1 = 12
    case multiEcho2 = 13
    case multiEchoTight1 = 14
    case multiEchoTight2 = 15
    case multiEverythingIsBroken = 16
    case speechAlienChatter = 17
    case speechCosmicInterference = 18
    case speechGoldenPi = 19
    case speechRadioTower = 20
    case speechWaves = 21
}
