import CoreAudio
import Foundation
import Testing

extension HALTests {
    /// AudioHardwareDeprecated.h's names still answer: DeviceNameCFString is the object's name, and
    /// DeviceName is the same text as a C string, cut to the caller's buffer and still terminated.
    @Test func deprecatedDeviceNameProperties() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let name = try #require(string(device, kAudioObjectPropertyName))
        #expect(string(device, kAudioDevicePropertyDeviceNameCFString) == name)
        var a = address(kAudioDevicePropertyDeviceName)
        var size: UInt32 = 0
        #expect(AudioObjectGetPropertyDataSize(device, &a, 0, nil, &size) == noErr)
        #expect(Int(size) == name.utf8.count + 1)
        var bytes = [CChar](repeating: 1, count: Int(size))
        #expect(AudioObjectGetPropertyData(device, &a, 0, nil, &size, &bytes) == noErr)
        #expect(String(cString: bytes) == name)
        var short = [CChar](repeating: 1, count: 4)
        size = 4
        #expect(AudioObjectGetPropertyData(device, &a, 0, nil, &size, &short) == noErr)
        #expect(size == 4 && short[3] == 0 && String(cString: short) == String(name.prefix(3)))
    }

    /// The deprecated property functions answer what the AudioObject calls they map to answer:
    /// (channel, isInput) is (element, input/output scope); streams use the global scope; the system its own.
    @Test func deprecatedPropertyFunctionsMapToAudioObject() throws {
        let device = defaultOutput()
        try #require(device != 0)
        var size = UInt32(8)
        var rate = 0.0
        #expect(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyNominalSampleRate, &size, &rate) == noErr)
        #expect(rate == get(device, kAudioDevicePropertyNominalSampleRate, 0.0).1 && size == 8)
        // Info: the same size and settability, either pointer optional.
        var infoSize: UInt32 = 0
        var writable = DarwinBoolean(false)
        #expect(AudioDeviceGetPropertyInfo(device, 0, false, kAudioDevicePropertyBufferFrameSize, &infoSize, &writable) == noErr)
        #expect(infoSize == 4 && writable.boolValue)
        #expect(AudioDeviceGetPropertyInfo(device, 0, true, kAudioDevicePropertyStreamConfiguration, nil, nil) == noErr)
        #expect(AudioDeviceGetPropertyInfo(device, 0, false, 0x7a7a7a7a, &infoSize, nil) == kAudioHardwareUnknownPropertyError)
        // isInput picks the scope: the input stream list is the input stream.
        var stream = AudioObjectID(0)
        size = 4
        #expect(AudioDeviceGetProperty(device, 0, true, kAudioDevicePropertyStreams, &size, &stream) == noErr)
        var a = address(kAudioDevicePropertyStreams, kAudioObjectPropertyScopeInput)
        var expected = AudioObjectID(0)
        size = 4
        #expect(AudioObjectGetPropertyData(device, &a, 0, nil, &size, &expected) == noErr && stream == expected && stream != 0)
        // A stream's properties.
        var format = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioStreamGetProperty(stream, 0, kAudioStreamPropertyVirtualFormat, &size, &format) == noErr)
        let direct = get(stream, kAudioStreamPropertyVirtualFormat, AudioStreamBasicDescription()).1
        #expect(format.mSampleRate == direct.mSampleRate && format.mChannelsPerFrame == direct.mChannelsPerFrame
                 && format.mFormatFlags == direct.mFormatFlags && format.mFormatID == kAudioFormatLinearPCM)
        #expect(AudioStreamGetPropertyInfo(stream, 0, kAudioStreamPropertyVirtualFormat, &infoSize, &writable) == noErr)
        #expect(infoSize == UInt32(MemoryLayout<AudioStreamBasicDescription>.size) && writable.boolValue)
        #expect(AudioStreamSetProperty(stream, nil, 0, kAudioStreamPropertyVirtualFormat, size, &format) == noErr)
        // The system object.
        var output = AudioObjectID(0)
        size = 4
        #expect(AudioHardwareGetProperty(kAudioHardwarePropertyDefaultOutputDevice, &size, &output) == noErr && output == device)
        #expect(AudioHardwareGetPropertyInfo(kAudioHardwarePropertyDevices, &infoSize, &writable) == noErr)
        #expect(infoSize >= 4 && !writable.boolValue)
        #expect(AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 4, &output) == noErr)
        // Setting through the device: the output volume of channel 1 (0.5), read back through AudioObject.
        var half: Float32 = 0.5
        #expect(AudioDeviceSetProperty(device, nil, 1, false, kAudioDevicePropertyVolumeScalar, 4, &half) == noErr)
        var v = address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput)
        v.mElement = 1
        var back: Float32 = 0
        size = 4
        #expect(AudioObjectGetPropertyData(device, &v, 0, nil, &size, &back) == noErr && back == 0.5)
        var full: Float32 = 1
        #expect(AudioDeviceSetProperty(device, nil, 0, false, kAudioDevicePropertyVolumeScalar, 4, &full) == noErr)
        #expect(AudioHardwareUnload() == noErr)
        #expect(AudioHardwareCreateAggregateDevice([:] as NSDictionary, &output) == kAudioHardwareUnsupportedOperationError)
    }

    /// A device listener proc is called with the old arguments: (device, channel, isInput, property).
    @Test func deprecatedDeviceListenerGetsTheOldArguments() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let calls = LegacyCalls()
        let proc: AudioDevicePropertyListenerProc = { device, channel, isInput, property, data in
            Unmanaged<LegacyCalls>.fromOpaque(data!).takeUnretainedValue().add(device, channel, isInput.boolValue, property)
            return noErr
        }
        let context = Unmanaged.passUnretained(calls).toOpaque()
        #expect(AudioDeviceAddPropertyListener(device, kAudioPropertyWildcardChannel, false, kAudioDevicePropertyVolumeScalar, proc, context) == noErr)
        var quarter: Float32 = 0.25
        #expect(AudioDeviceSetProperty(device, nil, 2, false, kAudioDevicePropertyVolumeScalar, 4, &quarter) == noErr)
        #expect(calls.wait { $0.device == device && $0.channel == 2 && !$0.isInput && $0.property == kAudioDevicePropertyVolumeScalar })
        #expect(AudioDeviceRemovePropertyListener(device, kAudioPropertyWildcardChannel, false, kAudioDevicePropertyVolumeScalar, proc) == noErr)
        #expect(AudioDeviceRemovePropertyListener(device, kAudioPropertyWildcardChannel, false, kAudioDevicePropertyVolumeScalar, proc)
                == kAudioHardwareUnknownPropertyError)
        var full: Float32 = 1
        #expect(AudioDeviceSetProperty(device, nil, 0, false, kAudioDevicePropertyVolumeScalar, 4, &full) == noErr)
        // The system's listener is called with the property's ID: here, a sample-rate change is a device's,
        // so the system one is tried on the default-output selector with a change of default.
        let systemCalls = LegacyCalls()
        let systemProc: AudioHardwarePropertyListenerProc = { property, data in
            Unmanaged<LegacyCalls>.fromOpaque(data!).takeUnretainedValue().add(0, 0, false, property)
            return noErr
        }
        #expect(AudioHardwareAddPropertyListener(kAudioHardwarePropertyDefaultOutputDevice, systemProc,
                                                 Unmanaged.passUnretained(systemCalls).toOpaque()) == noErr)
        var devices = [AudioObjectID](repeating: 0, count: 32)
        var size = UInt32(devices.count * 4)
        #expect(AudioHardwareGetProperty(kAudioHardwarePropertyDevices, &size, &devices) == noErr)
        let other = devices.prefix(Int(size) / 4).first { id in
            id != device && (AudioDeviceGetPropertyInfo(id, 0, false, kAudioDevicePropertyStreamConfiguration, nil, nil) == noErr)
                && { var c = AudioObjectID(0); var s = UInt32(4)
                     return AudioDeviceGetProperty(id, 0, false, kAudioDevicePropertyStreams, &s, &c) == noErr && s == 4 }()
        }
        if var other {
            #expect(AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 4, &other) == noErr)
            #expect(systemCalls.wait { $0.property == kAudioHardwarePropertyDefaultOutputDevice })
            var back = device
            #expect(AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 4, &back) == noErr)
        }
        #expect(AudioHardwareRemovePropertyListener(kAudioHardwarePropertyDefaultOutputDevice, systemProc) == noErr)
    }

    /// AudioDeviceAddIOProc: the proc is its own ID for Start and Stop; AudioDeviceRead has no input history.
    @Test func deprecatedIOProcIsItsOwnID() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let log = CycleLog()
        let proc: AudioDeviceIOProc = { _, now, _, inputTime, output, outputTime, data in
            Unmanaged<CycleLog>.fromOpaque(data!).takeUnretainedValue().record(now.pointee, inputTime.pointee, outputTime.pointee)
            for buffer in UnsafeMutableAudioBufferListPointer(output) { memset(buffer.mData, 0, Int(buffer.mDataByteSize)) }
            return noErr
        }
        #expect(AudioDeviceAddIOProc(device, proc, Unmanaged.passUnretained(log).toOpaque()) == noErr)
        var when = AudioTimeStamp()
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioDeviceRead(device, &when, list.unsafeMutablePointer) == kAudioHardwareNotRunningError)
        #expect(AudioDeviceStart(device, proc) == noErr)
        #expect(waitUntil { log.count > 3 })
        #expect(AudioDeviceRead(device, &when, list.unsafeMutablePointer) == kAudioHardwareUnsupportedOperationError)
        #expect(AudioDeviceStop(device, proc) == noErr)
        #expect(get(device, kAudioDevicePropertyDeviceIsRunning, UInt32(1)).1 == 0)
        #expect(AudioDeviceRemoveIOProc(device, proc) == noErr)
        #expect(AudioDeviceRemoveIOProc(device, proc) == kAudioHardwareIllegalOperationError)
    }
}

/// Calls of an old-style listener proc.
final class LegacyCalls: @unchecked Sendable {
    struct Call { var device: AudioObjectID; var channel: UInt32; var isInput: Bool; var property: AudioObjectPropertySelector }
    private let lock = NSCondition()
    private var calls: [Call] = []
    func add(_ device: AudioObjectID, _ channel: UInt32, _ isInput: Bool, _ property: AudioObjectPropertySelector) {
        lock.withLock { calls.append(Call(device: device, channel: channel, isInput: isInput, property: property)); lock.broadcast() }
    }
    func wait(timeout: Double = 3, _ match: (Call) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !calls.contains(where: match) { if !lock.wait(until: deadline) { return calls.contains(where: match) } }
        return true
    }
}
