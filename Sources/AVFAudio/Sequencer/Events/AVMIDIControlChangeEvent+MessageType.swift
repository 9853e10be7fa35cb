import Foundation

extension AVMIDIControlChangeEvent {
    /// General MIDI controller numbers, with Apple's raw values.
    public enum MessageType: Int, @unchecked Sendable {
        case bankSelect = 0
        case modWheel = 1
        case breath = 2
        case foot = 4
        case portamentoTime = 5
        case dataEntry = 6
        case volume = 7
        case balance = 8
        case pan = 10
        case expression = 11
        case sustain = 64
        case portamento = 65
        case sostenuto = 66
        case soft = 67
        case legatoPedal = 68
        case hold2Pedal = 69
        case filterResonance = 71
        case releaseTime = 72
        case attackTime = 73
        case brightness = 74
        case decayTime = 75
        case vibratoRate = 76
        case vibratoDepth = 77
        case vibratoDelay = 78
        case reverbLevel = 91
        case chorusLevel = 93
        case rpn_LSB = 100
        case rpn_MSB = 101
        case allSoundOff = 120
        case resetAllControllers = 121
        case allNotesOff = 123
        case omniModeOff = 124
        case omniModeOn = 125
        case monoModeOn = 126
        case monoModeOff = 127
    }
}
