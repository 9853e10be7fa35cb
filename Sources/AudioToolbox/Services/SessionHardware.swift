import CoreAudio
import Foundation

/// What an audio session reads from and sets on the HAL (AVAudioSession, and Audio Session Services' C API): default
/// devices, their rates, buffer sizes, latencies, channels and names, through the public AudioObject calls.
package enum SessionHardware {
    /// An address on the main element.
    package static func address(_ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal)
        -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: kAudioObjectPropertyElementMain)
    }

    /// The input or output scope.
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

    /// A UInt32 property, nil if the object lacks it.
    package static func uint32(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector,
                       _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal) -> UInt32? {
        var a = address(selector, scope)
        var value: UInt32 = 0
        var size = UInt32(4)
        return AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr ? value : nil
    }

    /// A Float64 property (global scope), nil if the object lacks it.
    package static func double(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector) -> Double? {
        var a = address(selector)
        var value = 0.0
        var size = UInt32(8)
        return AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr ? value : nil
    }

    /// A CFString property (global scope), nil if the object lacks it.
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

    /// What applying a session's preferences changed on each device, so that deactivation can put it back.
    package typealias Saved = [AudioObjectID: (rate: Double?, frames: UInt32?)]

    /// The rate the device offers nearest to `rate` (within a range it offers, `rate` itself).
    package static func nearestRate(_ id: AudioObjectID, _ rate: Double) -> Double? {
        let ranges = availableRates(id)
        if ranges.contains(where: { $0.mMinimum <= rate && rate <= $0.mMaximum }) { return rate }
        return ranges.flatMap { [$0.mMinimum, $0.mMaximum] }.min { abs($0 - rate) < abs($1 - rate) }
    }

    /// Sets the nearest rate and the buffer size each device offers to a session's preferences (0: no preference),
    /// adding each value it replaced to `saved` (the first one only, so repeated activations restore the original).
    package static func apply(preferredRate: Double, duration: Double, to devices: [AudioObjectID], saved: inout Saved) {
        for id in devices {
            var entry = saved[id] ?? (rate: nil, frames: nil)
            if preferredRate > 0, let rate = nearestRate(id, preferredRate),
               let old = double(id, kAudioDevicePropertyNominalSampleRate), old != rate {
                if entry.rate == nil { entry.rate = old }
                _ = set(id, kAudioDevicePropertyNominalSampleRate, rate)
            }
            if duration > 0, let rate = double(id, kAudioDevicePropertyNominalSampleRate),
               let range = bufferFrameRange(id), let old = uint32(id, kAudioDevicePropertyBufferFrameSize) {
                let frames = UInt32(min(max((duration * rate).rounded(), range.mMinimum), range.mMaximum))
                if frames != old {
                    if entry.frames == nil { entry.frames = old }
                    _ = set(id, kAudioDevicePropertyBufferFrameSize, frames)
                }
            }
            if entry.rate != nil || entry.frames != nil { saved[id] = entry }
        }
    }

    /// Puts back what `apply` changed, and empties `saved`.
    package static func restore(_ saved: inout Saved) {
        for (id, entry) in saved {
            if let rate = entry.rate { _ = set(id, kAudioDevicePropertyNominalSampleRate, rate) }
            if let frames = entry.frames { _ = set(id, kAudioDevicePropertyBufferFrameSize, frames) }
        }
        saved = [:]
    }
}
