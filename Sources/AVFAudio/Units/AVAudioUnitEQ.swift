import Foundation

/// A multi-band equalizer (AUNBandEQ) with `numberOfBands` filters.
open class AVAudioUnitEQ: AVAudioUnitEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// The bands, in order.
    public private(set) var bands: [AVAudioUnitEQFilterParameters] = []

    /// An equalizer with one band.
    public convenience init() { self.init(numberOfBands: 1) }

    /// An equalizer with `numberOfBands` bands (1...16).
    public convenience init(numberOfBands: Int) {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
        var count = UInt32(max(1, min(numberOfBands, 16)))
        AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, 4)
        bands = (0..<Int(count)).map { AVAudioUnitEQFilterParameters(unit: unit, band: $0) }
    }

    /// Gain applied to the whole signal in dB, -96...24.
    public var globalGain: Float {
        get { parameter(kAUNBandEQParam_GlobalGain) }
        set { setParameter(kAUNBandEQParam_GlobalGain, newValue) }
    }
}
