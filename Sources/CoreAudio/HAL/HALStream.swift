/// A device's stream in one direction: Float32 interleaved at the device's rate (virtual and physical
/// format are the same: the ALSA stream is opened in that format).
final class HALStream: HALObject, @unchecked Sendable {
    unowned let device: HALDevice
    let isInput: Bool

    init(objectID: AudioObjectID, device: HALDevice, isInput: Bool) {
        self.device = device
        self.isInput = isInput
        super.init(objectID: objectID, classID: kAudioStreamClassID, ownerID: device.objectID)
    }

    override var name: String { device.name + (isInput ? " input" : " output") }

    override var properties: HALProperties { HALProperties(self, HALStream.table) }

    private static let table = HALProperties.table(commonRows() as [HALRow<HALStream>] + rows)

    private static let rows: [HALRow<HALStream>] = [
        HALProperties.value(kAudioStreamPropertyIsActive, UInt32.self, get: { _ in 1 }),
        HALProperties.value(kAudioStreamPropertyDirection, UInt32.self, get: { $0.object.isInput ? 1 : 0 }),
        HALProperties.value(kAudioStreamPropertyTerminalType, UInt32.self, get: { _ in 0 }),
        HALProperties.value(kAudioStreamPropertyStartingChannel, UInt32.self, get: { _ in 1 }),
        HALProperties.value(kAudioStreamPropertyLatency, UInt32.self, get: { _ in 0 }),
        // Virtual and physical format are the same; setting either sets the device's rate.
        format(kAudioStreamPropertyVirtualFormat), format(kAudioStreamPropertyPhysicalFormat),
        HALProperties.array(kAudioStreamPropertyAvailableVirtualFormats, AudioStreamRangedDescription.self, get: { $0.object.rangedFormats }),
        HALProperties.array(kAudioStreamPropertyAvailablePhysicalFormats, AudioStreamRangedDescription.self, get: { $0.object.rangedFormats }),
    ]

    private static func format(_ id: AudioObjectPropertySelector) -> HALRow<HALStream> {
        HALProperties.value(id, AudioStreamBasicDescription.self, get: { $0.object.device.streamFormat(input: $0.object.isInput) },
                            set: { $0.object.setFormat($1) })
    }

    /// One format per available rate, the rate fixed.
    private var rangedFormats: [AudioStreamRangedDescription] {
        device.availableRates.map { rate in
            var f = device.streamFormat(input: isInput)
            f.mSampleRate = rate
            return AudioStreamRangedDescription(mFormat: f, mSampleRateRange: AudioValueRange(mMinimum: rate, mMaximum: rate))
        }
    }

    /// Setting a stream format sets the device's rate (the only variable part; channels and sample type are fixed).
    private func setFormat(_ f: AudioStreamBasicDescription) -> OSStatus {
        let current = device.streamFormat(input: isInput)
        guard f.mFormatID == current.mFormatID, f.mFormatFlags == current.mFormatFlags, f.mChannelsPerFrame == current.mChannelsPerFrame,
              f.mBitsPerChannel == current.mBitsPerChannel else { return kAudioDeviceUnsupportedFormatError }
        return device.setNominalRate(f.mSampleRate)
    }
}
