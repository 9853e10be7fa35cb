import Foundation

/// A property's value as the HAL hands it out, with Apple's size rules: fixed-size values need a buffer at
/// least their size (else kAudioHardwareBadPropertySizeError); arrays fill as many whole elements as fit
/// and report the bytes written. Strings are returned retained, as CFStringRef (the caller releases).
enum HALPropertyValue {
    case uint32(UInt32)
    case float32(Float)
    case float64(Double)
    case string(String)
    /// A NUL-terminated C string copied into the caller's buffer (cut to fit, still terminated).
    case cString(String)
    case objects([AudioObjectID])
    case ranges([AudioValueRange])
    case range(AudioValueRange)
    case format(AudioStreamBasicDescription)
    case rangedFormats([AudioStreamRangedDescription])
    /// kAudioDevicePropertyStreamConfiguration: an AudioBufferList with one buffer per stream, no data.
    case bufferConfiguration([UInt32])

    var size: UInt32 {
        switch self {
        case .uint32, .float32: 4
        case .float64: 8
        case .string: UInt32(MemoryLayout<UnsafeRawPointer>.size)
        case .cString(let s): UInt32(s.utf8.count + 1)
        case .objects(let ids): UInt32(ids.count * 4)
        case .ranges(let r): UInt32(r.count * MemoryLayout<AudioValueRange>.size)
        case .range: UInt32(MemoryLayout<AudioValueRange>.size)
        case .format: UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        case .rangedFormats(let f): UInt32(f.count * MemoryLayout<AudioStreamRangedDescription>.size)
        case .bufferConfiguration(let c): UInt32(AudioBufferList.sizeInBytes(maximumBuffers: max(c.count, 1)))
        }
    }

    func write(to out: UnsafeMutableRawPointer, size ioSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
        func fixed<T>(_ value: T) -> OSStatus {
            guard ioSize.pointee >= UInt32(MemoryLayout<T>.size) else { return kAudioHardwareBadPropertySizeError }
            out.storeBytes(of: value, toByteOffset: 0, as: T.self)
            ioSize.pointee = UInt32(MemoryLayout<T>.size)
            return kAudioHardwareNoError
        }
        func array<T>(_ values: [T]) -> OSStatus {
            let n = min(values.count, Int(ioSize.pointee) / MemoryLayout<T>.stride)
            let typed = out.bindMemory(to: T.self, capacity: max(n, 1))
            for i in 0..<n { typed[i] = values[i] }
            ioSize.pointee = UInt32(n * MemoryLayout<T>.stride)
            return kAudioHardwareNoError
        }
        switch self {
        case .uint32(let v): return fixed(v)
        case .float32(let v): return fixed(v)
        case .float64(let v): return fixed(v)
        case .string(let s):
            guard ioSize.pointee >= UInt32(MemoryLayout<UnsafeRawPointer>.size) else { return kAudioHardwareBadPropertySizeError }
            out.storeBytes(of: Unmanaged.passRetained(s as NSString).toOpaque(), as: UnsafeMutableRawPointer.self)
            ioSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            return kAudioHardwareNoError
        case .cString(let s):
            guard ioSize.pointee >= 1 else { return kAudioHardwareBadPropertySizeError }
            let bytes = Array(s.utf8.prefix(Int(ioSize.pointee) - 1)) + [0]
            bytes.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            ioSize.pointee = UInt32(bytes.count)
            return kAudioHardwareNoError
        case .objects(let ids): return array(ids)
        case .ranges(let r): return array(r)
        case .range(let r): return fixed(r)
        case .format(let f): return fixed(f)
        case .rangedFormats(let f): return array(f)
        case .bufferConfiguration(let channels):
            guard ioSize.pointee >= size else { return kAudioHardwareBadPropertySizeError }
            let list = UnsafeMutableAudioBufferListPointer(out.assumingMemoryBound(to: AudioBufferList.self))
            list.unsafeMutablePointer.pointee.mNumberBuffers = UInt32(channels.count)
            for (i, c) in channels.enumerated() { list[i] = AudioBuffer(mNumberChannels: c, mDataByteSize: 0, mData: nil) }
            ioSize.pointee = size
            return kAudioHardwareNoError
        }
    }
}

/// Whether a listener registered for `pattern` hears a change of `address` (wildcards on either side).
func halAddressMatches(_ pattern: AudioObjectPropertyAddress, _ address: AudioObjectPropertyAddress) -> Bool {
    (pattern.mSelector == kAudioObjectPropertySelectorWildcard || address.mSelector == kAudioObjectPropertySelectorWildcard
        || pattern.mSelector == address.mSelector)
        && (pattern.mScope == kAudioObjectPropertyScopeWildcard || address.mScope == kAudioObjectPropertyScopeWildcard
            || pattern.mScope == address.mScope)
        && (pattern.mElement == kAudioObjectPropertyElementWildcard || address.mElement == kAudioObjectPropertyElementWildcard
            || pattern.mElement == address.mElement)
}
