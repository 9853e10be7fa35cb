@testable import CoreAudio
import DeviceTestSupport
import Foundation
import Testing

/// Every property row of every HAL object (the system object, each device, each stream), at every scope and the
/// first elements, through the public calls: Has, Info and Get agree on presence and size, Get writes exactly
/// Info's size and nothing past it, and a buffer one byte short is refused (a fixed value) or filled with less
/// (an array, a C string), never overrun.
@Suite(.serialized, .audioServer) struct HALPropertyTableTests {
    /// Properties whose Get needs the caller's input (a value to translate, a proc ID).
    static let inOut: Set<AudioObjectPropertySelector> = [kAudioDevicePropertyVolumeScalarToDecibels, kAudioDevicePropertyVolumeDecibelsToScalar,
                                                         kAudioDevicePropertyIOProcStreamUsage]
    /// Properties handed out as a retained CFString.
    static let strings: Set<AudioObjectPropertySelector> = [kAudioObjectPropertyName, kAudioObjectPropertyManufacturer,
                                                           kAudioDevicePropertyDeviceUID, kAudioDevicePropertyModelUID]

    func objects() -> [AudioObjectID] {
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDevices, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        var size: UInt32 = 0
        guard AudioObjectGetPropertyDataSize(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size) == noErr else { return [] }
        var devices = [AudioObjectID](repeating: 0, count: Int(size) / 4)
        _ = AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &devices)
        var all = [AudioObjectID(kAudioObjectSystemObject)] + devices
        for device in devices {
            address.mSelector = kAudioDevicePropertyStreams
            address.mScope = kAudioObjectPropertyScopeGlobal
            guard AudioObjectGetPropertyDataSize(device, &address, 0, nil, &size) == noErr else { continue }
            var streams = [AudioObjectID](repeating: 0, count: Int(size) / 4)
            _ = AudioObjectGetPropertyData(device, &address, 0, nil, &size, &streams)
            all += streams
        }
        return all
    }

    @Test func everyRowKeepsTheSizeRules() throws {
        let objects = objects()
        try #require(objects.count >= 3, "the private server gives at least one device with a stream")
        var checked = 0
        for object in objects {
            let selectors = try #require(HALSystem.shared.object(object)).properties.selectors
            for selector in selectors where !Self.inOut.contains(selector) {
                for scope in [kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyScopeInput, kAudioObjectPropertyScopeOutput] {
                    for element: UInt32 in 0...2 {
                        var address = AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: element)
                        let has = AudioObjectHasProperty(object, &address)
                        var size: UInt32 = 0
                        let info = AudioObjectGetPropertyDataSize(object, &address, 0, nil, &size)
                        var settable: DarwinBoolean = false
                        #expect(AudioObjectIsPropertySettable(object, &address, &settable) == (has ? noErr : kAudioHardwareUnknownPropertyError))
                        guard has else {
                            #expect(info == kAudioHardwareUnknownPropertyError)
                            continue
                        }
                        #expect(info == noErr)
                        checked += 1
                        let tag = "object \(object) '\(fourCC(selector))' scope '\(fourCC(scope))' element \(element)"
                        // The whole value, with guard bytes after it.
                        var buffer = [UInt8](repeating: 0xA5, count: Int(size) + 16)
                        var ioSize = size
                        let status = buffer.withUnsafeMutableBytes { AudioObjectGetPropertyData(object, &address, 0, nil, &ioSize, $0.baseAddress!) }
                        #expect(status == noErr && ioSize == size, "\(tag): \(status), \(ioSize) of \(size)")
                        #expect(buffer[Int(size)...].allSatisfy { $0 == 0xA5 }, "\(tag): written past its size")
                        if Self.strings.contains(selector), status == noErr {
                            buffer.withUnsafeBytes { Unmanaged<NSString>.fromOpaque($0.load(as: UnsafeRawPointer.self)).release() }
                        }
                        guard size > 0 else { continue }
                        // One byte short.
                        var short = [UInt8](repeating: 0xA5, count: Int(size) + 16)
                        ioSize = size - 1
                        let shortStatus = short.withUnsafeMutableBytes { AudioObjectGetPropertyData(object, &address, 0, nil, &ioSize, $0.baseAddress!) }
                        if shortStatus == noErr {
                            #expect(ioSize < size, "\(tag): a short buffer reported \(ioSize)")
                            #expect(short[Int(size - 1)...].allSatisfy { $0 == 0xA5 }, "\(tag): a short buffer was overrun")
                            #expect(short[Int(ioSize)...].allSatisfy { $0 == 0xA5 }, "\(tag): written past what it reported")
                        } else {
                            #expect(shortStatus == kAudioHardwareBadPropertySizeError, "\(tag): \(shortStatus)")
                            #expect(short.allSatisfy { $0 == 0xA5 }, "\(tag): written though refused")
                        }
                    }
                }
            }
        }
        #expect(checked >= 60, "\(checked) rows answered")
    }

    func fourCC(_ v: UInt32) -> String {
        String(bytes: [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) }, encoding: .ascii) ?? "\(v)"
    }
}
