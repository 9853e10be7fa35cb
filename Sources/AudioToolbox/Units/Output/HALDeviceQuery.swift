/// The HAL questions the I/O units and the Audio Queue both ask: the default device in a direction and
/// the format of a device's stream in a direction.
enum HALDeviceQuery {
    /// The system's default input or output device (kAudioObjectUnknown if there is none).
    static func defaultDevice(input: Bool) -> AudioDeviceID {
        var address = AudioObjectPropertyAddress(mSelector: input ? kAudioHardwarePropertyDefaultInputDevice : kAudioHardwarePropertyDefaultOutputDevice,
                                                 mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        var id = kAudioObjectUnknown
        var size: UInt32 = 4
        _ = AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, nil, &size, &id)
        return id
    }

    /// The format of `device`'s stream in one direction, or nil if it has no such stream.
    static func streamFormat(_ device: AudioDeviceID, input: Bool) -> AudioStreamBasicDescription? {
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyStreams,
                                                 mScope: input ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput,
                                                 mElement: kAudioObjectPropertyElementMain)
        var stream = kAudioObjectUnknown
        var size: UInt32 = 4
        guard AudioObjectGetPropertyData(device, &address, 0, nil, &size, &stream) == noErr, size == 4 else { return nil }
        address = AudioObjectPropertyAddress(mSelector: kAudioStreamPropertyVirtualFormat, mScope: kAudioObjectPropertyScopeGlobal,
                                             mElement: kAudioObjectPropertyElementMain)
        var format = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioObjectGetPropertyData(stream, &address, 0, nil, &size, &format) == noErr else { return nil }
        return format
    }
}
