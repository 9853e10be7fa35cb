import Foundation
import OCAProperty

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

    /// The volume and mute rows: present on the input or output scope, main element (0) or a channel, where the
    /// device's mixer has the control.
    static let volumeRows: [HALRow<HALDevice>] = [
        HALProperties.value(kAudioDevicePropertyVolumeScalar, Float32.self, exists: { scalar($0) != nil }, get: { Float32(scalar($0)!) },
                            set: { request, v in
                                guard v.isFinite else { return kAudioHardwareIllegalOperationError }
                                return request.object.setVolume(request.address) { mixer, input, channel in
                                    mixer.setScalar(Double(v), input: input, channel: channel)
                                }
                            }),
        HALProperties.value(kAudioDevicePropertyVolumeDecibels, Float32.self, exists: { scalar($0) != nil && curve($0) != nil },
                            get: { Float32(curve($0)!.decibels(scalar: scalar($0)!)) },
                            set: { request, v in
                                guard let curve = curve(request), !v.isNaN else { return kAudioHardwareUnknownPropertyError }
                                return request.object.setVolume(request.address) { mixer, input, channel in
                                    mixer.setScalar(curve.scalar(decibels: Double(v)), input: input, channel: channel)
                                }
                            }),
        HALProperties.value(kAudioDevicePropertyVolumeRangeDecibels, AudioValueRange.self, exists: { curve($0) != nil }, get: {
            let curve = curve($0)!
            return AudioValueRange(mMinimum: curve.minimum, mMaximum: curve.maximum)
        }),
        // The caller's Float32, translated in place.
        .translation(kAudioDevicePropertyVolumeScalarToDecibels, Float32.self, exists: { curve($0) != nil }) { request, value in
            guard let curve = curve(request) else { return kAudioHardwareUnknownPropertyError }
            value = Float32(curve.decibels(scalar: Double(value)))
            return kAudioHardwareNoError
        },
        .translation(kAudioDevicePropertyVolumeDecibelsToScalar, Float32.self, exists: { curve($0) != nil }) { request, value in
            guard let curve = curve(request) else { return kAudioHardwareUnknownPropertyError }
            value = Float32(curve.scalar(decibels: Double(value)))
            return kAudioHardwareNoError
        },
        HALProperties.value(kAudioDevicePropertyMute, UInt32.self, exists: { muted($0) != nil }, get: { muted($0)! ? 1 : 0 },
                            set: { request, v in
                                request.object.setVolume(request.address) { mixer, input, channel in
                                    mixer.setMuted(v != 0, input: input, channel: channel)
                                }
                            }),
    ]

    private static func scalar(_ request: HALPropertyRequest<HALDevice>) -> Double? {
        guard let (mixer, input, channel) = request.object.volumeTarget(request.address) else { return nil }
        return mixer.scalar(input: input, channel: channel)
    }

    private static func curve(_ request: HALPropertyRequest<HALDevice>) -> VolumeCurve? {
        guard let (mixer, input, _) = request.object.volumeTarget(request.address) else { return nil }
        return mixer.curve(input: input)
    }

    private static func muted(_ request: HALPropertyRequest<HALDevice>) -> Bool? {
        guard let (mixer, input, channel) = request.object.volumeTarget(request.address),
              mixer.hasMute(input: input, channel: channel) else { return nil }
        return mixer.isMuted(input: input, channel: channel)
    }

    /// Sets a control through `change` (false: ALSA refused) and tells the listeners.
    private func setVolume(_ address: AudioObjectPropertyAddress, _ change: (ALSAMixer, Bool, Int) -> Bool) -> OSStatus {
        guard let (mixer, input, channel) = volumeTarget(address) else { return kAudioHardwareUnknownPropertyError }
        guard change(mixer, input, channel) else { return kAudioHardwareUnspecifiedError }
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
