import Foundation

// The device's volume and mute controls (kAudioDevicePropertyVolumeScalar, VolumeDecibels, VolumeRangeDecibels,
// the two translations, Mute) over its ALSA mixer, in the input and output scopes: element 0 is the main
// control, elements 1...n the channels that have a control of their own. A device without a mixer element in
// a direction has none of these properties there (Apple: kAudioHardwareUnknownPropertyError).
extension HALDevice {
    /// The mixer, opened on first use; nil if the device has none.
    var mixer: ALSAMixer? {
        mixerLock.withLock {
            switch mixerState {
            case .open(let m): return m
            case .none: return nil
            case .unopened:
                guard let m = ALSAMixer(uid: uid) else { mixerState = .none; return nil }
                mixerState = .open(m)
                return m
            }
        }
    }

    /// The mixer if it is already open (the watcher polls only those).
    var openMixer: ALSAMixer? {
        mixerLock.withLock { if case .open(let m) = mixerState { m } else { nil } }
    }

    /// The direction and channel an address names, if the device has a volume control there.
    private func volumeTarget(_ address: AudioObjectPropertyAddress) -> (mixer: ALSAMixer, input: Bool, channel: Int)? {
        let input: Bool
        switch address.mScope {
        case kAudioObjectPropertyScopeInput: input = true
        case kAudioObjectPropertyScopeOutput: input = false
        default: return nil
        }
        guard (input ? inputCapabilities : outputCapabilities) != nil, let mixer, mixer.hasVolume(input: input) else { return nil }
        let channel = Int(address.mElement)
        guard channel <= min(mixer.channelCount(input: input), Int(channels(input: input))) else { return nil }
        return (mixer, input, channel)
    }

    /// The number of channel elements (1...n) with a volume control in a direction (0: the main one only).
    func volumeChannelCount(input: Bool) -> Int {
        guard let mixer, mixer.hasVolume(input: input) else { return 0 }
        return min(mixer.channelCount(input: input), Int(channels(input: input)))
    }

    func volumeValue(_ address: AudioObjectPropertyAddress) -> HALPropertyValue? {
        guard let (mixer, input, channel) = volumeTarget(address) else { return nil }
        switch address.mSelector {
        case kAudioDevicePropertyVolumeScalar:
            return mixer.scalar(input: input, channel: channel).map { .float32(Float($0)) }
        case kAudioDevicePropertyVolumeDecibels:
            guard let curve = mixer.curve(input: input), let s = mixer.scalar(input: input, channel: channel) else { return nil }
            return .float32(Float(curve.decibels(scalar: s)))
        case kAudioDevicePropertyVolumeRangeDecibels:
            guard let curve = mixer.curve(input: input) else { return nil }
            return .range(AudioValueRange(mMinimum: curve.minimum, mMaximum: curve.maximum))
        case kAudioDevicePropertyVolumeScalarToDecibels, kAudioDevicePropertyVolumeDecibelsToScalar:
            // The answer is computed from the caller's value (translate); this stands for its size.
            return mixer.curve(input: input) == nil ? nil : .float32(0)
        case kAudioDevicePropertyMute:
            guard mixer.hasMute(input: input, channel: channel), let muted = mixer.isMuted(input: input, channel: channel) else { return nil }
            return .uint32(muted ? 1 : 0)
        default:
            return nil
        }
    }

    /// VolumeScalarToDecibels and VolumeDecibelsToScalar: the caller's Float32, translated in place.
    func translateVolume(_ address: AudioObjectPropertyAddress, _ data: UnsafeMutableRawPointer,
                         size: UnsafeMutablePointer<UInt32>) -> OSStatus? {
        guard address.mSelector == kAudioDevicePropertyVolumeScalarToDecibels
                || address.mSelector == kAudioDevicePropertyVolumeDecibelsToScalar else { return nil }
        guard let (mixer, input, _) = volumeTarget(address), let curve = mixer.curve(input: input) else {
            return kAudioHardwareUnknownPropertyError
        }
        guard size.pointee >= 4 else { return kAudioHardwareBadPropertySizeError }
        let value = Double(data.load(as: Float32.self))
        let result = address.mSelector == kAudioDevicePropertyVolumeScalarToDecibels
            ? curve.decibels(scalar: value) : curve.scalar(decibels: value)
        data.storeBytes(of: Float32(result), as: Float32.self)
        size.pointee = 4
        return kAudioHardwareNoError
    }

    func setVolume(_ address: AudioObjectPropertyAddress, _ data: UnsafeRawBufferPointer) -> OSStatus {
        guard let (mixer, input, channel) = volumeTarget(address) else { return kAudioHardwareUnknownPropertyError }
        guard data.count >= 4 else { return kAudioHardwareBadPropertySizeError }
        let ok: Bool
        switch address.mSelector {
        case kAudioDevicePropertyVolumeScalar:
            let v = data.loadUnaligned(as: Float32.self)
            guard v.isFinite else { return kAudioHardwareIllegalOperationError }
            ok = mixer.setScalar(Double(v), input: input, channel: channel)
        case kAudioDevicePropertyVolumeDecibels:
            let v = data.loadUnaligned(as: Float32.self)
            guard let curve = mixer.curve(input: input), !v.isNaN else { return kAudioHardwareUnknownPropertyError }
            ok = mixer.setScalar(curve.scalar(decibels: Double(v)), input: input, channel: channel)
        case kAudioDevicePropertyMute:
            guard mixer.hasMute(input: input, channel: channel) else { return kAudioHardwareUnknownPropertyError }
            ok = mixer.setMuted(data.loadUnaligned(as: UInt32.self) != 0, input: input, channel: channel)
        default:
            return kAudioHardwareUnknownPropertyError
        }
        guard ok else { return kAudioHardwareUnspecifiedError }
        notifyVolume(input: input, volume: address.mSelector != kAudioDevicePropertyMute, mute: address.mSelector == kAudioDevicePropertyMute)
        return kAudioHardwareNoError
    }

    /// Tells listeners that the volume or mute of a direction changed (every element: the main control and
    /// the channels move together when either is set).
    func notifyVolume(input: Bool, volume: Bool, mute: Bool) {
        let scope = input ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput
        let elements = 0...UInt32(volumeChannelCount(input: input))
        var selectors: [AudioObjectPropertySelector] = []
        if volume { selectors += [kAudioDevicePropertyVolumeScalar, kAudioDevicePropertyVolumeDecibels] }
        if mute { selectors.append(kAudioDevicePropertyMute) }
        let addresses = selectors.flatMap { selector in
            elements.map { AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: $0) }
        }
        if !addresses.isEmpty { HALSystem.shared.notify(objectID, addresses) }
    }

    /// Called by the watcher: reads mixer events (changes other programs made) and notifies.
    func pollControls() {
        guard let mixer = openMixer else { return }
        for change in mixer.poll() { notifyVolume(input: change.input, volume: change.volume, mute: change.mute) }
    }
}
