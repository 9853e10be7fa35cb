import CoreAudio
import Foundation

/// What an audio session reads from and sets on the HAL (AVAudioSession, and Audio Session Services' C API): default
/// devices, their rates, buffer sizes, latencies, channels and names, through the public AudioObject calls.
package enum SessionHardware {
    package static func address(_ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal)
        -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: kAudioObjectPropertyElementMain)
    }

    package static func scope(input: Bool) -> AudioObjectPropertyScope { input ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput }

    /// The default input or output device; nil when there is none.
    package static func defaultDevice(input: Bool) -> AudioObjectID? {
        let selector = input ? kAudioHardwarePropertyDefaultInputDevice : kAudioHardwarePropertyDefaultOutputDevice
        guard let id = uint32(AudioObjectID(kAudioObjectSystemObject), selector), id != kAudioObjectUnknown else { return nil }
        return id
    }

    /// Every device the HAL lists.
    package static func devices() -> [AudioObjectID] {
        var a = address(kAudioHardwarePropertyDevices)
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, &size) == noErr, size >= 4 else { return [] }
        var ids = [AudioObjectID](repeating: 0, count: Int(size) / 4)
        guard AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, &size, &ids) == noErr else { return [] }
        return Array(ids.prefix(Int(size) / 4))
    }

    package static func uint32(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector,
                       _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal) -> UInt32? {
        var a = address(selector, scope)
        var value: UInt32 = 0
        var size = UInt32(4)
        return AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr ? value : nil
    }

    package static func double(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector) -> Double? {
        var a = address(selector)
        var value = 0.0
        var size = UInt32(8)
        return AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr ? value : nil
    }

    package static func string(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector) -> String? {
        var a = address(selector)
        var value: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr, let value else { return nil }
        return value.takeRetainedValue() as String
    }

    /// Sets a property; the HAL's status.
    package static func set<T: BitwiseCopyable>(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector, _ value: T) -> OSStatus {
        var a = address(selector)
        return withUnsafeBytes(of: value) { AudioObjectSetPropertyData(id, &a, 0, nil, UInt32($0.count), $0.baseAddress!) }
    }

    /// The channels a device has in one direction (its stream configuration).
    package static func channels(_ id: AudioObjectID, input: Bool) -> Int {
        var a = address(kAudioDevicePropertyStreamConfiguration, scope(input: input))
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(id, &a, 0, nil, &size) == noErr, size >= UInt32(MemoryLayout<AudioBufferList>.size) else { return 0 }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: MemoryLayout<AudioBufferList>.alignment)
        defer { raw.deallocate() }
        guard AudioObjectGetPropertyData(id, &a, 0, nil, &size, raw) == noErr else { return 0 }
        let list = UnsafeMutableAudioBufferListPointer(raw.assumingMemoryBound(to: AudioBufferList.self))
        return list.reduce(0) { $0 + Int($1.mNumberChannels) }
    }

    /// The rates the device offers.
    package static func availableRates(_ id: AudioObjectID) -> [AudioValueRange] {
        var a = address(kAudioDevicePropertyAvailableNominalSampleRates)
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(id, &a, 0, nil, &size) == noErr, size > 0 else { return [] }
        var ranges = [AudioValueRange](repeating: AudioValueRange(), count: Int(size) / MemoryLayout<AudioValueRange>.size)
        guard AudioObjectGetPropertyData(id, &a, 0, nil, &size, &ranges) == noErr else { return [] }
        return ranges
    }

    /// The buffer sizes the device allows, in frames.
    package static func bufferFrameRange(_ id: AudioObjectID) -> AudioValueRange? {
        var a = address(kAudioDevicePropertyBufferFrameSizeRange)
        var range = AudioValueRange()
        var size = UInt32(MemoryLayout<AudioValueRange>.size)
        return AudioObjectGetPropertyData(id, &a, 0, nil, &size, &range) == noErr ? range : nil
    }

    /// The device's latency in one direction, in frames: its own latency and safety offset.
    package static func latencyFrames(_ id: AudioObjectID, input: Bool) -> UInt32 {
        (uint32(id, kAudioDevicePropertyLatency, scope(input: input)) ?? 0) + (uint32(id, kAudioDevicePropertySafetyOffset, scope(input: input)) ?? 0)
    }
}
