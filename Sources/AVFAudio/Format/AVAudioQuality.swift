/// Encoder and sample rate converter quality (AVEncoderAudioQualityKey, AVSampleRateConverterAudioQualityKey).
public enum AVAudioQuality: Int, Sendable {
    case min = 0
    case low = 0x20
    case medium = 0x40
    case high = 0x60
    case max = 0x7F
}
