/// The PCM formats AVAudioFormat names directly.
public enum AVAudioCommonFormat: UInt, Sendable {
    /// A format other than the ones below (compressed, or PCM of another layout).
    case otherFormat = 0
    /// Native-endian Float32 (the standard format when deinterleaved).
    case pcmFormatFloat32 = 1
    /// Native-endian Float64.
    case pcmFormatFloat64 = 2
    /// Signed native-endian 16-bit integers.
    case pcmFormatInt16 = 3
    /// Signed native-endian 32-bit integers.
    case pcmFormatInt32 = 4
}
