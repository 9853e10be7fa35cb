/// The filter of one AVAudioUnitEQ band (AUNBandEQ's filter types).
public enum AVAudioUnitEQFilterType: Int, Sendable {
    case parametric = 0
    case lowPass = 1
    case highPass = 2
    case resonantLowPass = 3
    case resonantHighPass = 4
    case bandPass = 5
    case bandStop = 6
    case lowShelf = 7
    case highShelf = 8
    case resonantLowShelf = 9
    case resonantHighShelf = 10
}
