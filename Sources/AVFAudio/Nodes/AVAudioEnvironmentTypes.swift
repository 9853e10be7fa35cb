// AVAudioEnvironmentNode.h's enums.

/// How sound fades with distance from the listener.
public enum AVAudioEnvironmentDistanceAttenuationModel: Int, Sendable {
    /// (distance / reference) ^ -rolloff.
    case exponential = 1
    /// reference / (reference + rolloff * (distance - reference)).
    case inverse = 2
    /// 1 - rolloff * (distance - reference) / (maximum - reference).
    case linear = 3
}

/// What the environment renders for.
public enum AVAudioEnvironmentOutputType: Int, Sendable {
    case auto = 0
    case headphones = 1
    case builtInSpeakers = 2
    case externalSpeakers = 3
}
