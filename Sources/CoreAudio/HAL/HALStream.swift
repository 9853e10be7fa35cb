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

    override func value(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer) -> HALPropertyValue? {
        switch address.mSelector {
        case kAudioStreamPropertyIsActive: return .uint32(1)
        case kAudioStreamPropertyDirection: return .uint32(isInput ? 1 : 0)
        case kAudioStreamPropertyTerminalType: return .uint32(0)
        case kAudioStreamPropertyStartingChannel: return .uint32(1)
        case kAudioStreamPropertyLatency: return .uint32(0)
        case kAudioStreamPropertyVirtualFormat, kAudioStreamPropertyPhysicalFormat:
            return .format(device.streamFormat(input: isInput))
        case kAudioStreamPropertyAvailableVirtualFormats, kAudioStreamPropertyAvailablePhysicalFormats:
            return .rangedFormats(device.availableRates.map { rate in
                var f = device.streamFormat(input: isInput)
                f.mSampleRate = rate
                return AudioStreamRangedDescription(mFormat: f, mSampleRateRange: AudioValueRange(mMinimum: rate, mMaximum: rate))
            })
        default: return super.value(address, qualifier: qualifier)
        }
    }

    override func isSettable(_ address: AudioObjectPropertyAddress) -> Bool {
        address.mSelector == kAudioStreamPropertyVirtualFormat || address.mSelector == kAudioStreamPropertyPhysicalFormat
    }

    /// Setting a stream format sets the device's rate (the only variable part; channels and sample type are fixed).
    override func setValue(_ address: AudioObjectPropertyAddress, _ data: UnsafeRawBufferPointer) -> OSStatus {
        guard data.count >= MemoryLayout<AudioStreamBasicDescription>.size else { return kAudioHardwareBadPropertySizeError }
        let f = data.loadUnaligned(as: AudioStreamBasicDescription.self)
        let current = device.streamFormat(input: isInput)
        guard f.mFormatID == current.mFormatID, f.mFormatFlags == current.mFormatFlags, f.mChannelsPerFrame == current.mChannelsPerFrame,
              f.mBitsPerChannel == current.mBitsPerChannel else { return kAudioDeviceUnsupportedFormatError }
        return device.setNominalRate(f.mSampleRate)
    }
}
