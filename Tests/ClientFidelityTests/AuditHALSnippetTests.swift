// Audit snippets, seventh round: the Core Audio HAL as macOS apps enumerate it (devices, names, stream
// configurations, the default output device, a listener block) and AVAudioApplication's permission calls. Only
// properties are read: no device is opened. Apple's API only.
import AVFoundation
import CoreAudio
import Foundation
import Testing

@Suite struct AuditHALSnippetTests {
    static func devices() -> [AudioDeviceID] {
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDevices,
                                                 mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size) == noErr else { return [] }
        var devices = [AudioDeviceID](repeating: 0, count: Int(size) / MemoryLayout<AudioDeviceID>.size)
        guard AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &devices) == noErr else { return [] }
        return devices
    }

    static func channels(of device: AudioDeviceID, scope: AudioObjectPropertyScope) -> Int {
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyStreamConfiguration, mScope: scope,
                                                 mElement: kAudioObjectPropertyElementMain)
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(device, &address, 0, nil, &size) == noErr, size > 0 else { return 0 }
        let list = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: MemoryLayout<AudioBufferList>.alignment)
        defer { list.deallocate() }
        guard AudioObjectGetPropertyData(device, &address, 0, nil, &size, list) == noErr else { return 0 }
        let buffers = UnsafeMutableAudioBufferListPointer(list.assumingMemoryBound(to: AudioBufferList.self))
        return buffers.reduce(0) { $0 + Int($1.mNumberChannels) }
    }

    @Test func enumerateDevices() throws {
        let devices = Self.devices()
        for device in devices {
            var address = AudioObjectPropertyAddress(mSelector: kAudioObjectPropertyName, mScope: kAudioObjectPropertyScopeGlobal,
                                                     mElement: kAudioObjectPropertyElementMain)
            var name: Unmanaged<CFString>?
            var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
            #expect(AudioObjectGetPropertyData(device, &address, 0, nil, &size, &name) == noErr)
            let text = name?.takeRetainedValue() as String?
            #expect(text?.isEmpty == false)
            var rate: Float64 = 0
            size = UInt32(MemoryLayout<Float64>.size)
            address.mSelector = kAudioDevicePropertyNominalSampleRate
            if AudioObjectHasProperty(device, &address) {
                #expect(AudioObjectGetPropertyData(device, &address, 0, nil, &size, &rate) == noErr)
                #expect(rate > 0)
            }
            _ = Self.channels(of: device, scope: kAudioObjectPropertyScopeOutput)
            _ = Self.channels(of: device, scope: kAudioObjectPropertyScopeInput)
        }
        var defaultOutput = AudioDeviceID(kAudioObjectUnknown)
        var size = UInt32(MemoryLayout<AudioDeviceID>.size)
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice,
                                                 mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        let status = AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &defaultOutput)
        if status == noErr && defaultOutput != kAudioObjectUnknown {
            #expect(devices.contains(defaultOutput))
            #expect(Self.channels(of: defaultOutput, scope: kAudioObjectPropertyScopeOutput) > 0)
        }

        // The device list's listener block, added and removed with the same block.
        let listener: AudioObjectPropertyListenerBlock = { count, addresses in
            _ = UnsafeBufferPointer(start: addresses, count: Int(count))
        }
        var devicesAddress = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDevices, mScope: kAudioObjectPropertyScopeGlobal,
                                                        mElement: kAudioObjectPropertyElementMain)
        let queue = DispatchQueue(label: "audit.hal")
        #expect(AudioObjectAddPropertyListenerBlock(AudioObjectID(kAudioObjectSystemObject), &devicesAddress, queue, listener) == noErr)
        #expect(AudioObjectRemovePropertyListenerBlock(AudioObjectID(kAudioObjectSystemObject), &devicesAddress, queue, listener) == noErr)
    }

    @Test func applicationPermissionCalls() async {
        let application = AVAudioApplication.shared
        let permission = application.recordPermission
        #expect([AVAudioApplication.recordPermission.granted, .denied, .undetermined].contains(permission))
        let granted = await AVAudioApplication.requestRecordPermission()
        _ = granted
        AVAudioApplication.requestRecordPermission { granted in _ = granted }
        _ = application.isInputMuted
    }
}
