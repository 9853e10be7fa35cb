import Foundation

/// The encoder keys of a settings dictionary as AudioConverter property values: AVEncoderBitRateKey (or
/// AVEncoderBitRatePerChannelKey times the channels), AVEncoderAudioQualityKey (AVAudioQuality's values are
/// kAudioConverterQuality_*'s) and AVEncoderBitRateStrategyKey (kAudioCodecPropertyBitRateControlMode).
struct EncoderSettings {
    var bitRate: UInt32?
    var quality: UInt32?
    var controlMode: UInt32?

    init(_ settings: [String: Any], channels: UInt32) {
        let total = SettingsValue.number(settings[AVEncoderBitRateKey])
            ?? SettingsValue.number(settings[AVEncoderBitRatePerChannelKey]).map { $0 * Double(channels) }
        bitRate = total.map { UInt32(clamping: Int(max($0, 0))) }
        quality = SettingsValue.number(settings[AVEncoderAudioQualityKey]).map { UInt32(clamping: Int(max($0, 0))) }
        let modes = [AVAudioBitRateStrategy_Constant: kAudioCodecBitRateControlMode_Constant,
                     AVAudioBitRateStrategy_LongTermAverage: kAudioCodecBitRateControlMode_LongTermAverage,
                     AVAudioBitRateStrategy_VariableConstrained: kAudioCodecBitRateControlMode_VariableConstrained,
                     AVAudioBitRateStrategy_Variable: kAudioCodecBitRateControlMode_Variable]
        controlMode = (settings[AVEncoderBitRateStrategyKey] as? String).flatMap { modes[$0] }
    }

    var isEmpty: Bool { bitRate == nil && quality == nil && controlMode == nil }

    /// Hands each setting to `set` as (property ID, value): the control mode first, since it decides what the
    /// bit rate and quality mean.
    func apply(_ set: (UInt32, UInt32) -> Void) {
        if let controlMode { set(kAudioCodecPropertyBitRateControlMode, controlMode) }
        if let bitRate { set(kAudioConverterEncodeBitRate, bitRate) }
        if let quality { set(kAudioConverterCodecQuality, quality) }
    }
}
