import CoreAudio
import DeviceTestSupport
import Foundation
import Testing

/// The HAL over ALSA, against the PulseAudio server the tests start (scripts/pulse-server.sh).
@Suite(.serialized, .audioServer) struct HALTests {
    func address(_ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal) -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: kAudioObjectPropertyElementMain)
    }

    func get<T>(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal,
                _ initial: T) -> (OSStatus, T) {
        var a = address(selector, scope)
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        let status = AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value)
        return (status, value)
    }

    func get<T>(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector, _ initial: T) -> (OSStatus, T) {
        get(id, selector, kAudioObjectPropertyScopeGlobal, initial)
    }

    func string(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector) -> String? {
        var a = address(selector)
        var value: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr, let value else { return nil }
        return value.takeRetainedValue() as String
    }

    func defaultOutput() -> AudioObjectID { get(kAudioObjectSystemObject, kAudioHardwarePropertyDefaultOutputDevice, AudioObjectID(0)).1 }

    @Test func systemObjectListsDevicesAndDefaults() throws {
        var a = address(kAudioHardwarePropertyDevices)
        var size: UInt32 = 0
        #expect(AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &a, 0, nil, &size) == noErr)
        var ids = [AudioObjectID](repeating: 0, count: Int(size) / 4)
        #expect(size >= 4 && AudioObjectGetPropertyData(kAudioObjectSystemObject, &a, 0, nil, &size, &ids) == noErr)
        let output = defaultOutput()
        let input = get(kAudioObjectSystemObject, kAudioHardwarePropertyDefaultInputDevice, AudioObjectID(0)).1
        #expect(ids.contains(output) && ids.contains(input))
        #expect(string(output, kAudioDevicePropertyDeviceUID) == "default")
        #expect(string(output, kAudioObjectPropertyName)?.isEmpty == false)
        #expect(string(output, kAudioObjectPropertyManufacturer) == "ALSA")
        #expect(get(output, kAudioObjectPropertyClass, AudioClassID(0)).1 == kAudioDeviceClassID)
        #expect(get(output, kAudioDevicePropertyDeviceIsAlive, UInt32(0)).1 == 1)
        #expect(get(output, kAudioDevicePropertyDeviceIsRunning, UInt32(1)).1 == 0)
        // UID -> device through the qualifier.
        var t = address(kAudioHardwarePropertyTranslateUIDToDevice)
        var uid: CFString = "default" as CFString
        var found = AudioObjectID(0)
        size = 4
        #expect(AudioObjectGetPropertyData(kAudioObjectSystemObject, &t, UInt32(MemoryLayout<CFString>.size), &uid, &size, &found) == noErr)
        #expect(found == output)
    }

    @Test func streamsFormatsRatesAndBufferSizes() throws {
        let device = defaultOutput()
        var a = address(kAudioDevicePropertyStreams, kAudioObjectPropertyScopeOutput)
        var stream = AudioObjectID(0)
        var size: UInt32 = 4
        #expect(AudioObjectGetPropertyData(device, &a, 0, nil, &size, &stream) == noErr && size == 4)
        let (s1, format) = get(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, AudioStreamBasicDescription())
        #expect(s1 == noErr && format.mFormatID == kAudioFormatLinearPCM && format.mChannelsPerFrame == 2 && format.mBitsPerChannel == 32)
        #expect(get(stream, kAudioStreamPropertyDirection, kAudioObjectPropertyScopeGlobal, UInt32(9)).1 == 0)
        // Stream configuration: one interleaved stereo buffer per direction.
        var c = address(kAudioDevicePropertyStreamConfiguration, kAudioObjectPropertyScopeOutput)
        #expect(AudioObjectGetPropertyDataSize(device, &c, 0, nil, &size) == noErr)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioObjectGetPropertyData(device, &c, 0, nil, &size, list.unsafeMutablePointer) == noErr)
        #expect(list.count == 1 && list[0].mNumberChannels == 2)
        // Rates: the list has 44.1 and 48 kHz; setting one notifies and changes the stream format.
        var r = address(kAudioDevicePropertyAvailableNominalSampleRates)
        #expect(AudioObjectGetPropertyDataSize(device, &r, 0, nil, &size) == noErr)
        var ranges = [AudioValueRange](repeating: AudioValueRange(), count: Int(size) / MemoryLayout<AudioValueRange>.size)
        #expect(AudioObjectGetPropertyData(device, &r, 0, nil, &size, &ranges) == noErr)
        #expect(ranges.contains { $0.mMinimum == 48000 } && ranges.contains { $0.mMinimum == 44100 })
        let heard = Heard()
        var n = address(kAudioDevicePropertyNominalSampleRate)
        let listener: AudioObjectPropertyListenerBlock = { count, addresses in heard.add(addresses.pointee.mSelector) }
        // Outside #expect: the macro's argument capture would re-wrap the closure, and removal matches the
        // closure the caller registered.
        let added = AudioObjectAddPropertyListenerBlock(device, &n, nil, listener)
        #expect(added == noErr)
        var rate = 48000.0
        #expect(AudioObjectSetPropertyData(device, &n, 0, nil, 8, &rate) == noErr)
        let nominal = get(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 0.0)
        #expect(nominal.0 == noErr && nominal.1 == 48000, "\(nominal)")
        #expect(get(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, AudioStreamBasicDescription()).1.mSampleRate == 48000)
        #expect(heard.wait(for: kAudioDevicePropertyNominalSampleRate))
        let removed = AudioObjectRemovePropertyListenerBlock(device, &n, nil, listener)
        #expect(removed == noErr)
        rate = 12345
        #expect(AudioObjectSetPropertyData(device, &n, 0, nil, 8, &rate) == kAudioHardwareIllegalOperationError)
        rate = 44100
        #expect(AudioObjectSetPropertyData(device, &n, 0, nil, 8, &rate) == noErr)
        // Buffer frame size within its range.
        let range = get(device, kAudioDevicePropertyBufferFrameSizeRange, kAudioObjectPropertyScopeGlobal, AudioValueRange()).1
        #expect(range.mMinimum >= 16 && range.mMinimum <= 256 && range.mMaximum >= 1024)
        var b = address(kAudioDevicePropertyBufferFrameSize)
        var frames: UInt32 = 256
        #expect(AudioObjectSetPropertyData(device, &b, 0, nil, 4, &frames) == noErr)
        #expect(get(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, UInt32(0)).1 == 256)
        frames = 1_000_000
        #expect(AudioObjectSetPropertyData(device, &b, 0, nil, 4, &frames) == kAudioHardwareIllegalOperationError)
        frames = 512
        #expect(AudioObjectSetPropertyData(device, &b, 0, nil, 4, &frames) == noErr)
    }

    @Test func errorsFollowApple() {
        var a = address(kAudioObjectPropertyName)
        var size: UInt32 = 8
        var value: UInt64 = 0
        #expect(AudioObjectGetPropertyData(9999, &a, 0, nil, &size, &value) == kAudioHardwareBadObjectError)
        var unknown = address(0x7a7a7a7a)
        #expect(AudioObjectGetPropertyData(kAudioObjectSystemObject, &unknown, 0, nil, &size, &value) == kAudioHardwareUnknownPropertyError)
        #expect(!AudioObjectHasProperty(kAudioObjectSystemObject, &unknown))
        var rate = address(kAudioDevicePropertyNominalSampleRate)
        size = 2
        #expect(AudioObjectGetPropertyData(defaultOutput(), &rate, 0, nil, &size, &value) == kAudioHardwareBadPropertySizeError)
        var settable: DarwinBoolean = false
        #expect(AudioObjectIsPropertySettable(defaultOutput(), &rate, &settable) == noErr && settable.boolValue)
        var name = address(kAudioObjectPropertyName)
        #expect(AudioObjectIsPropertySettable(defaultOutput(), &name, &settable) == noErr && !settable.boolValue)
        #expect(AudioObjectSetPropertyData(defaultOutput(), &name, 0, nil, 8, &value) == kAudioHardwareIllegalOperationError)
        var proc: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(9999, { _, _, _, _, _, _, _ in noErr }, nil, &proc) == kAudioHardwareBadDeviceError)
    }

    /// An IOProc writing a 1 kHz sine into the default output: the sink's monitor hears it at the right
    /// frequency and level, and the proc's output timestamps advance by one buffer per call.
    @Test func ioProcPlaysToTheServer() throws {
        let device = defaultOutput()
        final class Tone { var phase = 0.0; var calls = 0; var lastOutputTime = -1.0; var steady = true; var frames = 0 }
        let tone = Tone()
        var proc: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(device, { _, _, input, _, output, outputTime, data in
            let tone = Unmanaged<Tone>.fromOpaque(data!).takeUnretainedValue()
            let buffer = UnsafeMutableAudioBufferListPointer(output)[0]
            let frames = Int(buffer.mDataByteSize) / 8
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for k in 0..<frames {
                let v = Float(0.5 * sin(tone.phase))
                samples[2 * k] = v; samples[2 * k + 1] = v
                tone.phase += 2 * Double.pi * 1000 / 44100
            }
            if tone.lastOutputTime >= 0 && outputTime.pointee.mSampleTime - tone.lastOutputTime != Double(tone.frames) { tone.steady = false }
            tone.lastOutputTime = outputTime.pointee.mSampleTime
            tone.frames = frames
            tone.calls += 1
            return noErr
        }, Unmanaged.passUnretained(tone).toOpaque(), &proc) == noErr)
        // Output only: this proc does not use the input stream.
        var usage = AudioHardwareIOProcStreamUsage(mIOProc: unsafeBitCast(proc!, to: UnsafeMutableRawPointer.self), mNumberStreams: 1, mStreamIsOn: (0))
        var u = address(kAudioDevicePropertyIOProcStreamUsage, kAudioObjectPropertyScopeInput)
        #expect(AudioObjectSetPropertyData(device, &u, 0, nil, UInt32(MemoryLayout<AudioHardwareIOProcStreamUsage>.size), &usage) == noErr)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(AudioDeviceStart(device, proc) == noErr)
        #expect(get(device, kAudioDevicePropertyDeviceIsRunning, kAudioObjectPropertyScopeGlobal, UInt32(0)).1 == 1)
        Thread.sleep(forTimeInterval: 2)
        var now = AudioTimeStamp()
        #expect(AudioDeviceGetCurrentTime(device, &now) == noErr && now.mSampleTime > 44100)
        #expect(AudioDeviceStop(device, proc) == noErr)
        #expect(AudioDeviceDestroyIOProcID(device, proc!) == noErr)
        let heard = capture.finish()
        #expect(tone.calls > 100 && tone.steady, "calls \(tone.calls), frames \(tone.frames), heard \(heard[0].count)")
        let start = try #require(ToneAnalysis.onset(heard[0]))
        let body = heard[0][(start + 4410)...].prefix(44100)
        #expect(body.count == 44100)
        let fit = ToneAnalysis.fit(body, frequency: 1000, rate: 44100)
        #expect(abs(fit.amplitude - 0.5) < 0.01, "amplitude \(fit.amplitude)")
        #expect(ToneAnalysis.longestGap(body) < 8)
    }

    /// An IOProc that stalls for 200 ms (longer than the device's buffer) causes an xrun: it is recovered,
    /// reported through kAudioDeviceProcessorOverload, and the device keeps running and calling the proc. Over a
    /// second of running without the stall there is no report (the control).
    @Test func xrunsAreRecoveredAndReported() throws {
        let device = defaultOutput()
        final class Stall: @unchecked Sendable { var calls = 0; var trigger = false }
        let stall = Stall()
        var proc: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(device, { _, _, _, _, _, _, data in
            let s = Unmanaged<Stall>.fromOpaque(data!).takeUnretainedValue()
            s.calls += 1
            if s.trigger { s.trigger = false; usleep(200_000) }
            return noErr
        }, Unmanaged.passUnretained(stall).toOpaque(), &proc) == noErr)
        var usage = AudioHardwareIOProcStreamUsage(mIOProc: unsafeBitCast(proc!, to: UnsafeMutableRawPointer.self), mNumberStreams: 1, mStreamIsOn: (0))
        var u = address(kAudioDevicePropertyIOProcStreamUsage, kAudioObjectPropertyScopeInput)
        #expect(AudioObjectSetPropertyData(device, &u, 0, nil, UInt32(MemoryLayout<AudioHardwareIOProcStreamUsage>.size), &usage) == noErr)
        let heard = Heard()
        var overload = address(kAudioDeviceProcessorOverload)
        let listener: AudioObjectPropertyListenerBlock = { _, addresses in heard.add(addresses.pointee.mSelector) }
        let added = AudioObjectAddPropertyListenerBlock(device, &overload, nil, listener)
        #expect(added == noErr)
        #expect(AudioDeviceStart(device, proc) == noErr)
        Thread.sleep(forTimeInterval: 1)
        heard.reset()
        #expect(!heard.wait(for: kAudioDeviceProcessorOverload, timeout: 1), "an xrun without a stall")
        stall.trigger = true
        #expect(heard.wait(for: kAudioDeviceProcessorOverload, timeout: 3))
        let before = stall.calls
        Thread.sleep(forTimeInterval: 0.5)
        #expect(stall.calls > before + 20, "the device stopped calling the proc after the xrun")
        #expect(get(device, kAudioDevicePropertyDeviceIsRunning, UInt32(0)).1 == 1)
        #expect(get(device, kAudioDevicePropertyDeviceIsAlive, UInt32(0)).1 == 1)
        #expect(AudioDeviceStop(device, proc) == noErr)
        #expect(AudioDeviceDestroyIOProcID(device, proc!) == noErr)
        let removed = AudioObjectRemovePropertyListenerBlock(device, &overload, nil, listener)
        #expect(removed == noErr)
    }

    /// Setting the default output device notifies DefaultOutputDevice listeners; a device without the
    /// direction is refused with kAudioHardwareBadDeviceError.
    @Test func defaultDeviceChangesNotify() throws {
        var a = address(kAudioHardwarePropertyDevices)
        var size: UInt32 = 0
        #expect(AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &a, 0, nil, &size) == noErr)
        var ids = [AudioObjectID](repeating: 0, count: Int(size) / 4)
        #expect(AudioObjectGetPropertyData(kAudioObjectSystemObject, &a, 0, nil, &size, &ids) == noErr)
        let original = defaultOutput()
        let other = try #require(ids.first { $0 != original && string($0, kAudioDevicePropertyDeviceUID) == "pulse" }, "a second device")
        let heard = Heard()
        var d = address(kAudioHardwarePropertyDefaultOutputDevice)
        let listener: AudioObjectPropertyListenerBlock = { _, addresses in heard.add(addresses.pointee.mSelector) }
        let added = AudioObjectAddPropertyListenerBlock(kAudioObjectSystemObject, &d, nil, listener)
        #expect(added == noErr)
        var id = other
        #expect(AudioObjectSetPropertyData(kAudioObjectSystemObject, &d, 0, nil, 4, &id) == noErr)
        #expect(heard.wait(for: kAudioHardwarePropertyDefaultOutputDevice))
        #expect(defaultOutput() == other)
        heard.reset()
        id = original
        #expect(AudioObjectSetPropertyData(kAudioObjectSystemObject, &d, 0, nil, 4, &id) == noErr)
        #expect(heard.wait(for: kAudioHardwarePropertyDefaultOutputDevice))
        #expect(defaultOutput() == original)
        let removed = AudioObjectRemovePropertyListenerBlock(kAudioObjectSystemObject, &d, nil, listener)
        #expect(removed == noErr)
        id = 4242
        #expect(AudioObjectSetPropertyData(kAudioObjectSystemObject, &d, 0, nil, 4, &id) == kAudioHardwareBadDeviceError)
    }

    /// A device added to ALSA's configuration appears (with a Devices notification) and disappears again.
    @Test func devicesAppearAndDisappear() throws {
        let home = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".asoundrc")
        let saved = try? Data(contentsOf: home)
        defer { if let saved { try? saved.write(to: home) } else { try? FileManager.default.removeItem(at: home) } }
        let heard = Heard()
        var a = address(kAudioHardwarePropertyDevices)
        let listener: AudioObjectPropertyListenerBlock = { _, addresses in heard.add(addresses.pointee.mSelector) }
        let added = AudioObjectAddPropertyListenerBlock(kAudioObjectSystemObject, &a, nil, listener)
        #expect(added == noErr)
        defer { _ = AudioObjectRemovePropertyListenerBlock(kAudioObjectSystemObject, &a, nil, listener) }
        let config = (saved.flatMap { String(data: $0, encoding: .utf8) } ?? "")
            + "\npcm.ocatest { type pulse\n device mic\n hint { show on\n description \"OCA test device\" } }\n"
        try config.write(to: home, atomically: true, encoding: .utf8)
        #expect(heard.wait(for: kAudioHardwarePropertyDevices, timeout: 5))
        var t = address(kAudioHardwarePropertyTranslateUIDToDevice)
        var uid: CFString = "ocatest" as CFString
        var found = AudioObjectID(0)
        var size: UInt32 = 4
        #expect(AudioObjectGetPropertyData(kAudioObjectSystemObject, &t, UInt32(MemoryLayout<CFString>.size), &uid, &size, &found) == noErr)
        #expect(found != 0)
        #expect(string(found, kAudioObjectPropertyName) == "OCA test device")
        heard.reset()
        if let saved { try saved.write(to: home) } else { try FileManager.default.removeItem(at: home) }
        #expect(heard.wait(for: kAudioHardwarePropertyDevices, timeout: 5))
        #expect(get(found, kAudioDevicePropertyDeviceIsAlive, kAudioObjectPropertyScopeGlobal, UInt32(1)).0 == kAudioHardwareBadObjectError)
    }
}

/// Collects notified selectors across threads.
final class Heard: @unchecked Sendable {
    private let lock = NSCondition()
    private var selectors: [AudioObjectPropertySelector] = []
    func add(_ s: AudioObjectPropertySelector) { lock.withLock { selectors.append(s); lock.broadcast() } }
    func reset() { lock.withLock { selectors.removeAll() } }
    func wait(for s: AudioObjectPropertySelector, timeout: Double = 2) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !selectors.contains(s) { if !lock.wait(until: deadline) { return selectors.contains(s) } }
        return true
    }
}
