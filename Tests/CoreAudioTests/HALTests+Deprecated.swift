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
}
