/// AVAudioUnitReverb's factory presets (AUReverb2's rooms).
public enum AVAudioUnitReverbPreset: Int, Sendable {
    case smallRoom = 0
    case mediumRoom = 1
    case largeRoom = 2
    case mediumHall = 3
    case largeHall = 4
    case plate = 5
    case mediumChamber = 6
    case largeChamber = 7
    case cathedral = 8
    case largeRoom2 = 9
    case mediumHall2 = 10
    case mediumHall3 = 11
    case largeHall2 = 12
}
