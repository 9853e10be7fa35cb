/// The adjustable side of a lossy encoder, reached through AudioConverter's EncodeBitRate, CodecQuality,
/// BitRateControlMode and Available/Applicable EncodeBitRates properties.
package protocol CodecSettings: AnyObject {
    /// Bits per second (0: the codec's choice).
    var bitRate: UInt32 { get set }
    /// kAudioConverterQuality_Min ... Max.
    var quality: UInt32 { get set }
    /// The bit rates this codec offers for its current channels and sample rate.
    var availableBitRates: [AudioValueRange] { get }
    /// kAudioCodecPropertyBitRateControlMode: one of `bitRateControlModes` (kAudioCodecBitRateControlMode_...).
    var bitRateControlMode: UInt32 { get set }
    /// The control modes the codec can apply; empty when it has one way only (the property is then read-only).
    var bitRateControlModes: [UInt32] { get }
}

package extension CodecSettings {
    /// A codec with one rate control: long-term average, not settable.
    var bitRateControlMode: UInt32 {
        get { kAudioCodecBitRateControlMode_LongTermAverage }
        set {}
    }
    var bitRateControlModes: [UInt32] { [] }
}
