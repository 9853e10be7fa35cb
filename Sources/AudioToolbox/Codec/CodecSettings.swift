/// The adjustable side of a lossy encoder, reached through AudioConverter's EncodeBitRate, CodecQuality,
/// BitRateControlMode and Available/Applicable EncodeBitRates properties.
package protocol CodecSettings: AnyObject {
    /// Bits per second (0: the codec's choice).
    var bitRate: UInt32 { get set }
    /// kAudioConverterQuality_Min ... Max.
    var quality: UInt32 { get set }
    /// The bit rates this codec offers for its current channels and sample rate.
    var availableBitRates: [AudioValueRange] { get }
}
